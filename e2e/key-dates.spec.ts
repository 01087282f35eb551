import { E2E_OWNER } from '../playwright.config';
import { keyDateMessages } from '../shared/messages';
import { axeFindings, screenshot } from './support/a11y';
import { apiSignIn, signIn } from './support/accounts';
import { rawMailTo } from './support/outbox';
import { type APIRequestContext, expect, test } from './support/test';

/**
 * Key dates and reminders in a real Chromium, with the real job engine and a real SMTP
 * server behind the portal: an agent sets the closing date on the transaction page; its reminder
 * reaches the bell and the agent's inbox (HTML and text, with RFC 8058 headers); the mail's link
 * unsubscribes without signing in. The calendar shows the date and opens the transaction; axe
 * finds nothing serious on the new screens, and they work at 390 px.
 */

test.describe.configure({ mode: 'serial' });

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** An IANA zone where it is now between 09:00 and 21:59, so today's 08:00 reminder is due now. */
function zoneWhereTheReminderIsDue(now = new Date()): string {
  const zones = [
    'Pacific/Kiritimati',
    'Asia/Tokyo',
    'Asia/Kolkata',
    'Europe/Berlin',
    'America/New_York',
    'America/Los_Angeles',
    'Pacific/Honolulu',
    'Pacific/Pago_Pago',
  ];
  const hourIn = (zone: string) =>
    Number(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(now),
    );
  const zone = zones.find((candidate) => hourIn(candidate) >= 9 && hourIn(candidate) <= 21);
  if (!zone) throw new Error('no zone between 09:00 and 22:00 now');
  return zone;
}

/** '26 November 2026' (how the date picker names a day) and 'Nov 26' (how reminders do), in `zone`. */
function todayIn(zone: string) {
  const now = new Date();
  const part = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone: zone, ...options }).format(now);
  return {
    pickerLabel: `${part({ day: 'numeric' })} ${part({ month: 'long' })} ${part({ year: 'numeric' })}`,
    short: `${part({ month: 'short' })} ${part({ day: 'numeric' })}`,
    iso: new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(now),
  };
}

async function agentWithDeal(request: APIRequestContext, timezone: string) {
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const stamp = Date.now();
  const type = `Key dates ${stamp}`;
  const template = await request.post('/api/admin/forms/transactions/insert', {
    headers: auth(owner.token),
    data: { type, role: '-', forms: ['Purchase Agreement'], keyDateKinds: ['inspection', 'closing'] },
  });
  expect(template.status(), await template.text()).toBe(201);
  // Made by the owner: the registration limit is for the journeys about registering.
  const agent = { email: `kira-${stamp}@example.com`, password: 'Kira password 1', id: '', token: '' };
  const made = await request.post('/api/users', {
    headers: auth(owner.token),
    data: {
      firstName: 'Kira',
      lastName: 'Tester',
      email: agent.email,
      phoneNumber: '123-456-7890',
      company: 'Coastal Homes',
      password: agent.password,
      role: 'user',
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const session = await apiSignIn(request, agent.email, agent.password);
  agent.id = session._id;
  agent.token = session.token;
  // The agent's zone, chosen so that today's 08:00 has passed there.
  const settings = await request.put(`/api/settings/notifications/${agent.id}`, {
    headers: auth(agent.token),
    data: { timezone, reminderDays: [3, 1], events: {} },
  });
  expect(settings.status(), await settings.text()).toBe(200);
  const street = `${stamp % 900} Reminder Road`;
  const created = await request.post('/api/transactions', {
    headers: auth(agent.token),
    data: { type, role: '-', streetAddress: street, city: 'Bangor', state: 'ME', zip: '04401' },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { agent, street, transactionId: ((await created.json()) as { _id: string })._id };
}

test('the closing date set on the page is reminded in the bell and by mail; the mail unsubscribes in one click', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const zone = zoneWhereTheReminderIsDue();
  const today = todayIn(zone);
  const { agent, street, transactionId } = await agentWithDeal(request, zone);

  const context = await browser.newContext({ timezoneId: zone });
  const page = await context.newPage();
  await signIn(page, agent.email, agent.password);
  await page.goto(`/home/transactions/${transactionId}`);

  // The template's kinds are offered; the closing row gets today's date.
  const section = page.getByRole('region', { name: 'Key dates' });
  const closing = section.getByRole('group', { name: 'Closing' });
  await expect(closing).toBeVisible();
  await closing.getByLabel('Date').click();
  await page.getByRole('button', { name: today.pickerLabel, exact: true }).click();
  await section.getByRole('button', { name: 'Save key dates' }).click();
  await expect(page.getByText(keyDateMessages.saved).first()).toBeVisible();
  await expect(closing.getByTestId('key-date-state')).toHaveText(/today/i);
  expect(await axeFindings(page, 'the transaction page with its key dates')).toEqual([]);

  // The reminder is due already (08:00 has passed in the agent's zone): the sweep runs at once.
  const message = `Closing for ${street} is today (${today.short})`;
  const bell = page.getByRole('button', { name: 'Notifications' }).first();
  await expect(bell).toHaveAttribute('data-unread', 'true', { timeout: 20_000 });
  await bell.click();
  await expect(page.getByRole('link', { name: message })).toBeVisible();

  // The same reminder by mail (keyDate is e-mailed by default), through SMTP.
  const raw = await rawMailTo(agent.email, new RegExp(`Closing for ${street}`));
  expect(raw).toMatch(/^Content-Type: text\/html/m);
  expect(raw).toMatch(/^Content-Type: text\/plain/m);
  expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
  // A long header may be folded onto the next line (RFC 5322).
  const header = /^List-Unsubscribe:\s+<(https?:\/\/\S+\/api\/unsubscribe\/[^>\s]+)>/m.exec(raw);
  expect(header?.[1]).toBeTruthy();
  const token = header?.[1]?.split('/').pop() ?? '';

  // The mail's link, opened without a session: the reminders stay in the portal only.
  const anonymousContext = await browser.newContext();
  const anonymous = await anonymousContext.newPage();
  await anonymous.goto(`/unsubscribe/${token}`);
  await expect(anonymous.getByText(/You will no longer get e-mails for "Key date reminder"/)).toBeVisible();
  expect(await axeFindings(anonymous, 'the unsubscribe page')).toEqual([]);
  const after = await request.get(`/api/settings/notifications/${agent.id}`, { headers: auth(agent.token) });
  expect(((await after.json()) as { events: Record<string, string> }).events.keyDate).toBe('in-app');
  await anonymousContext.close();

  // The settings page says so too.
  await page.goto('/settings');
  const notifications = page.getByRole('region', { name: 'Notifications' });
  await expect(notifications).toBeVisible();
  expect(await axeFindings(page, 'settings with notifications')).toEqual([]);
  await screenshot(page, 'key-dates-settings');
  await context.close();
});

test('the calendar shows the month and the upcoming dates, opens the transaction, passes axe and fits a phone', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const zone = zoneWhereTheReminderIsDue();
  const today = todayIn(zone);
  const { agent, street, transactionId } = await agentWithDeal(request, zone);
  const put = await request.put(`/api/transactions/${transactionId}/dates`, {
    headers: auth(agent.token),
    data: { dates: [{ kind: 'inspection', date: today.iso }] },
  });
  expect(put.status(), await put.text()).toBe(200);

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const context = await browser.newContext({ timezoneId: zone, viewport });
    const page = await context.newPage();
    await signIn(page, agent.email, agent.password);
    await page.goto('/calendar');
    await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
    const upcoming = page.getByRole('list', { name: 'Upcoming key dates' });
    await expect(
      upcoming.getByRole('link', { name: new RegExp(`Inspection deadline · ${street}`) }),
    ).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    expect(await axeFindings(page, `the calendar at ${viewport.width} px`)).toEqual([]);
    await screenshot(page, `calendar-${viewport.width}`);
    await upcoming.getByRole('link', { name: new RegExp(`Inspection deadline · ${street}`) }).click();
    await expect(page).toHaveURL(new RegExp(`/home/transactions/${transactionId}$`));
    await context.close();
  }
});
