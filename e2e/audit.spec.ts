import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { E2E_OWNER } from '../playwright.config';
import { axeFindings, screenshot } from './support/a11y';
import { apiSignIn, signIn } from './support/accounts';
import { expect, test } from './support/test';

/**
 * The Audit page in a real Chromium: the owner (a brokerage-wide admin) opens it from the
 * navigation, verifies the hash chain, filters the trail by action (the filter goes into the
 * address), opens an event's details, and exports the filtered events as CSV. axe finds nothing
 * serious, and the page fits 390 px.
 */

const HEADER =
  'seq,created_at,actor_email,action,entity,entity_id,transaction_id,api_key_id,on_behalf_of,hash,prev_hash,before,after';

async function exported(page: Page) {
  const button = page.getByRole('button', { name: 'Export CSV' });
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const text = await readFile(await download.path(), 'utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  return { name: download.suggestedFilename(), records: text.slice(0, -2).split('\r\n') };
}

test('an admin verifies the audit chain, filters the trail by action and exports it', async ({
  page,
  request,
}) => {
  // An event to find: an account the owner adds (user.create).
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const email = `audited-${Date.now()}@example.com`;
  const made = await request.post('/api/users', {
    headers: { authorization: `Bearer ${owner.token}` },
    data: {
      firstName: 'Audrey',
      lastName: 'Audited',
      email,
      phoneNumber: '123-456-7890',
      company: 'Harbor Realty',
      password: 'audited password 1',
      role: 'user',
    },
  });
  expect(made.status(), await made.text()).toBe(201);

  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toBeVisible();

  await page.getByRole('button', { name: 'Verify chain' }).click();
  await expect(page.getByRole('status').getByText(/^Valid: [\d,]+ events/)).toBeVisible();
  expect(await axeFindings(page, 'the audit page, chain verified')).toEqual([]);

  await page.getByRole('combobox', { name: 'Action' }).selectOption('user.create');
  await expect(page).toHaveURL(/\/admin\/audit\?action=user\.create$/);
  const rows = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'user.create' }) });
  await expect(rows.first()).toBeVisible();
  await expect(page.getByRole('cell', { name: 'transaction.create' })).toHaveCount(0);

  await rows
    .first()
    .getByRole('button', { name: /^Details/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'user.create' });
  await expect(dialog.getByText(email).first()).toBeVisible();
  expect(await axeFindings(page, 'an audit event in its dialog')).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  const csv = await exported(page);
  expect(csv.name).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(csv.records[0]).toBe(HEADER);
  expect(csv.records.length).toBeGreaterThan(1);
  for (const record of csv.records.slice(1)) expect(record).toContain(',user.create,User,');
  expect(csv.records.some((record) => record.includes(email))).toBe(true);
});

test('the Audit page works at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  await page.goto('/admin/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('button', { name: 'Verify chain' }).click();
  await expect(page.getByRole('status').getByText(/^Valid: /)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const button = await page.getByRole('button', { name: 'Export CSV' }).boundingBox();
  expect(button && button.x >= 0 && button.x + button.width <= 390).toBe(true);
  expect(await axeFindings(page, 'the audit page at 390 px')).toEqual([]);
  await page
    .getByRole('button', { name: /^Details/ })
    .first()
    .click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeFindings(page, 'an audit event at 390 px')).toEqual([]);
  await screenshot(page, 'audit-390');
});
