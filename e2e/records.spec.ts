import { E2E_OWNER } from '../playwright.config';
import { axeFindings, screenshot } from './support/a11y';
import { apiSignIn, approvedAgent, signIn } from './support/accounts';
import { type APIRequestContext, expect, type Page, test } from './support/test';

/**
 * Records retention on a phone (390 px) in a real Chromium: the owner closes a compliant file and
 * reads how long it is kept, places a legal hold (the dialog asks for its reason first), and the
 * delete on the admin list is refused with the hold's words; the agent's page shows the date and
 * the hold too. axe finds nothing serious on the page, the dialog or the refusal.
 */

test.describe.configure({ mode: 'serial' });

const PHONE = { width: 390, height: 844 };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const REASON = 'Subpoena from the county court, case 26-CV-0412';

/** A file whose only required document is waived and approved: compliant, ready to close. */
async function compliantFile(request: APIRequestContext, address: string) {
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const type = `Records ${Date.now()}`;
  const template = await request.post('/api/admin/forms/transactions/insert', {
    headers: auth(owner.token),
    data: { type, role: '-', forms: ['Purchase Agreement'] },
  });
  expect(template.status(), await template.text()).toBe(201);
  const agent = await approvedAgent(request, 'Rita');
  const created = await request.post('/api/transactions', {
    headers: auth(agent.token),
    data: { type, role: '-', streetAddress: address, city: 'Augusta', state: 'ME', zip: '04330' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const deal = (await created.json()) as { _id: string; forms: Array<{ _id: string }> };
  const formId = deal.forms[0]?._id as string;
  const asked = await request.post(`/api/transactions/${deal._id}/forms/${formId}/waiver`, {
    headers: auth(agent.token),
    data: { reason: 'Signed at the closing table, copy with the title company' },
  });
  expect(asked.status(), await asked.text()).toBe(201);
  const approved = await request.post(`/api/admin/transactions/${deal._id}/forms/${formId}/waiver`, {
    headers: auth(owner.token),
    data: { approve: true },
  });
  expect(approved.status(), await approved.text()).toBe(200);
  return { agent, id: deal._id };
}

/** Today (UTC) seven years on: a file outside any office is kept that long. */
function sevenYearsFromToday(): string {
  const today = new Date().toISOString().slice(0, 10);
  const [year, month, day] = today.split('-');
  const until = Number(year) + 7;
  const leap = (until % 4 === 0 && until % 100 !== 0) || until % 400 === 0;
  return `${until}-${month}-${month === '02' && day === '29' && !leap ? '28' : day}`;
}

const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-description').getByText(text, { exact: true });

test('the owner closes a file, reads its retention, places a legal hold, and the delete is refused', async ({
  browser,
  request,
}) => {
  const address = `${Date.now() % 100000} Retention Road`;
  const { agent, id } = await compliantFile(request, address);
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  const findings: string[] = [];

  await page.goto(`/adminTransactions/transactions/${id}`);
  await page.getByRole('button', { name: 'Close transaction' }).click();
  await expect(page.getByText('This transaction is closed').first()).toBeVisible();
  const until = sevenYearsFromToday();
  await expect(page.getByText(`Kept until ${until}`)).toBeVisible();

  // The hold: the dialog refuses to go without a reason.
  const toggle = page.getByRole('switch', { name: 'Legal hold' });
  await expect(toggle).not.toBeChecked();
  await toggle.click({ force: true });
  const dialog = page.getByRole('dialog', { name: 'Place a legal hold' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Place hold' }).click();
  await expect(dialog.getByText('Give a reason for the legal hold')).toBeVisible();
  findings.push(...(await axeFindings(page, 'legal hold dialog at 390 px')));
  await screenshot(page, 'records-legal-hold-dialog-390');
  await dialog.getByRole('textbox', { name: /Reason/ }).fill(REASON);
  await dialog.getByRole('button', { name: 'Place hold' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(`Under legal hold: ${REASON}`)).toBeVisible();
  await expect(toggle).toBeChecked();
  await expect(page.getByText(`Placed a legal hold: ${REASON}`)).toBeVisible();
  findings.push(...(await axeFindings(page, 'held transaction at 390 px')));
  await screenshot(page, 'records-held-transaction-390');
  // Nothing sticks out sideways on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // The delete on the admin list: refused with the hold's words.
  await page.goto('/adminTransactions');
  await page.getByLabel('Quick Search').fill(address);
  await page.getByLabel('Quick Search').press('Enter');
  await expect(page.getByText(address).first()).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'This transaction is under legal hold')).toBeVisible();
  findings.push(...(await axeFindings(page, 'refused delete at 390 px')));
  await expect(page.getByText(address).first()).toBeVisible();

  // The agent reads the same on their page.
  const agentContext = await browser.newContext({ viewport: PHONE });
  const agentPage = await agentContext.newPage();
  await signIn(agentPage, agent.email, agent.password);
  await agentPage.goto(`/home/transactions/${id}`);
  await expect(agentPage.getByText(`Kept until ${until}`)).toBeVisible();
  await expect(agentPage.getByText(`Under legal hold: ${REASON}`)).toBeVisible();
  findings.push(...(await axeFindings(agentPage, "agent's held transaction at 390 px")));

  expect(findings).toEqual([]);
});
