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
 * signature with the standardwebhooks library. Then the owner rotates the secret: the next test
 * event carries two signatures, and the library verifies it with the new secret and with the old
 * one. axe finds nothing serious, also at 390 px.
 */

type Received = { type: string; verified: boolean; id: string };
type Signed = { body: string; headers: Record<string, string> };

const verifiesWith = (key: string, { body, headers }: Signed) => {
  try {
    new Webhook(key).verify(body, headers);
    return true;
  } catch {
    return false;
  }
};

test('an admin adds a webhook, sends a test event and sees it delivered', async ({ browser }) => {
  // Last in the suite, its ping waits behind the jobs (mail) of every journey before it.
  test.setTimeout(240_000);
  const received: Received[] = [];
  const signed: Signed[] = [];
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
      const verified = verifiesWith(secret, { body, headers });
      signed.push({ body, headers });
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

    // Rotated: the next delivery is signed with the new secret and the old one (for 24 hours).
    await row.getByRole('button', { name: `Rotate secret of ${url}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate secret' });
    await expect(confirm.getByText(/For 24 hours deliveries are signed with both/)).toBeVisible();
    expect(await axeFindings(page, 'rotate secret dialog')).toEqual([]);
    await confirm.getByRole('button', { name: 'Rotate' }).click();
    const rotated = page.getByRole('dialog', { name: 'Signing secret' });
    await expect(rotated.getByText(/New secret made/)).toBeVisible();
    const oldSecret = secret;
    const newSecret = (await rotated.getByTestId('webhook-secret').textContent()) ?? '';
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(newSecret).not.toBe(oldSecret);
    await expect(rotated.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    expect(await axeFindings(page, 'rotated secret dialog')).toEqual([]);
    await rotated.getByRole('button', { name: 'Done' }).click();
    await expect(rotated).toBeHidden();
    await expect(page.getByText(newSecret)).toHaveCount(0);
    await row.getByRole('button', { name: `Send test to ${url}` }).click();
    await expect(
      page.getByRole('row').filter({ hasText: 'ping' }).filter({ hasText: 'succeeded' }),
    ).toHaveCount(2, {
      timeout: 60_000,
    });
    const second = signed[1];
    if (!second) throw new Error('the second ping did not arrive');
    expect(second.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(verifiesWith(newSecret, second)).toBe(true);
    expect(verifiesWith(oldSecret, second)).toBe(true);
    expect(verifiesWith(newSecret, signed[0] as Signed)).toBe(false);

    // A phone: the same page as cards, nothing scrolls sideways.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const small = await phone.newPage();
    await signIn(small, E2E_OWNER.email, E2E_OWNER.password);
    await small.goto('/admin/webhooks');
    await expect(small.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await small.getByRole('button', { name: `Deliveries to ${url}` }).click();
    await expect(small.getByText('succeeded').first()).toBeVisible();
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeFindings(small, 'webhooks 390')).toEqual([]);
    await screenshot(small, 'owner-webhooks-390');
    // Back to the first window, the phone's closed: one page in front for the steps that follow.
    await phone.close();
    await page.bringToFront();

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
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
