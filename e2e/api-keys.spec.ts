import { E2E_OWNER } from '../playwright.config';
import { integrationMessages } from '../shared/messages';
import { axeFindings, screenshot } from './support/a11y';
import { signIn } from './support/accounts';
import { expect, test } from './support/test';

/**
 * API keys in a real Chromium against the built server: the owner creates a key on
 * /admin/api-keys, sees it once, the key answers on the REST API within its scope and is refused
 * beyond it, the list shows its last use, and revoking it stops it at once. axe finds nothing
 * serious, and the page works at 390 px.
 */

test.describe.configure({ mode: 'serial' });

test('the owner creates a key, an integration uses it, the owner revokes it', async ({ page, request }) => {
  const name = `E2E sync ${Date.now()}`;
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  await page.getByRole('navigation').getByRole('link', { name: 'API Keys' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'API Keys' })).toBeVisible();

  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await dialog.getByRole('textbox', { name: /^Name/ }).fill(name);
  expect(await axeFindings(page, 'the create API key dialog')).toEqual([]);
  await dialog.getByRole('button', { name: 'Submit' }).click();

  const shown = page.getByRole('dialog', { name: 'Copy your new API key' });
  const field = shown.getByRole('textbox', { name: new RegExp(`API key .${name}.`) });
  await expect(field).toHaveValue(/^bpk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
  const key = await field.inputValue();
  await expect(shown.getByRole('button', { name: 'Copy' })).toBeVisible();
  expect(await axeFindings(page, 'the new key, shown once')).toEqual([]);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  // Shown once: nowhere on the page any more.
  await expect(page.getByText(key)).toHaveCount(0);

  // The integration: transactions:read (the default scope) lists transactions, and nothing more.
  const auth = { authorization: `Bearer ${key}` };
  const list = await request.get('/api/admin/transactions', { headers: auth });
  expect(list.status()).toBe(200);
  const write = await request.post('/api/transactions', { headers: auth, data: {} });
  expect(write.status()).toBe(403);
  expect((await write.json()).message).toBe(integrationMessages.lacksScope('transactions:write'));

  await page.reload();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByText('Active')).toBeVisible();
  await expect(row.getByText('Never used')).toHaveCount(0);
  expect(await axeFindings(page, 'the API keys list')).toEqual([]);
  await screenshot(page, 'api-keys-1440');

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await page
    .getByRole('dialog', { name: 'Revoke API key' })
    .getByRole('button', { name: 'Revoke key' })
    .click();
  await expect(page.getByText(integrationMessages.keyRevokedToast).first()).toBeVisible();
  await expect(row.getByText('Revoked')).toBeVisible();
  const after = await request.get('/api/admin/transactions', { headers: auth });
  expect(after.status()).toBe(401);
  expect((await after.json()).message).toBe(integrationMessages.keyRevoked);
});

test('the API keys page works at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  await page.goto('/admin/api-keys');
  await expect(page.getByRole('heading', { level: 1, name: 'API Keys' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeFindings(page, 'the API keys page at 390 px')).toEqual([]);
  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await expect(dialog.getByRole('checkbox', { name: /^webhooks:manage/ })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'api-keys-390');
});
