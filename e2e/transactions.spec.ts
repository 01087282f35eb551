import { E2E_OWNER } from '../playwright.config';
import { toasts } from '../shared/messages';
import { apiSignIn, approvedAgent, signIn } from './support/accounts';
import { type Browser, expect, type Page, test } from './support/test';

/**
 * The heart of the product in a real Chromium: an agent opens a deal, uploads a
 * document and comments; compliance rejects it with a reason; the agent uploads again; compliance
 * accepts. The admin also edits the checkboxes and deletes another transaction.
 */

test.describe.configure({ mode: 'serial' });

const DOCUMENT = 'Residential Listing Agreement';

/** A small but real PDF, padded so a throttled upload shows its progress. */
function pdf(sizeKiB: number): Buffer {
  const head = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n';
  const padding = `%${'x'.repeat(78)}\n`.repeat(Math.ceil((sizeKiB * 1024) / 80));
  return Buffer.from(`${head}${padding}trailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
}

async function newSession(browser: Browser, email: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, password);
  return page;
}

function card(page: Page, label: string) {
  return page.getByTestId(`form-${label}`);
}

async function uploadInto(page: Page, label: string, file: Buffer, name: string) {
  const chooser = page.waitForEvent('filechooser');
  await card(page, label).getByRole('button', { name: 'Upload' }).click();
  await (await chooser).setFiles({ name, mimeType: 'application/pdf', buffer: file });
}

async function shot(page: Page, name: string) {
  const file = `test-results/screenshots/${name}.png`;
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

test('agent and compliance work a document through rejection to acceptance', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const agent = await approvedAgent(request, 'Rosa');
  const agentPage = await newSession(browser, agent.email, agent.password);

  // Create through the dialog: Type first, then the Role select appears for Listing.
  await agentPage.getByRole('button', { name: 'Add Transaction' }).click();
  const dialog = agentPage.getByRole('dialog');
  await dialog.getByLabel('Type').selectOption('Listing');
  await dialog.getByLabel('Role').selectOption('Seller');
  await dialog.getByLabel('Street Address').fill('48 Lighthouse Point');
  await dialog.getByLabel('City').fill('Portland');
  await dialog.getByLabel('State').fill('ME');
  await dialog.getByLabel('Zip').fill('04101');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(agentPage.getByText(toasts.transactionCreated)).toBeVisible();
  await expect(agentPage).toHaveURL(/\/home\/transactions\/[0-9a-f-]{36}$/);
  const transactionId = agentPage.url().split('/').pop() as string;
  await expect(card(agentPage, DOCUMENT).getByTestId('form-status')).toHaveText('Pending');

  // Upload on a throttled connection, so the percentage is visible on the way.
  const cdp = await agentPage.context().newCDPSession(agentPage);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 256 * 1024,
  });
  await uploadInto(agentPage, DOCUMENT, pdf(600), 'listing-agreement.pdf');
  await expect(card(agentPage, DOCUMENT).getByText(/^\d{1,3}%$/)).toBeVisible();
  await expect(agentPage.getByText(toasts.fileUploaded)).toBeVisible({ timeout: 20_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(card(agentPage, DOCUMENT).getByRole('link', { name: 'View' })).toHaveAttribute(
    'href',
    /\/files\/transactions\//,
  );

  await card(agentPage, DOCUMENT).getByRole('button', { name: 'Add a comment' }).click();
  await card(agentPage, DOCUMENT).getByLabel('Comment').fill('Signed by both sellers.');
  await card(agentPage, DOCUMENT).getByRole('button', { name: 'Post comment' }).click();
  await expect(agentPage.getByText(toasts.commentAdded)).toBeVisible();
  await shot(agentPage, 'transaction-detail');

  // Compliance rejects with a reason.
  const adminPage = await newSession(browser, E2E_OWNER.email, E2E_OWNER.password);
  await adminPage.goto(`/adminTransactions/transactions/${transactionId}`);
  await expect(card(adminPage, DOCUMENT).getByText('Signed by both sellers.')).toBeVisible();
  // The reviewer's box opens on demand too; a rejection with text needs no chip.
  await card(adminPage, DOCUMENT).getByRole('button', { name: 'Add a comment' }).click();
  await card(adminPage, DOCUMENT).getByLabel('Comment').fill('Missing initials on page 3.');
  await card(adminPage, DOCUMENT).getByRole('button', { name: 'Reject' }).click();
  await expect(adminPage.getByText(toasts.reviewSaved)).toBeVisible();
  await expect(card(adminPage, DOCUMENT).getByTestId('form-status')).toHaveText('Rejected');

  // The agent sees it, and uploads again: back to pending.
  await agentPage.reload();
  await expect(card(agentPage, DOCUMENT).getByTestId('form-status')).toHaveText('Rejected');
  await expect(card(agentPage, DOCUMENT).getByText('Missing initials on page 3.')).toBeVisible();
  await uploadInto(agentPage, DOCUMENT, pdf(8), 'listing-agreement-initialled.pdf');
  await expect(agentPage.getByText(toasts.fileUploaded)).toBeVisible();
  await expect(card(agentPage, DOCUMENT).getByTestId('form-status')).toHaveText('Pending');

  // Compliance accepts; the agent sees it.
  await adminPage.reload();
  await card(adminPage, DOCUMENT).getByRole('button', { name: 'Accept' }).click();
  await expect(card(adminPage, DOCUMENT).getByTestId('form-status')).toHaveText('Accepted');
  await shot(adminPage, 'admin-transaction-detail');
  await agentPage.reload();
  await expect(card(agentPage, DOCUMENT).getByTestId('form-status')).toHaveText('Accepted');

  // The agent's list shows the deal.
  await agentPage.goto('/home');
  await expect(agentPage.getByRole('row', { name: /48 Lighthouse Point/ })).toBeVisible();
  await expect(agentPage.getByText(/Showing 1 to 1 of 1 results/)).toBeVisible();
  await shot(agentPage, 'home');

  // The admin ticks a checkbox, saves (back to the list), and the change holds.
  await adminPage.goto(`/adminTransactions/transactions/${transactionId}`);
  await adminPage.getByLabel('Title Report').check();
  await adminPage.getByRole('button', { name: 'Submit' }).click();
  await expect(adminPage).toHaveURL(/\/adminTransactions$/);
  await adminPage.goto(`/adminTransactions/transactions/${transactionId}`);
  await expect(adminPage.getByLabel('Title Report')).toBeChecked();
  await expect(adminPage.getByLabel('Natural Hazard Disclosure')).not.toBeChecked();

  // The admin deletes another transaction of the agent.
  const agentToken = (await apiSignIn(request, agent.email, agent.password)).token;
  const other = await request.post('/api/transactions', {
    headers: { authorization: `Bearer ${agentToken}` },
    data: {
      type: 'Referral',
      role: '-',
      streetAddress: '7 Short-Lived Court',
      city: 'Bangor',
      state: 'ME',
      zip: '04401',
    },
  });
  expect(other.status()).toBe(201);
  await adminPage.goto('/adminTransactions');
  const row = adminPage.getByRole('row', { name: /7 Short-Lived Court/ });
  await row.getByRole('button', { name: 'Delete' }).click();
  await adminPage.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(adminPage.getByText(toasts.transactionDeleted)).toBeVisible();
  await expect(row).toHaveCount(0);
  const gone = await request.get(`/api/transactions/individual/${(await other.json())._id}/${agent.id}`, {
    headers: { authorization: `Bearer ${agentToken}` },
  });
  expect(gone.status()).toBe(404);
});
