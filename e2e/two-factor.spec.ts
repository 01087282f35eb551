import { Secret, TOTP } from 'otpauth';
import { E2E_OWNER } from '../playwright.config';
import { twoFactorMessages } from '../shared/two-factor-messages';
import { axeFindings, screenshot } from './support/a11y';
import { apiSignIn, approvedAgent, signIn } from './support/accounts';
import { type APIRequestContext, expect, type Page, test } from './support/test';

/**
 * Two-factor sign-in in a real Chromium against the built server: an agent sets up an
 * authenticator on Settings (the secret read from the page, the codes computed here as an app
 * would), keeps the recovery codes, signs out, signs in with a code, then with a recovery code.
 * axe finds nothing serious on the setup, the recovery codes and the code step, and both work at
 * 390 px. The owner's policy: an admin without a second factor is led to the setup.
 */

test.describe.configure({ mode: 'serial' });

/** The code an authenticator app shows for `secret`, `offsetSteps` periods from now. */
function codeOf(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByLabel(twoFactorMessages.codeStepPrompt)).toBeVisible();
}

async function setUpTotp(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const secret = (await section.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(section.getByRole('img', { name: /QR code/ })).toBeVisible();
  expect(await axeFindings(page, 'the two-factor setup')).toEqual([]);
  await section.getByLabel(twoFactorMessages.codeStepPrompt).fill(codeOf(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();
  const list = section.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  await expect(section.getByRole('button', { name: 'Download' })).toBeVisible();
  expect(await axeFindings(page, 'the recovery codes, shown once')).toEqual([]);
  await section.getByRole('button', { name: 'I saved them' }).click();
  await expect(section.getByText(/Recovery codes left: 10/)).toBeVisible();
  return { secret, recoveryCodes };
}

test('set up an authenticator, then sign in with a code and with a recovery code', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const agent = await approvedAgent(request, 'Tessa');
  await signIn(page, agent.email, agent.password);
  const { secret, recoveryCodes } = await setUpTotp(page);
  await screenshot(page, 'two-factor-settings-1280');

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);

  // The enabling code's step is spent: the app's next code (one step ahead is accepted).
  await passwordStep(page, agent.email, agent.password);
  expect(await axeFindings(page, 'the sign-in code step')).toEqual([]);
  await page.getByLabel(twoFactorMessages.codeStepPrompt).fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(twoFactorMessages.invalidCode)).toBeVisible();
  await page.getByLabel(twoFactorMessages.codeStepPrompt).fill(codeOf(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/home$/);

  await page.getByRole('button', { name: 'Logout' }).click();
  await passwordStep(page, agent.email, agent.password);
  await page.getByRole('button', { name: twoFactorMessages.useRecoveryCode }).click();
  await page.getByLabel(twoFactorMessages.recoveryStepPrompt).fill(recoveryCodes[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/settings');
  await expect(page.getByText(/Recovery codes left: 9/)).toBeVisible();
});

test('the setup and the code step work at 390 px', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const agent = await approvedAgent(request, 'Nadia');
  await signIn(page, agent.email, agent.password);
  await setUpTotp(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'two-factor-settings-390');

  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
  await passwordStep(page, agent.email, agent.password);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeFindings(page, 'the sign-in code step at 390 px')).toEqual([]);
});

async function setPolicy(request: APIRequestContext, on: boolean) {
  // The owner may always change the policy, with or without a second factor.
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const res = await request.put('/api/admin/security', {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { requireTwoFactorForAdmins: on },
  });
  expect(res.status()).toBe(200);
}

test('the owner requires a second factor of admins: an admin without one is led to the setup', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const email = `policy-admin-${Date.now()}@example.com`;
  const password = 'Policy admin password 1';
  const created = await request.post('/api/users', {
    headers: { authorization: `Bearer ${owner.token}` },
    data: {
      firstName: 'Paula',
      lastName: 'Policy',
      company: 'Coastal Homes',
      email,
      phoneNumber: '+1 555 010 4455',
      password,
      role: 'admin',
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  // The owner's switch, on Settings.
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  await page.goto('/settings');
  const policy = page.getByRole('region', { name: 'Sign-in security for admins' });
  const toggle = policy.getByRole('switch', { name: 'Require two-factor sign-in for admins' });
  await expect(toggle).not.toBeChecked();
  try {
    await toggle.click({ force: true });
    await expect(toggle).toBeChecked();
    expect(await axeFindings(page, 'the owner policy switch')).toEqual([]);
    await page.getByRole('button', { name: 'Logout' }).click();

    await page.goto('/auth/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByText(twoFactorMessages.setupBanner)).toBeVisible();
    await expect(
      page
        .getByRole('region', { name: 'Two-factor sign-in' })
        .getByRole('button', { name: 'Set up two-factor sign-in' }),
    ).toBeVisible();
  } finally {
    await setPolicy(request, false);
  }
});
