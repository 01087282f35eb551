import { readFile } from 'node:fs/promises';
import { E2E_OWNER } from '../playwright.config';
import { apiSignIn, signIn } from './support/accounts';
import { expect, type Page, test } from './support/test';

/**
 * The CSV exports in a real Chromium: each list's Export CSV button
 * downloads a file (fetched with the session's token, saved from a blob) whose header row is the
 * export's and whose rows follow the list's search and filters; at phone width too.
 */

const USERS_HEADER =
  'id,first_name,last_name,email,company,phone_number,role,status,owner,email_verified,created_at,deactivated_at';
const TRANSACTIONS_HEADER =
  'id,street_address,city,state,zip,type,role,status,compliant,progress_percent,required,accepted,' +
  'waived,awaiting_review,rejected,missing,agent_id,agent_name,agent_email,created_at,closed_at,sale_price_cents,year_built,financing,property_type,hoa';
const QUEUE_HEADER =
  'transaction_id,street_address,city,state,zip,type,role,item_id,item,kind,version,waiver_reason,' +
  'agent_id,agent_name,agent_email,submitted_at,waiting_seconds,office,overdue';

/** Clicks the page's Export CSV button and answers the downloaded file's name and records. */
async function exported(page: Page) {
  const button = page.getByRole('button', { name: 'Export CSV' });
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const file = await download.path();
  const text = await readFile(file, 'utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  return { name: download.suggestedFilename(), records: text.slice(0, -2).split('\r\n') };
}

test('the users list exports what its search shows, the admin lists export their header at phone width', async ({
  browser,
  request,
}) => {
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const email = `exported-${Date.now()}@example.com`;
  const made = await request.post('/api/users', {
    headers: { authorization: `Bearer ${owner.token}` },
    data: {
      firstName: '=Eve',
      lastName: 'Export, Jr.',
      email,
      phoneNumber: '123-456-7890',
      company: 'Harbor Realty',
      password: 'exported password 1',
      role: 'user',
    },
  });
  expect(made.status(), await made.text()).toBe(201);

  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);

  await page.goto('/users');
  await page.getByLabel('Quick Search').fill(email);
  await page.getByRole('button', { name: 'search' }).click();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toBeVisible();
  const users = await exported(page);
  expect(users.name).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(users.records).toHaveLength(2);
  expect(users.records[0]).toBe(USERS_HEADER);
  // Defused and quoted: the first name starts with =, the last name holds a comma.
  expect(users.records[1]).toContain(`,'=Eve,"Export, Jr.",${email},Harbor Realty,123-456-7890,user,active,`);

  await page.goto('/adminTransactions');
  await page.getByLabel('Status').selectOption('closed');
  const button = page.getByRole('button', { name: 'Export CSV' });
  const box = await button.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  const transactions = await exported(page);
  expect(transactions.name).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(transactions.records[0]).toBe(TRANSACTIONS_HEADER);
  // Only closed files (other journeys may have closed some): each row's status column says so.
  for (const record of transactions.records.slice(1)) expect(record).toContain(',closed,');

  await page.goto('/admin/review');
  const queue = await exported(page);
  expect(queue.name).toMatch(/^review-queue-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(queue.records[0]).toBe(QUEUE_HEADER);
});
