import { E2E_OWNER } from '../playwright.config';
import { toasts } from '../shared/messages';
import { apiSignIn, approvedAgent, signIn } from './support/accounts';
import { type APIRequestContext, expect, type Locator, type Page, test } from './support/test';

/**
 * The portal on a phone, at 390 x 844 in a real Chromium: no page scrolls
 * sideways, every list row's buttons are on screen (lists become cards), no badge is cut short,
 * the top bar carries the bell and its dot, and toasts leave the top bar and the way back alone.
 */

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

// Long on purpose: a street address with no room to spare is what squeezed the old tables.
const STREET = '1234 Northwest Evergreen Terrace Boulevard';

type Seed = {
  agent: { email: string; password: string; id: string; token: string };
  ownerToken: string;
  transactionId: string;
  formId: string;
};

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

function pdf(): Buffer {
  return Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n', 'latin1');
}

/** An agent with a transaction, a rejected document, and one entry in each library. */
async function seed(request: APIRequestContext, firstName: string): Promise<Seed> {
  const agent = await approvedAgent(request, firstName);
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const created = await request.post('/api/transactions', {
    headers: auth(agent.token),
    data: {
      type: 'Listing',
      role: 'Seller',
      streetAddress: STREET,
      city: 'Springfield',
      state: 'OR',
      zip: '97477',
    },
  });
  expect(created.status()).toBe(201);
  const deal = (await created.json()) as { _id: string; forms: Array<{ _id: string; label: string }> };
  const formId = deal.forms[0]?._id as string;

  // A file on the first document, so the owner can reject it: the badge then reads 'rejected'.
  const uploaded = await request.post(`/api/uploads/transactions/${deal._id}`, {
    headers: auth(agent.token),
    multipart: { file: { name: 'listing.pdf', mimeType: 'application/pdf', buffer: pdf() } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const { key } = (await uploaded.json()) as { key: string };
  const attached = await request.put(`/api/transactions/${deal._id}/forms/${formId}`, {
    headers: auth(agent.token),
    data: { url: key },
  });
  expect(attached.status(), await attached.text()).toBe(200);
  const rejected = await request.post(`/api/admin/transactions/${deal._id}/forms/${formId}/comments`, {
    headers: auth(owner.token),
    data: { status: 'rejected', text: 'Initials missing on page 2.' },
  });
  expect(rejected.status(), await rejected.text()).toBe(201);

  const tutorial = await request.post('/api/tutorials', {
    headers: auth(owner.token),
    data: { name: `Closing a listing, step by step ${Date.now()}`, link: 'https://example.com/closing' },
  });
  expect(tutorial.status(), await tutorial.text()).toBe(201);
  const libraryFile = await request.post('/api/uploads/forms', {
    headers: auth(owner.token),
    multipart: { file: { name: 'disclosure.pdf', mimeType: 'application/pdf', buffer: pdf() } },
  });
  expect(libraryFile.status(), await libraryFile.text()).toBe(201);
  const form = await request.post('/api/forms', {
    headers: auth(owner.token),
    data: {
      name: `Seller Property Disclosure Statement ${Date.now()}`,
      link: (await libraryFile.json()).key,
    },
  });
  expect(form.status(), await form.text()).toBe(201);

  return { agent, ownerToken: owner.token, transactionId: deal._id, formId };
}

/** The owner comments on the agent's document: the agent gets a notification, live. */
async function review(
  request: APIRequestContext,
  ownerToken: string,
  id: string,
  formId: string,
  text: string,
) {
  const res = await request.post(`/api/admin/transactions/${id}/forms/${formId}/comments`, {
    headers: auth(ownerToken),
    data: { text },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** The page is loaded: no list still says 'Loading...'. */
async function settled(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
}

/** Nothing is wider than the screen: the document does not scroll sideways. */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth, culprits } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    // What sticks out, named in the failure so it says where to look.
    culprits: [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth)
      .slice(-3)
      .map((element) => `<${element.tagName.toLowerCase()} class="${element.className}">`),
  }));
  expect(scrollWidth, `${where}: the page scrolls sideways (${culprits.join(', ')})`).toBeLessThanOrEqual(
    innerWidth,
  );
}

/**
 * The button is wholly on screen once the window (only the window) is scrolled to its height:
 * a table that scrolls inside itself leaves it clipped off to the right.
 */
async function expectReachable(button: Locator, where: string) {
  await button.evaluate((element) => {
    const { top } = element.getBoundingClientRect();
    window.scrollBy(0, top - window.innerHeight / 2);
  });
  await expect(button, `${where}: a row's button is off screen`).toBeInViewport({ ratio: 1 });
  const box = await button.boundingBox();
  expect(box, where).not.toBeNull();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= PHONE.width, where).toBe(true);
}

/** Every visible badge shows its whole word ('rejected', not 'rej…'). */
async function expectBadgesWhole(page: Page, where: string) {
  const cut = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.mantine-Badge-root, .mantine-Badge-label')]
      .filter((element) => element.offsetParent !== null)
      .filter((element) => element.scrollWidth > element.clientWidth)
      .map((element) => element.textContent),
  );
  expect(cut, `${where}: badges cut short`).toEqual([]);
}

async function visit(page: Page, path: string) {
  await page.goto(path);
  await settled(page);
  await expectNoSidewaysScroll(page, path);
  await expectBadgesWhole(page, path);
}

const rectOf = (locator: Locator) =>
  locator.evaluate((element) => {
    const { left, top, right, bottom } = element.getBoundingClientRect();
    return { left, top, right, bottom };
  });

type Rect = Awaited<ReturnType<typeof rectOf>>;
const overlaps = (a: Rect, b: Rect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test('an agent on a phone: every page fits, each list row is a card with its buttons on screen', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { agent, transactionId } = await seed(request, 'Phoebe');
  await signIn(page, agent.email, agent.password);

  await visit(page, '/home');
  const row = page.getByRole('row', { name: new RegExp(STREET) });
  await expect(row).toBeVisible();
  await expectReachable(row.getByRole('link', { name: 'Edit' }), '/home');
  // The card labels its fields with the column names.
  const label = await row
    .getByRole('cell', { name: 'Springfield' })
    .evaluate((cell) => getComputedStyle(cell, '::before').content);
  expect(label).toBe('"City"');

  for (const path of ['/forms', '/tutorials']) {
    await visit(page, path);
    await expectReachable(page.getByRole('link', { name: 'Open' }).first(), path);
  }
  await visit(page, '/banner');
  await visit(page, '/settings');
  await visit(page, '/notifications');
  await visit(page, `/home/transactions/${transactionId}`);
  await expectReachable(page.getByRole('button', { name: 'Upload' }).first(), 'detail');
});

test("badges show their whole word: the checklist's 'Rejected', the notifications' 'New'", async ({
  page,
  request,
}) => {
  const { agent, transactionId } = await seed(request, 'Rosalind');
  await signIn(page, agent.email, agent.password);
  await page.goto(`/home/transactions/${transactionId}`);
  await settled(page);
  await expect(page.getByTestId('form-status').first()).toHaveText('Rejected');
  await expectBadgesWhole(page, 'detail');
  await page.goto('/notifications');
  await settled(page);
  await expect(page.getByText('New', { exact: true }).first()).toBeVisible();
  await expectBadgesWhole(page, '/notifications');
});

test('the top bar holds the bell: a new notification lights its dot there, with no menu opened', async ({
  page,
  request,
}) => {
  const { agent, ownerToken, transactionId, formId } = await seed(request, 'Severin');
  await signIn(page, agent.email, agent.password);
  const topBar = page.getByTestId('top-bar');
  const bell = topBar.getByRole('button', { name: 'Notifications' });
  await expect(bell).toBeVisible();
  // Opening the notifications clears the dot the earlier ones lit.
  await bell.click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(bell).not.toHaveAttribute('data-unread', 'true');
  await page
    .getByRole('link', { name: new RegExp(STREET) })
    .first()
    .click();
  await settled(page);

  await review(request, ownerToken, transactionId, formId, 'Please initial page 2.');
  await expect(bell).toHaveAttribute('data-unread', 'true');
  await expect(topBar.locator('.mantine-Indicator-indicator')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test("toasts leave the top bar and 'Back to transactions' uncovered, and their View button whole", async ({
  page,
  request,
}) => {
  const { agent, ownerToken, transactionId, formId } = await seed(request, 'Tamsin');
  await signIn(page, agent.email, agent.password);
  await page.goto(`/home/transactions/${transactionId}`);
  await settled(page);
  const topBar = page.getByTestId('top-bar');
  const back = page.getByRole('link', { name: 'Back to transactions' });

  // A live notification's toast, with a message long enough to crowd its button.
  await review(
    request,
    ownerToken,
    transactionId,
    formId,
    'Please also initial the second page of the agreement, next to the listing price.',
  );
  const toast = page.locator('.mantine-Notification-root', { hasText: 'New notification' });
  await expect(toast).toBeVisible();
  const view = toast.getByRole('button', { name: 'View' });
  await expect(view).toBeVisible();
  const viewWhole = await view.evaluate((button) => {
    const parts = [button, ...button.querySelectorAll<HTMLElement>('*')];
    const toastRight = button.closest('.mantine-Notification-root')?.getBoundingClientRect().right ?? 0;
    return (
      parts.every((part) => part.scrollWidth <= part.clientWidth) &&
      button.getBoundingClientRect().right <= toastRight
    );
  });
  expect(viewWhole, "the toast's View button is clipped").toBe(true);
  expect(overlaps(await rectOf(toast), await rectOf(topBar)), 'the toast covers the top bar').toBe(false);
  expect(overlaps(await rectOf(toast), await rectOf(back)), "the toast covers 'Back to transactions'").toBe(
    false,
  );
  await toast.getByRole('button', { name: 'View' }).click();
  await expect(toast).toHaveCount(0);

  // A success toast after the agent's own comment: the same.
  const card = page.getByTestId(/^form-/).first();
  await card.getByRole('button', { name: 'Add a comment' }).click();
  await card.getByLabel('Comment').fill('Done.');
  await card.getByRole('button', { name: 'Post comment' }).click();
  const done = page.locator('.mantine-Notification-root', { hasText: toasts.commentAdded });
  await expect(done).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  expect(overlaps(await rectOf(done), await rectOf(topBar)), 'the toast covers the top bar').toBe(false);
  expect(overlaps(await rectOf(done), await rectOf(back)), "the toast covers 'Back to transactions'").toBe(
    false,
  );
});

test('the owner on a phone: every admin list is cards with its buttons on screen', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const { transactionId } = await seed(request, 'Quentin');
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);

  await visit(page, '/home');
  await visit(page, '/admin/dashboard');
  await visit(page, '/adminTransactions');
  const row = page.getByRole('row', { name: new RegExp(STREET) }).first();
  await expectReachable(row.getByRole('link', { name: 'Edit' }), '/adminTransactions');
  await expectReachable(row.getByRole('button', { name: 'Delete' }), '/adminTransactions');

  await visit(page, '/users');
  await expectReachable(page.getByRole('button', { name: /^(Activate|Deactivate)$/ }).first(), '/users');

  await visit(page, '/admin/forms/transactions/view');
  await expectReachable(page.getByRole('button', { name: 'Update' }).first(), 'templates');
  await expectReachable(page.getByRole('button', { name: 'Delete' }).first(), 'templates');

  for (const path of ['/forms', '/tutorials']) {
    await visit(page, path);
    await expectReachable(page.getByRole('button', { name: 'Update' }).first(), path);
    await expectReachable(page.getByRole('button', { name: 'Delete' }).first(), path);
  }

  await visit(page, `/adminTransactions/transactions/${transactionId}`);
  await expectReachable(page.getByRole('button', { name: 'Reject' }).first(), 'admin detail');
  await visit(page, '/notifications');
  await visit(page, '/settings');
  await visit(page, '/banner');

  // A search that finds nothing says so and offers to clear it.
  await page.goto('/users');
  await settled(page);
  await page.getByLabel('Quick Search').fill('nobody-by-this-name');
  await page.getByRole('button', { name: 'search' }).click();
  await expect(page.getByText('No users match "nobody-by-this-name".')).toBeVisible();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page.getByLabel('Quick Search')).toHaveValue('');
  // The whole list is back (the owner may be on a later page once other tests added users).
  await expect(page.getByText('No users match "nobody-by-this-name".')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Activate|Deactivate)$/ }).first()).toBeVisible();
});

test.describe('on a wide screen', () => {
  const WIDE = { width: 1024, height: 768 };
  test.use({ viewport: WIDE });

  test("toasts stay top-right but below the heading row with 'Back to transactions'", async ({
    page,
    request,
  }) => {
    const { agent, ownerToken, transactionId, formId } = await seed(request, 'Ulrike');
    await signIn(page, agent.email, agent.password);
    await page.goto(`/home/transactions/${transactionId}`);
    await settled(page);
    // A live notification's toast: a title, a message and a button, taller than a one-line toast.
    await review(request, ownerToken, transactionId, formId, 'Please initial page 2 as well.');
    const toast = page.locator('.mantine-Notification-root', { hasText: 'New notification' });
    await expect(toast).toBeVisible();
    // Once it has slid in: its right edge where Mantine puts it, 1rem from the window's.
    await expect.poll(async () => (await rectOf(toast)).right).toBeLessThanOrEqual(WIDE.width - 15);
    const box = await rectOf(toast);
    expect(box.right, 'the toast is not at the right edge').toBeGreaterThan(WIDE.width - 40);
    expect(box.top, 'the toast is not near the top').toBeLessThan(200);
    const back = await rectOf(page.getByRole('link', { name: 'Back to transactions' }));
    expect(overlaps(box, back), "the toast covers 'Back to transactions'").toBe(false);
  });
});
