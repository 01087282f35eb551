import { E2E_NAMED_URL } from '../playwright.config';
import { passkeyMessages } from '../shared/passkey-messages';
import { axeFindings, screenshot } from './support/a11y';
import { approvedAgent, signIn } from './support/accounts';
import { expect, type Page, test } from './support/test';

/**
 * Passkeys in a real Chromium against the built server, with Chromium's virtual authenticator (a
 * platform authenticator that keeps discoverable credentials and verifies its user): an agent
 * signs in with the password, adds a passkey in settings, signs out, signs in with the passkey
 * alone, and removes it again with the password. The server's relying party is "localhost"
 * (an IP address cannot be one), so the journey opens the portal by that name.
 */

test.use({ baseURL: E2E_NAMED_URL });
test.describe.configure({ mode: 'serial' });

async function withVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

test('an agent adds a passkey, signs out, signs in with it, and removes it with the password', async ({
  page,
  request,
}) => {
  const agent = await approvedAgent(request, 'Paula');
  await page.setViewportSize({ width: 1280, height: 800 });
  await withVirtualAuthenticator(page);
  await signIn(page, agent.email, agent.password);

  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByRole('button', { name: 'Add a passkey' })).toBeVisible();
  await section.getByRole('textbox', { name: 'Passkey name' }).fill('E2E laptop');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText(passkeyMessages.added).first()).toBeVisible();
  const list = section.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByText('E2E laptop')).toBeVisible();
  await expect(list.getByText('Never used')).toBeVisible();
  expect(await axeFindings(page, 'the passkeys section with one passkey')).toEqual([]);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  const passkeyButton = page.getByRole('button', { name: passkeyMessages.signInButton });
  await expect(passkeyButton).toBeVisible();
  expect(await axeFindings(page, 'the sign-in page with its passkey button')).toEqual([]);
  await passkeyButton.click();
  await expect(page).toHaveURL(/\/home$/);

  await page.goto('/settings');
  await expect(list.getByText(/Last used/)).toBeVisible();
  await list.getByRole('button', { name: 'Remove E2E laptop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove your last passkey' });
  await dialog.getByLabel('Password').fill('not the password');
  await dialog.getByRole('button', { name: 'Remove passkey' }).click();
  await expect(dialog.getByText(passkeyMessages.wrongPassword)).toBeVisible();
  expect(await axeFindings(page, 'the last passkey removal dialog')).toEqual([]);
  await dialog.getByLabel('Password').fill(agent.password);
  await dialog.getByRole('button', { name: 'Remove passkey' }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByRole('list', { name: 'Your passkeys' })).toHaveCount(0);
});

test('the passkeys section and the passkey button work at 390 px', async ({ page, request }) => {
  const agent = await approvedAgent(request, 'Nora');
  await page.setViewportSize({ width: 390, height: 844 });
  await withVirtualAuthenticator(page);
  await page.goto('/auth/login');
  await expect(page.getByRole('button', { name: passkeyMessages.signInButton })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeFindings(page, 'the sign-in page at 390 px')).toEqual([]);

  await signIn(page, agent.email, agent.password);
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await section.getByRole('textbox', { name: 'Passkey name' }).fill('Phone');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByRole('list', { name: 'Your passkeys' }).getByText('Phone')).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeFindings(page, 'the passkeys section at 390 px')).toEqual([]);
  await screenshot(page, 'passkeys-390');
});
