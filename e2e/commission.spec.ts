import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { E2E_OWNER } from '../playwright.config';
import { onePagePdf } from '../server/storage/sample-pdf';
import { commissionMessages } from '../shared/commission-messages';
import { toasts } from '../shared/messages';
import { axeFindings, screenshot } from './support/a11y';
import { apiSignIn, approvedAgent, signIn } from './support/accounts';
import { type Browser, expect, type Page, test } from './support/test';

/**
 * A commission from plan to payment in a real Chromium: the owner makes a commission plan and
 * gives it to an agent; the agent enters the transaction's commission; the owner is refused a CDA
 * while the file is not compliant and sees which items hold it back; the agent uploads the
 * missing document and the owner accepts it; the CDA is issued, its PDF downloaded (a PDF whose
 * SHA-256 is the one the page shows) and marked paid. axe finds nothing serious on the plans
 * page and the commission card, and the admin's transaction page works at 390 px.
 */

test.describe.configure({ mode: 'serial' });

const REQUIRED = 'Purchase Agreement';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function session(
  browser: Browser,
  email: string,
  password: string,
  viewport?: { width: number; height: number },
) {
  const context = await browser.newContext({ acceptDownloads: true, ...(viewport ? { viewport } : {}) });
  const page = await context.newPage();
  await signIn(page, email, password);
  return page;
}

/** The Commission card of a transaction page. */
const commissionCard = (page: Page) =>
  page.locator('section').filter({ has: page.getByRole('heading', { level: 2, name: 'Commission' }) });
const toast = (page: Page, text: string | RegExp) =>
  page.locator('.mantine-Notification-description').getByText(text);

test('a plan, an agent, a commission, a refused then issued CDA, its PDF, and its payment', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const stamp = Date.now();
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  // A checklist of one required document, so one acceptance makes the file compliant.
  const type = `Commission ${stamp}`;
  const template = await request.post('/api/admin/forms/transactions/insert', {
    headers: auth(owner.token),
    data: { type, role: '-', forms: [REQUIRED], optionalForms: [] },
  });
  expect(template.status(), await template.text()).toBe(201);
  const agent = await approvedAgent(request, 'Casey');
  const created = await request.post('/api/transactions', {
    headers: auth(agent.token),
    data: { type, role: '-', streetAddress: '40 Commission Way', city: 'Augusta', state: 'ME', zip: '04330' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const transactionId = ((await created.json()) as { _id: string })._id;

  // The owner adds a plan: 70% to the agent, the brokerage's year capped at $1,000, a $50 fee.
  const admin = await session(browser, E2E_OWNER.email, E2E_OWNER.password);
  await admin.getByRole('link', { name: 'Commission Plans' }).first().click();
  await expect(admin).toHaveURL(/\/admin\/commission-plans$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Commission Plans' })).toBeVisible();
  const planName = `Capped 70/30 ${stamp}`;
  await admin.getByRole('button', { name: 'Add plan' }).click();
  const planDialog = admin.getByRole('dialog', { name: 'Add plan' });
  await planDialog.getByRole('textbox', { name: 'Name' }).fill(planName);
  await planDialog.getByRole('textbox', { name: /Agent split/ }).fill('70');
  await planDialog.getByRole('textbox', { name: /Annual cap/ }).fill('1,000');
  await planDialog.getByRole('textbox', { name: /Transaction fee/ }).fill('50.00');
  await planDialog.getByRole('button', { name: 'Add plan' }).click();
  await expect(toast(admin, 'Plan added')).toBeVisible();
  const planRow = admin.getByRole('row').filter({ hasText: planName });
  await expect(planRow).toContainText('70%');
  await expect(planRow).toContainText('$1,000.00');
  await expect(planRow).toContainText('$50.00');
  expect(await axeFindings(admin, 'commission plans')).toEqual([]);
  await screenshot(admin, 'owner-commission-plans-1440');

  // ...and gives it to the agent, in the agent's office dialog.
  await admin.getByRole('link', { name: 'Users' }).first().click();
  await admin.getByLabel('Quick Search').fill(agent.email);
  await admin.getByLabel('Quick Search').press('Enter');
  const agentRow = admin.getByRole('row').filter({ hasText: agent.email });
  await agentRow.getByRole('button', { name: 'Edit office & coordination' }).click();
  const officeDialog = admin.getByRole('dialog');
  await officeDialog.getByRole('combobox', { name: 'Commission plan' }).selectOption({ label: planName });
  await officeDialog.getByRole('button', { name: 'Submit' }).click();
  await expect(toast(admin, 'Office and coordination saved')).toBeVisible();

  // The agent enters the commission: $10,000.00 gross, no referral.
  const agentPage = await session(browser, agent.email, agent.password);
  await agentPage.goto(`/home/transactions/${transactionId}`);
  const agentCard = commissionCard(agentPage);
  await agentCard.getByRole('textbox', { name: 'Gross commission' }).fill('10,000.00');
  await agentCard.getByRole('button', { name: 'Save commission' }).click();
  await expect(agentCard.getByTestId('commission-gross')).toHaveText('Gross commission: $10,000.00');
  await expect(agentCard).toContainText('No CDA issued yet.');

  // The owner asks for the CDA: refused, the file is not compliant, the missing item named.
  await admin.goto(`/adminTransactions/transactions/${transactionId}`);
  const card = commissionCard(admin);
  await expect(card.getByTestId('commission-gross')).toHaveText('Gross commission: $10,000.00');
  await card.getByRole('button', { name: 'Issue CDA' }).click();
  const refusal = card.getByRole('alert');
  await expect(refusal).toContainText('This transaction is not compliant yet: 1 required document');
  await expect(card.getByTestId('cda-missing').getByRole('listitem')).toHaveText([REQUIRED]);
  // The owner is brokerage-wide: the override is offered (and not taken here).
  await expect(card.getByRole('textbox', { name: /Override with a reason/ })).toBeVisible();
  expect(await axeFindings(admin, 'commission card refused')).toEqual([]);

  // The agent uploads the agreement, the owner accepts it: the file is compliant.
  const chooser = agentPage.waitForEvent('filechooser');
  await agentPage.getByTestId(`form-${REQUIRED}`).getByRole('button', { name: 'Upload' }).click();
  await (await chooser).setFiles({
    name: 'agreement.pdf',
    mimeType: 'application/pdf',
    buffer: onePagePdf('Agreement'),
  });
  await expect(agentPage.getByText(toasts.fileUploaded).last()).toBeVisible();
  await admin.reload();
  await admin.getByTestId(`form-${REQUIRED}`).getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(toast(admin, toasts.reviewSaved)).toBeVisible();

  // Issued: version 1, the split of the plan (the brokerage's 30% capped at $1,000, the fee moved).
  await card.getByRole('button', { name: 'Issue CDA' }).click();
  await expect(toast(admin, /CDA issued/)).toBeVisible();
  const version = card.getByTestId('cda-version-1');
  await expect(version).toContainText('Issued');
  await expect(version).toContainText('Gross $10,000.00');
  await expect(version.getByRole('row').filter({ hasText: 'Brokerage share' })).toContainText('$1,000.00');
  await expect(version.getByRole('row').filter({ hasText: 'Agent share' })).toContainText('$8,950.00');
  await expect(version.getByRole('row').filter({ hasText: 'Transaction fee' })).toContainText('$50.00');
  await expect(card.getByRole('button', { name: 'Issue new version' })).toBeVisible();

  // The PDF downloads, and its SHA-256 is the one shown (its full value in the title).
  const shown = await version.getByTestId('cda-sha256').getAttribute('title');
  expect(shown).toMatch(/^[0-9a-f]{64}$/);
  await expect(version.getByTestId('cda-sha256')).toHaveText(`${shown?.slice(0, 8)}…${shown?.slice(-8)}`);
  const downloading = admin.waitForEvent('download');
  await version.getByRole('link', { name: 'Download PDF of version 1' }).click();
  const pdf = await readFile(await (await downloading).path());
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(createHash('sha256').update(pdf).digest('hex')).toBe(shown);

  // Paid today: the badge says so, and a paid CDA cannot be replaced.
  await card
    .getByRole('form', { name: 'Mark version 1 paid' })
    .getByRole('button', { name: 'Mark paid' })
    .click();
  await expect(toast(admin, /CDA marked paid/)).toBeVisible();
  await expect(version).toContainText('Paid');
  await expect(card).toContainText(commissionMessages.cdaPaidCannotReplace);
  await expect(card.getByRole('button', { name: /Issue/ })).toHaveCount(0);
  expect(await axeFindings(admin, 'commission card paid')).toEqual([]);
  await screenshot(admin, 'owner-commission-card-1440');

  // The agent sees its CDA, paid, with nothing to issue.
  await agentPage.reload();
  await expect(agentCard.getByTestId('cda-version-1')).toContainText('Paid');
  await expect(agentCard.getByRole('button', { name: /Issue|Mark paid/ })).toHaveCount(0);

  // The admin's transaction page on a phone: nothing spills sideways, axe finds nothing serious.
  const phone = await session(browser, E2E_OWNER.email, E2E_OWNER.password, { width: 390, height: 844 });
  await phone.goto(`/adminTransactions/transactions/${transactionId}`);
  await expect(commissionCard(phone).getByTestId('cda-version-1')).toBeVisible();
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeFindings(phone, 'admin transaction 390')).toEqual([]);
  await screenshot(phone, 'owner-commission-card-390');
});
