import { E2E_OWNER } from '../playwright.config';
import { STORAGE_KEYS } from '../shared/constants';
import { alerts, authMessages } from '../shared/messages';
import { apiSignIn } from './support/accounts';
import { linkFromMail } from './support/outbox';
import { expect, type Page, test } from './support/test';

/**
 * Accounts in a real Chromium against the built server: registration with
 * the e-mailed link, approval by the owner through the API, sign-in, the shell per role, a wrong
 * password, an expired session and logout.
 */

const USER_LINKS = ['Transactions', 'Forms', 'Tutorials', 'Banner', 'Settings'];
const ADMIN_LINKS = ['Users', 'Admin Transactions', 'Transactions Forms'];

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

function navigation(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

async function stored(page: Page) {
  return page.evaluate(
    (keys) => Object.fromEntries(keys.map((key) => [key, window.localStorage.getItem(key)])),
    Object.values(STORAGE_KEYS),
  );
}

test('register -> e-mailed link -> owner approves -> sign in -> welcome and the four links', async ({
  page,
  request,
}) => {
  const email = `agent-${Date.now()}@example.com`;
  const password = 'agent password 1';

  await page.goto('/auth/register');
  await page.getByLabel('First name').fill('Maya');
  await page.getByLabel('Last name').fill('Lindqvist');
  await page.getByLabel('Company').fill('Northshore Realty');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone number').fill('+1 (555) 010-7788');
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();

  await expect(page).toHaveURL(/\/auth\/verification\/register\//);
  await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  // The link of the e-mail the server sent (over SMTP to the test sink, e2e/support/smtp-sink.ts).
  const link = await linkFromMail(email, '/auth/verify-email/');
  await page.goto(link);
  await expect(page.getByText(authMessages.verified)).toBeVisible();

  // Not approved yet: the server's 403 message, in red under the form.
  await signInThroughForm(page, email, password);
  await expect(page.getByRole('alert')).toHaveText(authMessages.awaitingApproval);

  // The owner approves through the API.
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const headers = { authorization: `Bearer ${owner.token}` };
  const found = await request.get(`/api/users?query=${encodeURIComponent(email)}`, { headers });
  const [agent] = (await found.json()).users as Array<{ _id: string }>;
  expect(agent).toBeDefined();
  expect((await request.get(`/api/users/activate/${agent?._id}`, { headers })).status()).toBe(200);

  await signInThroughForm(page, email, password);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByText('Welcome Maya')).toBeVisible();
  for (const name of USER_LINKS)
    await expect(navigation(page).getByRole('link', { name, exact: true })).toBeVisible();
  for (const name of ADMIN_LINKS)
    await expect(navigation(page).getByRole('link', { name, exact: true })).toHaveCount(0);

  // The guard really blocks: an agent opening an admin page lands on /home.
  await page.goto('/users');
  await expect(page).toHaveURL(/\/home$/);
});

test('the owner sees the three admin links', async ({ page }) => {
  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
  await expect(page).toHaveURL(/\/home$/);
  for (const name of [...USER_LINKS, ...ADMIN_LINKS]) {
    await expect(navigation(page).getByRole('link', { name, exact: true })).toBeVisible();
  }
  await navigation(page).getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/users$/);
});

test('a wrong password shows the server message in red under the form', async ({ page }) => {
  await signInThroughForm(page, E2E_OWNER.email, 'not the right password');
  const message = page.getByRole('alert');
  await expect(message).toHaveText(authMessages.invalidCredentials);
  const color = await message.evaluate((element) => getComputedStyle(element).color);
  const [red, green, blue] = (color.match(/\d+/g) ?? []).map(Number);
  expect(red).toBeGreaterThan(150);
  expect(green).toBeLessThan(120);
  expect(blue).toBeLessThan(120);
  await expect(page).toHaveURL(/\/auth\/login$/);
  expect((await stored(page))[STORAGE_KEYS.userId]).toBeNull();
});

test('an expired session whose refresh token is dead: the alert, then /auth/login with storage cleared', async ({
  page,
}) => {
  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
  await expect(page.getByText('Welcome Admin')).toBeVisible();

  // An access token past its time and a refresh token the server never issued.
  await page.evaluate((keys) => {
    window.localStorage.setItem(keys.accessToken, 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.invalid');
    window.localStorage.setItem(keys.refreshToken, 'revoked-or-expired');
  }, STORAGE_KEYS);

  // The alert interrupts the reload and its OK sends the page to sign-in, aborting that load:
  // wait for the navigation to start, not to finish.
  const alertText = new Promise<string>((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.accept().catch(() => {});
    });
  });
  await page.reload({ waitUntil: 'commit' });
  expect(await alertText).toBe(alerts.tokenExpired);
  await expect(page).toHaveURL(/\/auth\/login$/);
  expect(await stored(page)).toEqual({
    [STORAGE_KEYS.accessToken]: null,
    [STORAGE_KEYS.refreshToken]: null,
    [STORAGE_KEYS.userId]: null,
  });
});

test('an expired access token with a live refresh token is renewed silently', async ({ page }) => {
  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
  await expect(page.getByText('Welcome Admin')).toBeVisible();
  const before = await stored(page);
  let alerted = false;
  page.on('dialog', (d) => {
    alerted = true;
    void d.dismiss();
  });
  await page.evaluate(
    (key) => window.localStorage.setItem(key, 'eyJhbGciOiJIUzI1NiJ9.e30.expired'),
    STORAGE_KEYS.accessToken,
  );
  await page.reload();
  await expect(page.getByText('Welcome Admin')).toBeVisible();
  const after = await stored(page);
  expect(after[STORAGE_KEYS.refreshToken]).not.toBe(before[STORAGE_KEYS.refreshToken]);
  expect(after[STORAGE_KEYS.userId]).toBe(before[STORAGE_KEYS.userId]);
  expect(alerted).toBe(false);
});

test('logout clears storage and returns to sign-in; the old refresh token no longer works', async ({
  page,
  request,
}) => {
  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
  await expect(page.getByText('Welcome Admin')).toBeVisible();
  const { [STORAGE_KEYS.refreshToken]: refreshToken } = await stored(page);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  expect(Object.values(await stored(page))).toEqual([null, null, null]);
  expect((await request.post('/api/auth/refresh', { data: { refreshToken } })).status()).toBe(401);

  // The guard: a protected page without a session goes to sign-in.
  await page.goto('/home');
  await expect(page).toHaveURL(/\/auth\/login$/);
});

for (const viewport of [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'narrow', width: 390, height: 844 },
]) {
  test(`login screen, ${viewport.name}`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/auth/login');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
    // The decorative illustration only where there is room for it.
    const illustration = page.getByTestId('login-illustration');
    if (viewport.name === 'wide') await expect(illustration).toBeVisible();
    else await expect(illustration).toBeHidden();
    // Kept as files too (test-results/screenshots/), not only inside the HTML report.
    const file = `test-results/screenshots/login-${viewport.name}.png`;
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`login-${viewport.name}`, { path: file, contentType: 'image/png' });
  });
}
