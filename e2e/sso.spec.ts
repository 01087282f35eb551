import { E2E_OIDC, E2E_OWNER } from '../playwright.config';
import { CONTROL_PATH, type ProviderAccount } from '../server/test/oidc-provider-control';
import { STORAGE_KEYS } from '../shared/constants';
import { axeFindings, screenshot } from './support/a11y';
import { approvedAgent } from './support/accounts';
import { expect, type Page, test } from './support/test';

/**
 * Single sign-on in a real Chromium: the built portal with OIDC_* pointing at an OpenID provider
 * (oidc-provider) that playwright.config.ts starts beside it. The spec tells the provider who
 * signs in next; the browser follows the whole way: the sign-in page's button, the provider,
 * the callback, the landing page, the session.
 */

const BUTTON = `Sign in with ${E2E_OIDC.name}`;

async function nextAccountAtProvider(account: ProviderAccount) {
  const res = await fetch(`${E2E_OIDC.issuer}${CONTROL_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  expect(res.status).toBe(204);
}

async function signInWithProvider(page: Page, from = '/auth/login') {
  await page.goto(from);
  await page.getByRole('link', { name: BUTTON }).click();
}

test('an agent signs in with the provider and lands on the page it came for, without a token in any address', async ({
  page,
  request,
}) => {
  const agent = await approvedAgent(request, 'Sandra');
  await nextAccountAtProvider({ sub: 'sandra', email: agent.email, email_verified: true, amr: ['pwd'] });
  const addresses: string[] = [];
  page.on('request', (req) => addresses.push(req.url()));

  await page.goto('/auth/login?next=%2Fsettings');
  await expect(page.getByRole('link', { name: BUTTON })).toBeVisible();
  expect(await axeFindings(page, 'the sign-in page with single sign-on')).toEqual([]);
  await screenshot(page, 'sso-sign-in');
  await page.getByRole('link', { name: BUTTON }).click();

  await expect(page).toHaveURL(/\/settings$/);
  expect(
    await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.refreshToken),
  ).toBeTruthy();
  // The one-time code rode in a fragment only, and left the address bar.
  for (const address of addresses) expect(address).not.toMatch(/[?&](token|refreshToken)=/);
  expect(page.url()).not.toContain('#');
});

test('an unknown e-mail comes back to the sign-in page with "No account for <email>", also at 390 px', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await nextAccountAtProvider({ sub: 'stranger', email: 'stranger@example.com', email_verified: true });
  await signInWithProvider(page);

  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole('alert')).toHaveText('No account for stranger@example.com');
  expect(await axeFindings(page, 'the sign-in page showing the refusal at 390 px')).toEqual([]);
  await screenshot(page, 'sso-refused-phone');
  const scrollsSideways = await page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  );
  expect(scrollsSideways).toBe(false);
});

test('the owner signs in with a multi-factor sign-in at the provider', async ({ page }) => {
  await nextAccountAtProvider({
    sub: 'owner',
    email: E2E_OWNER.email,
    email_verified: true,
    amr: ['pwd', 'otp'],
  });
  await signInWithProvider(page);
  await expect(page).toHaveURL(/\/home$/);
  const token = await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.accessToken);
  const claims = JSON.parse(Buffer.from(String(token).split('.')[1] ?? '', 'base64url').toString('utf8'));
  expect(claims.mfa).toBe('sso');
});
