import { E2E_OWNER } from '../playwright.config';
import { toasts } from '../shared/messages';
import { approvedAgent, signIn } from './support/accounts';
import { expect, test } from './support/test';

/**
 * The libraries in a real Chromium: the owner uploads a form (percent shown, toast),
 * an agent finds it by search and opens it; the owner adds, updates and deletes a tutorial.
 */

function pdf(sizeKiB: number): Buffer {
  const padding = `%${'x'.repeat(78)}\n`.repeat(Math.ceil((sizeKiB * 1024) / 80));
  return Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n${padding}%%EOF\n`, 'latin1');
}

test('the owner uploads a form with its progress; an agent finds it and opens it', async ({
  browser,
  request,
}) => {
  // Two people, a throttled upload and a search: more than the default 30 s when the machine
  // is busy (seen at 31 s under a load average of 10 on 2 cores).
  test.setTimeout(120_000);
  const ownerPage = await (await browser.newContext()).newPage();
  await signIn(ownerPage, E2E_OWNER.email, E2E_OWNER.password);
  await ownerPage.goto('/forms');
  await ownerPage.getByRole('button', { name: 'Add Forms' }).click();
  const dialog = ownerPage.getByRole('dialog');
  const name = `Escrow Instructions ${Date.now()}`;
  await dialog.getByLabel('Name').fill(name);

  // A throttled upload, so the percentage is visible on the way.
  const cdp = await ownerPage.context().newCDPSession(ownerPage);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 256 * 1024,
  });
  const chooser = ownerPage.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Choose file' }).click();
  await (await chooser).setFiles({ name: 'escrow.pdf', mimeType: 'application/pdf', buffer: pdf(600) });
  await expect(dialog.getByText(/^\d{1,3}%$/)).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'escrow.pdf' })).toBeVisible({ timeout: 20_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(ownerPage.getByText(toasts.formAdded)).toBeVisible();

  const agent = await approvedAgent(request, 'Tomas');
  const agentPage = await (await browser.newContext()).newPage();
  await signIn(agentPage, agent.email, agent.password);
  await agentPage.goto('/forms');
  await expect(agentPage.getByRole('button', { name: 'Add Forms' })).toHaveCount(0);
  await agentPage.getByLabel('Quick Search').fill(`  ${name.toLowerCase()}  `);
  await agentPage.getByRole('button', { name: 'search' }).click();
  const row = agentPage.getByRole('row', { name: new RegExp(name) });
  await expect(row).toBeVisible();
  const [opened] = await Promise.all([
    agentPage.waitForEvent('popup'),
    row.getByRole('link', { name: 'Open' }).click(),
  ]);
  await opened.waitForLoadState();
  expect(opened.url()).toMatch(/\/files\/forms\/[0-9a-f-]{36}-escrow\.pdf\?exp=\d+&sig=/);
});

test('the owner adds, updates and deletes a tutorial', async ({ page }) => {
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  await page.goto('/tutorials');
  await page.getByRole('button', { name: 'Add Tutorials' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Closing day checklist');
  await dialog.getByLabel('Link').fill('https://videos.example.com/closing-day');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(toasts.tutorialAdded)).toBeVisible();
  const row = page.getByRole('row', { name: /Closing day checklist/ });
  await expect(row.getByRole('link', { name: 'Open' })).toHaveAttribute(
    'href',
    'https://videos.example.com/closing-day',
  );

  await row.getByRole('button', { name: 'Update' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Closing day checklist (2026)');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  const renamed = page.getByRole('row', { name: /Closing day checklist \(2026\)/ });
  await expect(renamed).toBeVisible();

  await renamed.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(toasts.tutorialDeleted)).toBeVisible();
  await expect(renamed).toHaveCount(0);
});
