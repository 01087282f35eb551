import { readFile } from 'node:fs/promises';
import { E2E_OWNER } from '../playwright.config';
import { onePagePdf } from '../server/storage/sample-pdf';
import { axeFindings, screenshot } from './support/a11y';
import { apiSignIn, approvedAgent, signIn } from './support/accounts';
import { type APIRequestContext, expect, type Page, test } from './support/test';

/**
 * The broker dashboard and the agent's attention strip in a real Chromium. The owner
 * builds a little history through the API (an agent, two files of a type of their own: one
 * accepted in full and closing today, one with a rejected and a missing document closing in 3
 * days), then reads the figures, changes the range (kept in the address across a reload), sees
 * a bad range refused with the server's message, sees the money panel in dollars to the cent,
 * saves a table as CSV and follows the file at
 * risk to its page. axe finds nothing serious at 1440 or 390 px, and nothing spills sideways on
 * a phone. The agent sees the strip and follows the rejected document to its checklist item.
 */

test.describe.configure({ mode: 'serial' });

const REQUIRED = ['Purchase Agreement', 'Agency Disclosure'];
const RISKY = '7 Risky Row';
const SETTLED = '5 Settled Street';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A UTC calendar day, `days` from today: the dashboard counts days in UTC. */
function utcDay(days = 0): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** As the page writes a day: 'Nov 4, 2026'. */
const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });

type Deal = { _id: string; forms: Array<{ _id: string; label: string }> };
type History = {
  agent: Awaited<ReturnType<typeof approvedAgent>>;
  risky: Deal;
  riskyAddress: string;
  rejectedFormId: string;
};

async function history(request: APIRequestContext): Promise<History> {
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const type = `Dashboard ${Date.now()}`;
  const template = await request.post('/api/admin/forms/transactions/insert', {
    headers: auth(owner.token),
    data: { type, role: '-', forms: REQUIRED },
  });
  expect(template.status(), await template.text()).toBe(201);
  const agent = await approvedAgent(request, 'Dashiell');

  const open = async (streetAddress: string, closing: string): Promise<Deal> => {
    const created = await request.post('/api/transactions', {
      headers: auth(agent.token),
      data: { type, role: '-', streetAddress, city: 'Augusta', state: 'ME', zip: '04330' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const deal = (await created.json()) as Deal;
    const dates = await request.put(`/api/transactions/${deal._id}/dates`, {
      headers: auth(agent.token),
      data: { dates: [{ kind: 'closing', date: closing }] },
    });
    expect(dates.status(), await dates.text()).toBe(200);
    return deal;
  };
  const formOf = (deal: Deal, label: string) =>
    deal.forms.find((form) => form.label === label)?._id as string;

  const upload = async (deal: Deal, label: string) => {
    const stored = await request.post(`/api/uploads/transactions/${deal._id}`, {
      headers: auth(agent.token),
      multipart: { file: { name: `${label}.pdf`, mimeType: 'application/pdf', buffer: onePagePdf(label) } },
    });
    expect(stored.status(), await stored.text()).toBe(201);
    const attached = await request.put(`/api/transactions/${deal._id}/forms/${formOf(deal, label)}`, {
      headers: auth(agent.token),
      data: { url: ((await stored.json()) as { key: string }).key },
    });
    expect(attached.status(), await attached.text()).toBe(200);
  };
  const decide = async (deal: Deal, label: string, status: 'accepted' | 'rejected') => {
    const res = await request.post(
      `/api/admin/transactions/${deal._id}/forms/${formOf(deal, label)}/comments`,
      {
        headers: auth(owner.token),
        data:
          status === 'rejected'
            ? { status, text: 'The buyer has not signed page 3.', reasons: ['missing-signature'] }
            : { status },
      },
    );
    expect(res.status(), await res.text()).toBe(201);
  };

  // Compliant on its closing day: both documents accepted.
  const settled = await open(SETTLED, utcDay(0));
  for (const label of REQUIRED) {
    await upload(settled, label);
    await decide(settled, label, 'accepted');
  }
  // At risk: closing in 3 days with one document rejected and the other never uploaded.
  const risky = await open(RISKY, utcDay(3));
  await upload(risky, 'Purchase Agreement');
  await decide(risky, 'Purchase Agreement', 'rejected');

  return {
    agent,
    risky,
    riskyAddress: `${RISKY}, Augusta, ME 04330`,
    rejectedFormId: formOf(risky, 'Purchase Agreement'),
  };
}

let built: Promise<History> | undefined;
const data = (request: APIRequestContext) => {
  built ??= history(request);
  return built;
};

/** A table's body row holding `text`, as its cells' text. */
async function rowCells(page: Page, table: string, text: string): Promise<string[]> {
  const row = page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });
  await expect(row).toHaveCount(1);
  return row.getByRole('cell').allTextContents();
}

/** A choice of the range control: its radio is visually hidden, its label is what one clicks. */
const segment = (page: Page, name: string) =>
  page.locator('label').filter({ hasText: new RegExp(`^${name}$`) });

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test('the owner reads the dashboard, changes the range and follows a file at risk', async ({
  browser,
  request,
}) => {
  test.setTimeout(360_000);
  const { risky, riskyAddress } = await data(request);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);

  // First in the admin's navigation.
  const navigation = page.getByRole('navigation', { name: 'Main' });
  await expect(navigation.getByRole('link').first()).toHaveText('Dashboard');
  await navigation.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('radio', { name: '30 days' })).toBeChecked();

  // The history just built, among whatever else this server holds.
  expect(await rowCells(page, 'Files at risk', RISKY)).toEqual([
    riskyAddress,
    'Dashiell Tester',
    expect.stringMatching(/\(in 3 days\)$/),
    '1',
    '1',
    '0',
  ]);
  expect(await rowCells(page, 'Rejections by agent', 'Dashiell Tester')).toEqual([
    'Dashiell Tester',
    '3',
    '1',
    '33.3%',
  ]);
  expect(await rowCells(page, 'Turnaround by reviewer', 'Admin Owner')).toEqual([
    'Admin Owner',
    expect.stringMatching(/^\d+$/),
    expect.any(String),
  ]);
  await expect(page.getByRole('table', { name: 'Top rejection reasons' })).toContainText('Missing signature');
  await expect(
    page.getByRole('table', { name: 'Compliance at close by month' }).getByRole('row'),
  ).not.toHaveCount(1);
  await expect(page.getByTestId('stat-Decisions')).not.toHaveText('0');
  // Money: the range's CDAs in dollars to the cent, each month of the range in its table.
  const money = page.getByRole('region', { name: 'Money' });
  await expect(money.getByRole('heading', { level: 2, name: 'Money' })).toBeVisible();
  for (const label of ['Gross commission', 'Brokerage', 'Agents', 'Not paid yet'])
    await expect(page.getByTestId(`stat-${label}`)).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
  const moneyMonths = page.getByRole('table', { name: 'Money by month' }).getByRole('row');
  // A header, then the months 30 days touch: one or two.
  expect([2, 3]).toContain(await moneyMonths.count());
  await expect(moneyMonths.last().getByRole('cell').last()).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
  const turnaroundChart = page.getByRole('img', { name: /median turnaround of each reviewer/ });
  await expect(turnaroundChart.locator('svg').first()).toBeVisible();
  // Labelled: the axis names its unit, and the owner's bar its figure, as the table gives it.
  const [, , ownerMedian] = await rowCells(page, 'Turnaround by reviewer', 'Admin Owner');
  await expect(
    turnaroundChart.locator('svg text').filter({ hasText: /^Median turnaround \((minutes|hours)\)$/ }),
  ).toBeVisible();
  await expect(
    turnaroundChart.locator('svg text.recharts-label').filter({ hasText: ownerMedian as string }),
  ).toBeVisible();

  expect(await axeFindings(page, 'dashboard at 1440 px')).toEqual([]);
  await screenshot(page, 'owner-dashboard-journey-1440');

  // A table saved as CSV: the rows shown, header first.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV: Files at risk' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('files-at-risk.csv');
  const csv = await readFile((await file.path()) as string, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('Transaction,Agent,Closing date,Missing,Rejected,Awaiting review');
  expect(csv).toContain(`"${riskyAddress}",Dashiell Tester,`);

  // 7 days: asked for, kept in the address, still there after a reload.
  await segment(page, '7 days').click();
  await expect(page).toHaveURL(/\/admin\/dashboard\?range=7$/);
  await expect(
    page.getByText(`Figures from ${dayLabel(utcDay(-6))} to ${dayLabel(utcDay(0))}`),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByRole('radio', { name: '7 days' })).toBeChecked();
  await expect(page.getByRole('table', { name: 'Files at risk' })).toContainText(RISKY);

  // Custom: both days are needed before anything is asked.
  await segment(page, 'Custom').click();
  await page.getByRole('button', { name: 'Clear date' }).first().click();
  await page.getByRole('button', { name: 'Show figures' }).click();
  await expect(page.getByText('Choose the first day')).toBeVisible();
  await expect(page).toHaveURL(/\?range=7$/);

  // A range the server refuses (typed into the address): its message is shown.
  await page.goto('/admin/dashboard?from=2026-02-01&to=2026-01-01');
  const refused = page.getByRole('alert').filter({ hasText: 'These dates cannot be shown' });
  await expect(refused).toContainText('"to" must not be before "from"');
  await expect(page.getByRole('radio', { name: 'Custom' })).toBeChecked();

  // Back to the default, then on to the file at risk.
  await segment(page, '30 days').click();
  await expect(page).toHaveURL(/\?range=30$/);
  await page.getByRole('table', { name: 'Files at risk' }).getByRole('link', { name: riskyAddress }).click();
  await expect(page).toHaveURL(new RegExp(`/adminTransactions/transactions/${risky._id}$`));
  await expect(page.getByRole('heading', { level: 2, name: riskyAddress })).toBeVisible();
  await context.close();
});

test('the dashboard fits a phone and passes axe there', async ({ browser, request }) => {
  test.setTimeout(180_000);
  await data(request);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { level: 2, name: 'Files at risk' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Files at risk' })).toContainText(RISKY);
  await page.getByRole('heading', { level: 2, name: 'Money' }).scrollIntoViewIfNeeded();
  await expect(page.getByTestId('stat-Gross commission')).toBeInViewport();
  await expect(page.getByRole('table', { name: 'Money by month' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  expect(await axeFindings(page, 'dashboard at 390 px')).toEqual([]);
  await screenshot(page, 'owner-dashboard-journey-390');

  await segment(page, 'Custom').click();
  await expect(page.getByRole('button', { name: 'Show figures' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await context.close();
});

test('the agent sees what needs attention and follows it to the checklist item', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const { agent, risky, riskyAddress, rejectedFormId } = await data(request);
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signIn(page, agent.email, agent.password);
    const strip = page.getByRole('region', { name: 'Needs your attention' });
    await expect(strip.getByRole('heading', { name: 'Rejected documents (1)' })).toBeVisible();
    await expect(strip.getByRole('heading', { name: 'Missing documents (1)' })).toBeVisible();
    await expect(strip.getByRole('link', { name: `Agency Disclosure, ${riskyAddress}` })).toBeVisible();
    await expect(
      strip.getByRole('link', { name: new RegExp(`^Closing · .*, ${riskyAddress}$`) }),
    ).toBeVisible();
    await expectNoSidewaysScroll(page);
    expect(await axeFindings(page, `attention strip at ${viewport.width} px`)).toEqual([]);
    await screenshot(page, `agent-attention-${viewport.width}`);

    await strip.getByRole('link', { name: `Purchase Agreement, ${riskyAddress}` }).click();
    await expect(page).toHaveURL(new RegExp(`/home/transactions/${risky._id}#item-${rejectedFormId}$`));
    const card = page.getByTestId('form-Purchase Agreement');
    await expect(card).toContainText('Missing signature');
    await expect(card.getByRole('heading', { name: 'Purchase Agreement' })).toBeInViewport();
    await context.close();
  }
});
