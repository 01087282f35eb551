import { E2E_OWNER } from '../playwright.config';
import { toasts } from '../shared/messages';
import { approvedAgent, signIn } from './support/accounts';
import { type Browser, expect, type Locator, type Page, test } from './support/test';

/**
 * Links to the files this server serves. The server's APP_URL is
 * http://127.0.0.1:<port>; these pages are opened at http://localhost:<port> instead, another
 * address of the same server (as behind a proxy, or with an APP_URL nobody updated), and every
 * request to the APP_URL address is refused. "View", "Open" and the file just uploaded must
 * still open the file, on the address the browser uses.
 */

const APP_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4173)}`;
const BROWSER_URL = APP_URL.replace('127.0.0.1', 'localhost');

function pdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    'latin1',
  );
}

/** A page on the browser's address, to which the APP_URL address answers nothing. */
async function pageAtOtherAddress(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: BROWSER_URL });
  await context.route(`${APP_URL}/**`, (route) => route.abort('addressunreachable'));
  return context.newPage();
}

/** The link leads to a file of this server on the page's own origin, and the file is there. */
async function expectSameOriginFile(page: Page, link: Locator, path: RegExp) {
  const href = await link.getAttribute('href');
  const target = new URL(href ?? '', page.url());
  expect(target.origin).toBe(BROWSER_URL);
  expect(target.pathname).toMatch(path);
  const res = await page.request.get(target.href);
  expect(res.status()).toBe(200);
  expect((await res.body()).subarray(0, 5).toString()).toBe('%PDF-');
}

test("a wrong APP_URL does not break a document's View, nor the forms library's links", async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const agent = await approvedAgent(request, 'Wanda');
  const created = await request.post('/api/transactions', {
    headers: { authorization: `Bearer ${agent.token}` },
    data: {
      type: 'Listing',
      role: 'Seller',
      streetAddress: '7 Proxy Lane',
      city: 'Portland',
      state: 'ME',
      zip: '04101',
    },
  });
  expect(created.status()).toBe(201);
  const transactionId = (await created.json())._id as string;

  const agentPage = await pageAtOtherAddress(browser);
  await signIn(agentPage, agent.email, agent.password);
  await agentPage.goto(`/home/transactions/${transactionId}`);
  const card = agentPage.getByTestId('form-Residential Listing Agreement');
  const chooser = agentPage.waitForEvent('filechooser');
  await card.getByRole('button', { name: 'Upload' }).click();
  await (await chooser).setFiles({ name: 'listing.pdf', mimeType: 'application/pdf', buffer: pdf() });
  await expect(agentPage.getByText(toasts.fileUploaded)).toBeVisible();
  const view = card.getByRole('link', { name: 'View' });
  await expect(view).toBeVisible();
  await expectSameOriginFile(agentPage, view, /^\/files\/transactions\//);
  const [opened] = await Promise.all([agentPage.waitForEvent('popup'), view.click()]);
  await opened.waitForLoadState();
  expect(opened.url().startsWith(`${BROWSER_URL}/files/transactions/`)).toBe(true);

  const ownerPage = await pageAtOtherAddress(browser);
  await signIn(ownerPage, E2E_OWNER.email, E2E_OWNER.password);
  await ownerPage.goto('/forms');
  await ownerPage.getByRole('button', { name: 'Add Forms' }).click();
  const dialog = ownerPage.getByRole('dialog');
  const name = `Proxy Form ${Date.now()}`;
  await dialog.getByLabel('Name').fill(name);
  const formChooser = ownerPage.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Choose file' }).click();
  await (await formChooser).setFiles({ name: 'proxy.pdf', mimeType: 'application/pdf', buffer: pdf() });
  // The file just uploaded, linked from the dialog (the upload's own answer).
  const uploaded = dialog.getByRole('link', { name: 'proxy.pdf' });
  await expect(uploaded).toBeVisible();
  await expectSameOriginFile(ownerPage, uploaded, /^\/files\/forms\//);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(ownerPage.getByText(toasts.formAdded)).toBeVisible();
  const row = ownerPage.getByRole('row', { name: new RegExp(name) });
  await expectSameOriginFile(ownerPage, row.getByRole('link', { name: 'Open' }), /^\/files\/forms\//);
});
