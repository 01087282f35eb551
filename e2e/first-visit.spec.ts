import { E2E_OWNER } from '../playwright.config';
import { onePagePdf } from '../server/storage/sample-pdf';
import { axeFindings, screenshot } from './support/a11y';
import { approvedAgent, signIn } from './support/accounts';
import { type APIRequestContext, type Browser, expect, type Page, test } from './support/test';

/**
 * What a new user meets first, in a real Chromium: an e-mailed link opened while signed out
 * lands on its page after sign-in (never on another site); an admin's /home says what waits for
 * the desk; a row of a list opens in a new tab; the first Tab of a page skips the navigation; the
 * calendar's entries are never cut short; a phone shows the top few things to do.
 */

test.describe.configure({ mode: 'serial' });

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

type Agent = Awaited<ReturnType<typeof approvedAgent>>;

async function openDeal(request: APIRequestContext, agent: Agent, streetAddress: string) {
  const created = await request.post('/api/transactions', {
    headers: auth(agent.token),
    data: { type: 'Purchase', role: 'Buyer', streetAddress, city: 'Portland', state: 'ME', zip: '04101' },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as { _id: string; forms: Array<{ _id: string; label: string }> };
}

async function signInFrom(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function freshPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}) {
  const context = await browser.newContext(options);
  return context.newPage();
}

let agent: Agent;
let deal: Awaited<ReturnType<typeof openDeal>>;

test.beforeAll(async ({ request }) => {
  agent = await approvedAgent(request, 'Nova');
  deal = await openDeal(request, agent, '77 First Visit Lane');
});

test('a link opened signed out lands on its page after sign-in, and never on another site', async ({
  browser,
}) => {
  const page = await freshPage(browser);
  // The e-mailed link of a notification.
  await page.goto(`/home/transactions/${deal._id}`);
  await expect(page).toHaveURL(/\/auth\/login\?next=%2Fhome%2Ftransactions%2F/);
  await signInFrom(page, agent.email, agent.password);
  await expect(page).toHaveURL(new RegExp(`/home/transactions/${deal._id}$`));
  await expect(page.getByRole('heading', { level: 2, name: /77 First Visit Lane/ })).toBeVisible();

  const calendar = await freshPage(browser);
  await calendar.goto('/calendar');
  await signInFrom(calendar, agent.email, agent.password);
  await expect(calendar).toHaveURL(/\/calendar$/);

  for (const next of ['https://example.com/home', '//example.com/home', '/\\example.com/home']) {
    const visitor = await freshPage(browser);
    await visitor.goto(`/auth/login?next=${encodeURIComponent(next)}`);
    await signInFrom(visitor, agent.email, agent.password);
    await expect(visitor).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/home$/);
  }
});

test("the owner's /home says what waits for the desk and leads to it", async ({ browser, request }) => {
  // Something to review: the agent's file on its first item.
  const first = deal.forms[0];
  if (!first) throw new Error('the deal has no checklist');
  const upload = await request.post(`/api/uploads/transactions/${deal._id}`, {
    headers: auth(agent.token),
    multipart: { file: { name: 'offer.pdf', mimeType: 'application/pdf', buffer: onePagePdf('Offer') } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const attached = await request.put(`/api/transactions/${deal._id}/forms/${first._id}`, {
    headers: auth(agent.token),
    data: { url: (await upload.json()).key },
  });
  expect(attached.status(), await attached.text()).toBe(200);

  const page = await freshPage(browser, { viewport: { width: 1440, height: 900 } });
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  const desk = page.getByRole('region', { name: 'Waiting for the desk' });
  // The count itself is the queue's total (client and server tests hold it to that); journeys
  // running beside this one add to the queue and take from it, so here it is only read back.
  await expect(desk).toContainText(/[1-9][\d,]* items? waits? for review/);
  await expect(page.getByText('Nothing needs your attention.')).toHaveCount(0);
  expect(await axeFindings(page, 'owner home with the desk')).toEqual([]);
  await screenshot(page, 'owner-home-desk-1440');
  await desk.getByRole('link', { name: 'Open the review queue' }).click();
  await expect(page).toHaveURL(/\/admin\/review$/);
});

test('a row opens in a new tab by middle-click or Ctrl+click, and its address copies as a link', async ({
  browser,
}) => {
  const page = await freshPage(browser, { viewport: { width: 1440, height: 900 } });
  await signIn(page, agent.email, agent.password);
  const row = page.getByRole('row').filter({ hasText: '77 First Visit Lane' });
  const href = `/home/transactions/${deal._id}`;
  await expect(row.getByRole('link', { name: '77 First Visit Lane' })).toHaveAttribute('href', href);
  const edit = row.getByRole('link', { name: 'Edit' });
  await expect(edit).toHaveAttribute('href', href);

  for (const open of [
    () => edit.click({ button: 'middle' }),
    () => edit.click({ modifiers: ['ControlOrMeta'] }),
  ]) {
    const opened = page.context().waitForEvent('page');
    await open();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe(href);
    await tab.close();
  }
  // The list itself stayed where it was.
  await expect(page).toHaveURL(/\/home$/);
});

test('the first Tab of a page offers to skip to its content', async ({ browser }) => {
  const page = await freshPage(browser, { viewport: { width: 1440, height: 900 } });
  await signIn(page, agent.email, agent.password);
  // The page's own controls must be there before the keyboard walk starts, or the Tab after
  // the skip would leave a still-empty main for the next thing in the document.
  const addTransaction = page.getByRole('main').getByRole('button', { name: 'Add Transaction' });
  await expect(addTransaction).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  const box = await skip.boundingBox();
  expect(box && box.y >= 0 && box.y + box.height <= 900).toBe(true);
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
  // The next Tab is inside the page (its Add Transaction), past the sidebar.
  await page.keyboard.press('Tab');
  await expect(addTransaction).toBeFocused();
});

test("the calendar's month shows each entry whole, wrapped, not cut", async ({ browser, request }) => {
  const today = new Date().toISOString().slice(0, 10);
  const dates = await request.put(`/api/transactions/${deal._id}/dates`, {
    headers: auth(agent.token),
    data: { dates: [{ kind: 'inspection', date: today }] },
  });
  expect(dates.status(), await dates.text()).toBe(200);
  const page = await freshPage(browser, { viewport: { width: 1440, height: 900 } });
  await signIn(page, agent.email, agent.password);
  await page.goto('/calendar');
  // The month grid's entry (the list beside it has its own link of the same name).
  const entry = page.locator('a[title="Inspection deadline · 77 First Visit Lane"]');
  await expect(entry).toBeVisible();
  const fits = await entry.evaluate((link) => link.scrollWidth <= link.clientWidth);
  expect(fits).toBe(true);
  await expect(entry).toHaveText('Inspection deadline · 77 First Visit Lane');
});

test('on a phone the attention strip shows the top few of each group, then Show all', async ({
  browser,
  request,
}) => {
  // A file with its whole checklist still to upload: more items than a phone should list at once.
  await openDeal(request, agent, '78 First Visit Lane');
  const page = await freshPage(browser, {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  await signIn(page, agent.email, agent.password);
  const strip = page.getByRole('region', { name: 'Needs your attention' });
  const missing = strip.getByRole('listitem').filter({ has: page.getByRole('link') });
  await expect(strip.getByRole('heading', { name: /^Missing documents/ })).toBeVisible();
  const before = await missing.count();
  const showAll = strip.getByRole('button', { name: /^Show all \d+ missing documents$/ });
  await expect(showAll).toBeVisible();
  await showAll.click();
  await expect.poll(() => missing.count()).toBeGreaterThan(before);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeFindings(page, 'home attention 390')).toEqual([]);
});
