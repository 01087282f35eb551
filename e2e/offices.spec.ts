import { paths, routeTo } from '../client/paths';
import { E2E_OWNER } from '../playwright.config';
import { officeMessages, toasts } from '../shared/messages';
import { axeFindings } from './support/a11y';
import { apiSignIn, approvedAgent, signIn } from './support/accounts';
import { type APIRequestContext, type Browser, expect, type Page, test } from './support/test';

/**
 * Offices in a real Chromium: the owner makes two offices, places an agent in each, makes an
 * office admin of the first and a coordinator for its agent, all through the Users page. The
 * office admin sees its own office's files only (another office's file, typed by hand, is not
 * found); the coordinator works on its agent's file, and the agent sees the work. Each new
 * screen is scanned by axe, and fits a phone's 390 px without scrolling sideways.
 */

test.describe.configure({ mode: 'serial' });

// One run's names: the suite shares one database across its specs.
const RUN = Date.now().toString(36).slice(-5);
const NORTH = `North ${RUN}`;
const SOUTH = `South ${RUN}`;
const DOCUMENT = 'Residential Listing Agreement';
const PHONE = { width: 390, height: 844 };

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

function pdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    'latin1',
  );
}

/** An admin added by the owner, as the Users page's Add user does. */
async function addedAdmin(request: APIRequestContext, firstName: string) {
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const email = `${firstName.toLowerCase()}-${Date.now()}@example.com`;
  const password = `${firstName} password 1`;
  const created = await request.post('/api/users', {
    headers: auth(owner.token),
    data: {
      firstName,
      lastName: 'Tester',
      company: 'Coastal Homes',
      email,
      phoneNumber: '+1 555 010 4455',
      password,
      role: 'admin',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { email, password };
}

async function listing(request: APIRequestContext, token: string, streetAddress: string) {
  const res = await request.post('/api/transactions', {
    headers: auth(token),
    data: { type: 'Listing', role: 'Seller', streetAddress, city: 'Portland', state: 'ME', zip: '04101' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

async function newSession(browser: Browser, email: string, password: string, phone = false) {
  const context = await browser.newContext(phone ? { viewport: PHONE } : {});
  const page = await context.newPage();
  await signIn(page, email, password);
  return page;
}

/** The Users page narrowed to one account by Quick Search, and that account's row. */
async function userRow(page: Page, email: string) {
  await page.goto(paths.users);
  await page.getByRole('textbox', { name: 'Quick Search' }).fill(email);
  await page.getByRole('button', { name: 'search' }).click();
  const row = page.getByRole('row', { name: new RegExp(email.replace(/[.+]/g, '\\$&')) });
  await expect(row).toBeVisible();
  return row;
}

/** Edit office & coordination: the office, and the agents to coordinate for. */
async function place(page: Page, email: string, office: string, coordinatesFor: string[] = []) {
  const row = await userRow(page, email);
  await row.getByRole('button', { name: 'Edit office & coordination' }).click();
  const dialog = page.getByRole('dialog', { name: 'Office & coordination' });
  await dialog.getByLabel('Office', { exact: true }).selectOption({ label: office });
  for (const name of coordinatesFor) {
    await dialog.getByPlaceholder('No one').click();
    await page.getByRole('option', { name }).click();
  }
  if (coordinatesFor.length) {
    // The list of agents closes as the focus leaves it; the dialog is scanned as it is submitted.
    await dialog.getByRole('heading', { name: 'Office & coordination' }).click();
    await expect(page.getByRole('option', { name: coordinatesFor[0] })).toBeHidden();
    expect(await axeFindings(page, 'office & coordination dialog')).toEqual([]);
  }
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Office and coordination saved').first()).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(row.getByRole('cell', { name: office })).toBeVisible();
}

/** Nothing is wider than the screen: the document does not scroll sideways. */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${where}: the page scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

type Cast = {
  northAgent: Awaited<ReturnType<typeof approvedAgent>>;
  southAgent: Awaited<ReturnType<typeof approvedAgent>>;
  coordinator: Awaited<ReturnType<typeof approvedAgent>>;
  northAdmin: { email: string; password: string };
  northFile: string;
  southFile: string;
};
let cast: Cast;

test('the owner makes two offices and places agents, an office admin and a coordinator', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const northAgent = await approvedAgent(request, 'Norah');
  const southAgent = await approvedAgent(request, 'Sorrel');
  const coordinator = await approvedAgent(request, 'Tamsin');
  const northAdmin = await addedAdmin(request, 'Nolan');
  const northFile = await listing(request, northAgent.token, `5 North Row ${RUN}`);
  const southFile = await listing(request, southAgent.token, `9 South Quay ${RUN}`);
  cast = { northAgent, southAgent, coordinator, northAdmin, northFile, southFile };

  const page = await newSession(browser, E2E_OWNER.email, E2E_OWNER.password);
  await page.getByRole('navigation', { name: 'Main' }).first().getByRole('link', { name: 'Offices' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Offices' })).toBeVisible();
  for (const name of [NORTH, SOUTH]) {
    await page.getByRole('button', { name: 'Add office' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add office' });
    await dialog.getByLabel('Name').fill(name);
    if (name === NORTH) expect(await axeFindings(page, 'add office dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(officeMessages.created).first()).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  }
  // The same name in another case is the name field's error.
  await page.getByRole('button', { name: 'Add office' }).click();
  const again = page.getByRole('dialog', { name: 'Add office' });
  await again.getByLabel('Name').fill(NORTH.toUpperCase());
  await again.getByRole('button', { name: 'Submit' }).click();
  await expect(again.getByText(officeMessages.nameTaken)).toBeVisible();
  await again.getByRole('button', { name: 'Cancel' }).click();
  expect(await axeFindings(page, 'offices page')).toEqual([]);

  await place(page, northAgent.email, NORTH);
  await place(page, southAgent.email, SOUTH);
  await place(page, northAdmin.email, NORTH);
  await place(page, coordinator.email, NORTH, ['Norah Tester']);
  const tcRow = await userRow(page, coordinator.email);
  await expect(tcRow.getByText('Coordinator')).toBeVisible();
  expect(await axeFindings(page, 'users page')).toEqual([]);

  // The agents are counted in their offices: North has its agent and the coordinator.
  await page.goto(paths.offices);
  const north = page.getByRole('row', { name: new RegExp(NORTH) });
  await expect(north.getByRole('cell', { name: '2', exact: true })).toBeVisible();

  // The office filter narrows the owner's admin list to one office.
  await page.goto(paths.adminTransactions);
  await page.getByLabel('Office', { exact: true }).selectOption({ label: SOUTH });
  await expect(page).toHaveURL(/\?office=[0-9a-f-]{36}$/);
  await expect(page.getByRole('row', { name: new RegExp(`9 South Quay ${RUN}`) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`5 North Row ${RUN}`) })).toHaveCount(0);

  // So does it narrow the review queue and the dashboard, each keeping it in its address.
  await page.goto(paths.reviewQueue);
  await page.getByLabel('Office', { exact: true }).selectOption({ label: NORTH });
  await expect(page).toHaveURL(/\/admin\/review\?office=[0-9a-f-]{36}$/);
  await page.goto(paths.dashboard);
  await page.getByLabel('Office', { exact: true }).selectOption({ label: NORTH });
  await expect(page).toHaveURL(/\/admin\/dashboard\?office=[0-9a-f-]{36}$/);
  await expect(page.getByRole('table', { name: 'Offices' })).toBeVisible();
  expect(await axeFindings(page, 'dashboard with its offices')).toEqual([]);
});

test("the office admin sees its office's files only; another office's file is not found", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await newSession(browser, cast.northAdmin.email, cast.northAdmin.password);
  await page.goto(paths.adminTransactions);
  await expect(page.getByRole('row', { name: new RegExp(`5 North Row ${RUN}`) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`9 South Quay ${RUN}`) })).toHaveCount(0);
  // Its lists are its office's whatever it asks: it is offered no office filter.
  await expect(page.getByLabel('Office', { exact: true })).toHaveCount(0);

  await page.goto(routeTo.adminTransaction(cast.southFile));
  await expect(page.getByRole('heading', { name: 'Transaction not found' })).toBeVisible();

  // Its own office, read-only.
  await page.goto(paths.offices);
  await expect(page.getByRole('row', { name: new RegExp(NORTH) })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(SOUTH) })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add office' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Edit|^Delete/ })).toHaveCount(0);
  expect(await axeFindings(page, 'offices page (office admin)')).toEqual([]);
});

test("the coordinator works on its agent's file, and the agent sees it", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await newSession(browser, cast.coordinator.email, cast.coordinator.password);
  const row = page.getByRole('row', { name: new RegExp(`5 North Row ${RUN}`) });
  await expect(row.getByRole('cell', { name: 'Norah Tester' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Agent' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Agent' }).click();
  await page.getByRole('option', { name: 'Tamsin Tester (you)' }).click();
  await expect(row).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Agent' }).click();
  await page.getByRole('option', { name: 'Norah Tester' }).click();
  await expect(row).toBeVisible();
  expect(await axeFindings(page, "coordinator's home")).toEqual([]);

  // It opens a transaction for its agent and fills a checklist item.
  const street = `14 Harbour Steps ${RUN}`;
  await page.getByRole('button', { name: 'Add Transaction' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Transaction' });
  await dialog.getByLabel('Agent').selectOption({ label: 'Norah Tester' });
  await dialog.getByLabel('Type').selectOption('Listing');
  await dialog.getByLabel('Role').selectOption('Seller');
  await dialog.getByLabel('Street Address').fill(street);
  await dialog.getByLabel('City').fill('Portland');
  await dialog.getByLabel('State').fill('ME');
  await dialog.getByLabel('Zip').fill('04101');
  expect(await axeFindings(page, 'create dialog with an Agent choice')).toEqual([]);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(toasts.transactionCreated).first()).toBeVisible();
  await expect(page).toHaveURL(/\/home\/transactions\/[0-9a-f-]{36}$/);
  await expect(page.getByText(/Norah Tester · created/)).toBeVisible();
  const card = page.getByTestId(`form-${DOCUMENT}`);
  const chooser = page.waitForEvent('filechooser');
  await card.getByRole('button', { name: 'Upload' }).click();
  await (await chooser).setFiles({
    name: 'listing-agreement.pdf',
    mimeType: 'application/pdf',
    buffer: pdf(),
  });
  await expect(page.getByText(toasts.fileUploaded).first()).toBeVisible();

  // The agent finds it in its own list, with the file in place.
  const agentPage = await newSession(browser, cast.northAgent.email, cast.northAgent.password);
  await agentPage
    .getByRole('row', { name: new RegExp(street) })
    .getByRole('link', { name: 'Edit' })
    .click();
  await expect(agentPage.getByTestId(`form-${DOCUMENT}`).getByRole('link', { name: 'View' })).toBeVisible();
});

test('the new screens fit a phone: no sideways scroll, and axe finds nothing serious', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const owner = await newSession(browser, E2E_OWNER.email, E2E_OWNER.password, true);
  const stops = [
    { path: paths.offices, ready: owner.getByText(NORTH, { exact: true }).first() },
    { path: paths.users, ready: owner.getByText(NORTH, { exact: true }).first() },
    { path: paths.adminTransactions, ready: owner.getByLabel('Office', { exact: true }) },
    { path: paths.reviewQueue, ready: owner.getByLabel('Office', { exact: true }) },
    { path: paths.dashboard, ready: owner.getByRole('table', { name: 'Offices' }) },
  ];
  for (const { path, ready } of stops) {
    await owner.goto(path);
    await expect(owner.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(owner.getByText('Loading...', { exact: true })).toHaveCount(0);
    await expect(ready).toBeVisible();
    await expectNoSidewaysScroll(owner, path);
    expect(await axeFindings(owner, `${path} at 390 px`)).toEqual([]);
  }
  // A user's card holds its buttons whole.
  await owner.goto(paths.users);
  const edit = owner.getByRole('button', { name: 'Edit office & coordination' }).first();
  await edit.scrollIntoViewIfNeeded();
  const box = await edit.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= PHONE.width - 16, 'the button runs off its card').toBe(
    true,
  );
  // Each office is a card with its buttons on screen.
  await owner.goto(paths.offices);
  await expect(owner.getByRole('button', { name: `Delete ${SOUTH}` })).toBeInViewport();

  const coordinator = await newSession(browser, cast.coordinator.email, cast.coordinator.password, true);
  await expect(coordinator.getByText(`5 North Row ${RUN}`)).toBeVisible();
  await expectNoSidewaysScroll(coordinator, "coordinator's home");
  expect(await axeFindings(coordinator, "coordinator's home at 390 px")).toEqual([]);
});
