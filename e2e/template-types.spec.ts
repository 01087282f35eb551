import { E2E_OWNER } from '../playwright.config';
import { toasts } from '../shared/messages';
import { signIn } from './support/accounts';
import { expect, test } from './support/test';

/**
 * The Type of a checklist template in a real Chromium: picked from the existing
 * types, a case variant is the existing type, and a new type is created only on purpose, so a
 * typo never becomes a second entry in every agent's Type menu.
 */

test('the owner picks an existing type or creates a new one explicitly', async ({ page, request }) => {
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  await page.goto('/admin/forms/transactions/view');
  const stamp = Date.now();

  await page.getByRole('button', { name: 'Add Transactions Forms' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add Transactions Forms' });
  const type = dialog.getByRole('combobox', { name: /^Type/ });
  await type.click();
  await expect(page.getByRole('option', { name: 'Listing', exact: true })).toBeVisible();
  await type.fill('listing');
  await expect(page.getByRole('option', { name: /Create type/ })).toHaveCount(0);
  await dialog.getByRole('textbox', { name: /^Role/ }).click();
  await expect(type).toHaveValue('Listing');
  await dialog.getByRole('textbox', { name: /^Role/ }).fill(`Role ${stamp}`);
  await dialog.getByRole('textbox', { name: /^Document 1/ }).fill('Offer');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(toasts.documentAdded)).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Add Transactions Forms' }).click();
  dialog = page.getByRole('dialog', { name: 'Add Transactions Forms' });
  const newType = `Auction ${stamp}`;
  await dialog.getByRole('combobox', { name: /^Type/ }).fill(`  ${newType} `);
  await page.getByRole('option', { name: `+ Create type "${newType}"` }).click();
  await expect(dialog.getByRole('combobox', { name: /^Type/ })).toHaveValue(newType);
  await dialog.getByRole('textbox', { name: /^Role/ }).fill('-');
  await dialog.getByRole('textbox', { name: /^Document 1/ }).fill('Bidder Registration');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  // The dialog closes once the server has stored it (the first toast may still be showing, so a
  // toast alone would not say this one was saved).
  await expect(dialog).toBeHidden();
  await expect(page.getByText(toasts.documentAdded).first()).toBeVisible();

  // One entry per type for the agents' menu, whatever case was typed.
  const login = await request.post('/api/auth/login', { data: E2E_OWNER });
  const token = (await login.json()).token as string;
  const all = await request.get('/api/admin/forms/transactions/view/all', {
    headers: { authorization: `Bearer ${token}` },
  });
  const types = [...new Set(((await all.json()) as Array<{ type: string }>).map((t) => t.type))];
  expect(types.filter((t) => t.toLowerCase() === 'listing')).toEqual(['Listing']);
  expect(types).toContain(newType);
});
