import { readFile } from 'node:fs/promises';
import { E2E_OWNER } from '../playwright.config';
import { axeFindings, screenshot } from './support/a11y';
import { apiSignIn, approvedAgent, signIn } from './support/accounts';
import { type APIRequestContext, expect, test } from './support/test';

/**
 * A closed file's archive on a phone (390 px) in a real Chromium: the owner closes a compliant
 * file, the archive card says it is being prepared until the job has sealed it, then offers the
 * download; the zip downloaded is checked by POST /api/archive/verify. The agent downloads it too.
 * axe finds nothing serious on either page.
 */

test.describe.configure({ mode: 'serial' });

const PHONE = { width: 390, height: 844 };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
/** The smallest file the upload routes accept: its first bytes say PDF. */
const TINY_PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** A file whose one required document is uploaded and accepted: compliant, ready to close. */
async function compliantFile(request: APIRequestContext, address: string) {
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const type = `Archive ${Date.now()}`;
  const template = await request.post('/api/admin/forms/transactions/insert', {
    headers: auth(owner.token),
    data: { type, role: '-', forms: ['Purchase Agreement'] },
  });
  expect(template.status(), await template.text()).toBe(201);
  const agent = await approvedAgent(request, 'Archie');
  const created = await request.post('/api/transactions', {
    headers: auth(agent.token),
    data: { type, role: '-', streetAddress: address, city: 'Bangor', state: 'ME', zip: '04401' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const deal = (await created.json()) as { _id: string; forms: Array<{ _id: string }> };
  const formId = deal.forms[0]?._id as string;
  const upload = await request.post(`/api/uploads/transactions/${deal._id}`, {
    headers: auth(agent.token),
    multipart: { file: { name: 'purchase-agreement.pdf', mimeType: 'application/pdf', buffer: TINY_PDF } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const attached = await request.put(`/api/transactions/${deal._id}/forms/${formId}`, {
    headers: auth(agent.token),
    data: { url: ((await upload.json()) as { key: string }).key },
  });
  expect(attached.status(), await attached.text()).toBe(200);
  const accepted = await request.post(`/api/admin/transactions/${deal._id}/forms/${formId}/comments`, {
    headers: auth(owner.token),
    data: { status: 'accepted' },
  });
  expect(accepted.status(), await accepted.text()).toBe(201);
  return { agent, owner, id: deal._id };
}

async function verified(request: APIRequestContext, token: string, zip: Buffer) {
  const answer = await request.post('/api/archive/verify', {
    headers: auth(token),
    multipart: { file: { name: 'archive.zip', mimeType: 'application/zip', buffer: zip } },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return answer.json();
}

test('the owner closes a file, its archive is sealed, downloaded and verifies', async ({
  browser,
  request,
}) => {
  const address = `${Date.now() % 100000} Archive Avenue`;
  const { agent, owner, id } = await compliantFile(request, address);
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  const findings: string[] = [];

  await page.goto(`/adminTransactions/transactions/${id}`);
  await expect(page.getByRole('heading', { name: 'Archive' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Close transaction' }).click();
  await expect(page.getByText('This transaction is closed').first()).toBeVisible();
  const card = page.getByTestId('archive');
  await expect(card).toBeVisible();
  // Being prepared, then ready: the job seals it in the background.
  const download = page.getByRole('button', { name: 'Download archive' });
  await expect(download).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('archive-sha256')).toHaveText(/^[0-9a-f]{64}$/);
  findings.push(...(await axeFindings(page, 'archive card on the admin page at 390 px')));
  await screenshot(page, 'archive-card-admin-390');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^archive-.+\.zip$/);
  const zip = await readFile((await file.path()) as string);
  expect(zip.subarray(0, 2).toString()).toBe('PK');
  expect(await verified(request, owner.token, zip)).toEqual({ valid: true, problems: [] });

  // The agent's page offers the same archive.
  const agentContext = await browser.newContext({ viewport: PHONE });
  const agentPage = await agentContext.newPage();
  await signIn(agentPage, agent.email, agent.password);
  await agentPage.goto(`/home/transactions/${id}`);
  const agentDownload = agentPage.getByRole('button', { name: 'Download archive' });
  await expect(agentDownload).toBeVisible();
  await expect(agentPage.getByTestId('archive-sha256')).toHaveText(
    (await page.getByTestId('archive-sha256').textContent()) ?? '',
  );
  findings.push(...(await axeFindings(agentPage, "archive card on the agent's page at 390 px")));
  expect(await agentPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  const [agentFile] = await Promise.all([agentPage.waitForEvent('download'), agentDownload.click()]);
  expect(await verified(request, agent.token, await readFile((await agentFile.path()) as string))).toEqual({
    valid: true,
    problems: [],
  });

  expect(findings).toEqual([]);
});
