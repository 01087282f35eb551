import { E2E_OWNER } from '../playwright.config';
import { onePagePdf } from '../server/storage/sample-pdf';
import { toasts } from '../shared/messages';
import { axeFindings, screenshot } from './support/a11y';
import { apiSignIn, approvedAgent, signIn } from './support/accounts';
import { type APIRequestContext, type Browser, expect, type Locator, type Page, test } from './support/test';

/**
 * A checklist that follows the facts, in a real Chromium: a template asks for the Lead-Based
 * Paint Disclosure while a home was built before 1978. The agent sets the year built in the Facts
 * card, sees the disclosure asked for with its reason, uploads it; a later year keeps it as an
 * optional item with its file. The admin rewrites the rule in the template editor and reads it
 * back in words. axe finds nothing serious on either, and both work at 390 px.
 */

test.describe.configure({ mode: 'serial' });

const LEAD = 'Lead-Based Paint Disclosure';
const PHONE = { width: 390, height: 844 };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A template of its own with the lead rule, an agent, and a transaction of that template. */
async function leadPlaybook(request: APIRequestContext) {
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const type = `Smart ${Date.now()}`;
  const template = await request.post('/api/admin/forms/transactions/insert', {
    headers: auth(owner.token),
    data: {
      type,
      role: '-',
      forms: ['Purchase Agreement'],
      conditionalForms: [{ label: LEAD, when: [{ fact: 'yearBuilt', op: 'lt', value: 1978 }] }],
    },
  });
  expect(template.status(), await template.text()).toBe(201);
  const agent = await approvedAgent(request, 'Faye');
  const created = await request.post('/api/transactions', {
    headers: auth(agent.token),
    data: { type, role: '-', streetAddress: '7 Rule Road', city: 'Salem', state: 'OR', zip: '97301' },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { agent, type, transactionId: ((await created.json()) as { _id: string })._id };
}

async function session(browser: Browser, email: string, password: string, viewport?: typeof PHONE) {
  const context = await browser.newContext(viewport ? { viewport } : {});
  const page = await context.newPage();
  await signIn(page, email, password);
  return page;
}

const factsCard = (page: Page) => page.getByRole('region', { name: 'Facts' });
const card = (page: Page, label: string) => page.getByTestId(`form-${label}`);

async function setYearBuilt(page: Page, year: string) {
  const facts = factsCard(page);
  await facts.getByRole('textbox', { name: 'Year built' }).fill(year);
  await facts.getByRole('button', { name: 'Save facts' }).click();
  await expect(page.locator('.mantine-Notification-title').getByText('Facts saved').last()).toBeVisible();
}

/** Nothing is wider than the screen: the document does not scroll sideways. */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${where}: the page scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

/** Wholly inside the screen's width. */
async function expectWithinWidth(locator: Locator, where: string) {
  const box = await locator.boundingBox();
  expect(box, where).not.toBeNull();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= PHONE.width, where).toBe(true);
}

test('the checklist follows the facts, and the admin rewrites the rule in words', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const { agent, type, transactionId } = await leadPlaybook(request);

  // No year built yet: the disclosure is not asked for.
  const agentPage = await session(browser, agent.email, agent.password);
  await agentPage.goto(`/home/transactions/${transactionId}`);
  await expect(card(agentPage, 'Purchase Agreement')).toBeVisible();
  await expect(card(agentPage, LEAD)).toHaveCount(0);

  // Built in 1965: the disclosure is required, and says why.
  await setYearBuilt(agentPage, '1965');
  await expect(card(agentPage, LEAD)).toContainText('Required');
  await expect(card(agentPage, LEAD).getByTestId('form-required-because')).toHaveText(
    'Required because Year built 1965 is before 1978',
  );
  expect(await axeFindings(agentPage, 'transaction detail with facts')).toEqual([]);
  await screenshot(agentPage, 'agent-facts-card-1440');

  const chooser = agentPage.waitForEvent('filechooser');
  await card(agentPage, LEAD).getByRole('button', { name: 'Upload' }).click();
  await (await chooser).setFiles({
    name: 'lead.pdf',
    mimeType: 'application/pdf',
    buffer: onePagePdf('Lead'),
  });
  await expect(agentPage.getByText(toasts.fileUploaded).last()).toBeVisible();
  await expect(card(agentPage, LEAD).getByTestId('form-file')).toContainText('lead.pdf');

  // A later year: the item stays, optional, with its file; no reason any more.
  await setYearBuilt(agentPage, '1990');
  await expect(card(agentPage, LEAD).getByTestId('form-state')).toContainText('Optional');
  await expect(card(agentPage, LEAD).getByTestId('form-file')).toContainText('lead.pdf');
  await expect(card(agentPage, LEAD).getByTestId('form-required-because')).toHaveCount(0);
  await expect(factsCard(agentPage).getByRole('textbox', { name: 'Year built' })).toHaveValue('1990');

  // On a phone: the Facts card and the items fit the screen.
  const phonePage = await session(browser, agent.email, agent.password, PHONE);
  await phonePage.goto(`/home/transactions/${transactionId}`);
  await expect(factsCard(phonePage).getByRole('textbox', { name: 'Year built' })).toHaveValue('1990');
  await expectNoSidewaysScroll(phonePage, 'transaction detail at 390 px');
  await expectWithinWidth(factsCard(phonePage).getByRole('button', { name: 'Save facts' }), 'Save facts');

  // The admin rewrites the rule: the sale price over $750,000, read back in words.
  const adminPage = await session(browser, E2E_OWNER.email, E2E_OWNER.password);
  const dialog = await openTemplateEditor(adminPage, type);
  const rule = dialog.getByRole('group', { name: 'Conditional document 1' });
  await expect(rule.getByTestId('rule-preview')).toHaveText('Required when year built is before 1978');
  const condition = rule.getByRole('group', { name: 'Condition 1' });
  await condition.getByRole('combobox', { name: 'Fact' }).selectOption({ label: 'Sale price' });
  await condition.getByRole('combobox', { name: 'Operator' }).selectOption({ label: 'over' });
  await condition.getByRole('textbox', { name: /^Value/ }).fill('750000');
  await expect(rule.getByTestId('rule-preview')).toHaveText('Required when sale price is over $750,000.00');
  expect(await axeFindings(adminPage, 'template editor')).toEqual([]);
  await screenshot(adminPage, 'owner-template-rules-1440');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
  const row = adminPage.getByRole('row').filter({ hasText: type });
  await expect(row).toContainText(`${LEAD} (conditional)`);
  await expect(row).toContainText('Required when sale price is over $750,000.00');

  // The editor on a phone.
  const adminPhone = await session(browser, E2E_OWNER.email, E2E_OWNER.password, PHONE);
  const phoneDialog = await openTemplateEditor(adminPhone, type);
  await expect(phoneDialog.getByTestId('rule-preview')).toHaveText(
    'Required when sale price is over $750,000.00',
  );
  await expectNoSidewaysScroll(adminPhone, 'template editor at 390 px');
  await expectWithinWidth(
    phoneDialog.getByRole('group', { name: 'Condition 1' }).getByRole('textbox', { name: /^Value/ }),
    'the condition value',
  );
  await expectWithinWidth(phoneDialog.getByRole('button', { name: 'Add conditional document' }), 'Add');
});

/** The Templates page narrowed to one type by Quick Search, and its update dialog. */
async function openTemplateEditor(page: Page, type: string) {
  await page.goto('/admin/forms/transactions/view');
  await page.getByRole('textbox', { name: 'Quick Search' }).fill(type);
  await page.getByRole('button', { name: 'search' }).click();
  // A table row, or a card on a phone (the same <tr>, laid out by CSS).
  await page.locator('tr').filter({ hasText: type }).getByRole('button', { name: 'Update' }).click();
  const dialog = page.getByRole('dialog', { name: 'Update Transactions Forms' });
  await expect(dialog).toBeVisible();
  return dialog;
}
