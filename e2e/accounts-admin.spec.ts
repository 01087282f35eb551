import { E2E_OWNER } from '../playwright.config';
import { alerts } from '../shared/messages';
import { approvedAgent, signIn } from './support/accounts';
import { expect, test } from './support/test';

/**
 * User administration and profile settings in a real Chromium: an admin adds a user
 * who then signs in; an admin deactivates an agent whose open session is thrown out on its next
 * action; an agent updates the profile and sees the new name in the sidebar.
 */

test('the owner adds a user in the dialog, who can sign in at once', async ({ browser }) => {
  const ownerPage = await (await browser.newContext()).newPage();
  await signIn(ownerPage, E2E_OWNER.email, E2E_OWNER.password);
  await ownerPage.goto('/users');
  await ownerPage.getByRole('button', { name: 'Add user' }).click();
  const dialog = ownerPage.getByRole('dialog');
  const email = `added-${Date.now()}@example.com`;
  await dialog.getByLabel('First name').fill('Omar');
  await dialog.getByLabel('Last name').fill('Haddad');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Phone number').fill('555-010-3344');
  await dialog.getByLabel('Company').fill('Harbor Realty');
  await dialog.getByLabel('Password').fill('omar password 1');
  await dialog.getByLabel('Role').selectOption('user');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(ownerPage.getByRole('row', { name: new RegExp(email) })).toBeVisible();

  const newcomer = await (await browser.newContext()).newPage();
  await signIn(newcomer, email, 'omar password 1');
  await expect(newcomer.getByText('Welcome Omar')).toBeVisible();
});

test("a deactivated agent's open session is thrown out at once", async ({ browser, request }) => {
  const agent = await approvedAgent(request, 'Dmitri');
  const agentPage = await (await browser.newContext()).newPage();
  await signIn(agentPage, agent.email, agent.password);
  await expect(agentPage.getByText('Welcome Dmitri')).toBeVisible();

  // Deactivation closes the agent's live socket; its reconnect is refused and the session ends
  // with the spec's alert, before the agent even clicks anything.
  const alertText = new Promise<string>((resolve) => {
    agentPage.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.accept().catch(() => {});
    });
  });
  const ownerPage = await (await browser.newContext()).newPage();
  await signIn(ownerPage, E2E_OWNER.email, E2E_OWNER.password);
  await ownerPage.goto('/users');
  await ownerPage.getByLabel('Quick Search').fill(agent.email);
  await ownerPage.getByRole('button', { name: 'search' }).click();
  const row = ownerPage.getByRole('row', { name: new RegExp(agent.email) });
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Deactivate' }).click();
  // Deactivation asks first, as every step that locks someone out should; the row then says what happened to the account.
  await ownerPage
    .getByRole('dialog', { name: 'Deactivate user' })
    .getByRole('button', { name: 'Deactivate' })
    .click();
  await expect(row.getByRole('button', { name: 'Activate' })).toBeVisible();
  await expect(row.getByText('Deactivated', { exact: true })).toBeVisible();

  expect(await alertText).toBe(alerts.tokenExpired);
  await expect(agentPage).toHaveURL(/\/auth\/login$/);
});

test('an agent updates the profile and the sidebar greets the new name', async ({ browser, request }) => {
  const agent = await approvedAgent(request, 'Priya');
  const page = await (await browser.newContext()).newPage();
  await signIn(page, agent.email, agent.password);
  await expect(page.getByText('Welcome Priya')).toBeVisible();
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  const profile = page.getByRole('form', { name: 'Profile' });
  await expect(profile.getByLabel('First name')).toHaveValue('Priya');
  // Read-only, since the e-mail address is the account's sign-in name: typing changes nothing.
  await expect(profile.getByLabel('Email')).not.toBeEditable();
  await expect(profile.getByLabel('Email')).toHaveValue(agent.email);
  await profile.getByLabel('First name').fill('Priyanka');
  await profile.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Welcome Priyanka')).toBeVisible();
});
