import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { E2E_OWNER } from '../playwright.config';
import { axeFindings, screenshot } from './support/a11y';
import { signIn } from './support/accounts';
import { expect, test } from './support/test';

/**
 * Webhooks in a real Chromium: the owner adds an endpoint pointing at a receiver this
 * test runs (the e2e server has WEBHOOK_ALLOW_PRIVATE=true), copies its secret from the one dialog
 * that shows it, sends a test event, and sees the delivery succeed; the receiver verifies the
 * signature with the standardwebhooks library. axe finds nothing serious, also at 390 px.
 */

type Received = { type: string; verified: boolean; id: string };

test('an admin adds a webhook, sends a test event and sees it delivered', async ({ browser }) => {
  // Last in the suite, its ping waits behind the jobs (mail) of every journey before it.
  test.setTimeout(240_000);
  const received: Received[] = [];
  let secret = '';
  const receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      };
      let verified = false;
      try {
        new Webhook(secret).verify(body, headers);
        verified = true;
      } catch {}
      received.push({
        type: (JSON.parse(body) as { type: string }).type,
        verified,
        id: headers['webhook-id'],
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/portal`;

  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByText('No webhooks yet.')).toBeVisible();

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook' });
    await dialog.getByRole('textbox', { name: 'URL' }).fill(url);
    await dialog.getByRole('combobox', { name: 'Events' }).click();
    await page.getByRole('option', { name: 'transaction.created' }).click();
    await page.getByRole('option', { name: 'document.uploaded' }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('CRM sync');
    expect(await axeFindings(page, 'add webhook dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Submit' }).click();

    const shown = page.getByRole('dialog', { name: 'Signing secret' });
    await expect(shown.getByText(/This secret is shown only once/)).toBeVisible();
    secret = (await shown.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await expect(shown.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    expect(await axeFindings(page, 'secret dialog')).toEqual([]);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();
    // Shown once: the page does not hold it any more.
    await expect(page.getByText(secret)).toHaveCount(0);

    const row = page.getByRole('row').filter({ hasText: url });
    await expect(row.getByText('transaction.created, document.uploaded')).toBeVisible();
    await row.getByRole('button', { name: `Send test to ${url}` }).click();
    await expect(page.getByText('Test event queued')).toBeVisible();
    const deliveries = page.getByRole('heading', { name: `Deliveries to ${url}` });
    await expect(deliveries).toBeVisible();
    const delivery = page.getByRole('row').filter({ hasText: 'ping' });
    // A cap, not a goal: on a loaded CI host the ping waited over 20 s behind the suite's jobs.
    await expect(delivery.getByText('succeeded')).toBeVisible({ timeout: 60_000 });
    await expect(delivery.getByText('204')).toBeVisible();
    expect(received).toEqual([{ type: 'ping', verified: true, id: expect.any(String) }]);
    expect(await axeFindings(page, 'webhooks with deliveries')).toEqual([]);
    await screenshot(page, 'owner-webhooks');

    // A phone: the same page as cards, nothing scrolls sideways.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const small = await phone.newPage();
    await signIn(small, E2E_OWNER.email, E2E_OWNER.password);
    await small.goto('/admin/webhooks');
    await expect(small.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await small.getByRole('button', { name: `Deliveries to ${url}` }).click();
    await expect(small.getByText('succeeded')).toBeVisible();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeFindings(small, 'webhooks 390')).toEqual([]);
    await screenshot(small, 'owner-webhooks-390');

    // Deactivated, the endpoint takes no test; deleted, it is gone.
    await row.getByRole('button', { name: `Deactivate ${url}` }).click();
    await expect(row.getByText('Deactivated')).toBeVisible();
    await expect(row.getByRole('button', { name: `Send test to ${url}` })).toBeDisabled();
    await row.getByRole('button', { name: `Delete ${url}` }).click();
    await page
      .getByRole('dialog', { name: 'Delete webhook' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByText('No webhooks yet.')).toBeVisible();
    await context.close();
    await phone.close();
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
