import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationSettingsMessages } from '../../shared/messages';
import type { NotificationEvent, NotificationSettings } from '../../shared/schemas/notification-settings';
import type { AppDeps } from '../deps';
import { smtpMailer } from '../mail/mailer';
import { createAdmin, createUser } from '../test/factories';
import {
  buildTestApp,
  serviceContext,
  setupTestDatabase,
  TestClock,
  testConfig,
  testDeps,
} from '../test/harness';
import { runTestJobs } from '../test/jobs';
import { type Actor, restCalls } from '../test/rest-calls';
import { type SmtpInbox, startSmtpInbox } from '../test/smtp-inbox';
import { sweepDigestBatch } from './digests';
import { notifyActiveAdmins, notifyUsers } from './notifications';

/**
 * The daily digest on a TestClock: the events a user set to `digest` gather, and
 * at 07:00 in their timezone one mail lists them; none when there were none; never twice; and
 * the digest's own unsubscribe link switches every digest event to in-app.
 *
 * Notifications are stamped by the database's clock, so the test clock starts at the real now
 * and each test moves it to the very next 07:00 of the zone it tests. (Not "the first 07:00 at
 * least two hours ahead", as it was: between 05:00 and 07:00 in a zone that skipped a 07:00 which
 * then passed first, so Tokyo's digest left a day early whenever the suite ran 20:00-22:00 UTC.)
 */

const database = setupTestDatabase();
const APP_URL = 'http://portal.test';
const clock = new TestClock(new Date());
let inbox: SmtpInbox;
let deps: AppDeps;
let app: FastifyInstance;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  deps = testDeps(database.db, {
    clock,
    config: testConfig({ appUrl: APP_URL }),
    mailer: smtpMailer(inbox.url, 'Portal <no-reply@portal.test>'),
  });
  app = buildTestApp(deps);
});
const jobs = runTestJobs(database, () => deps);
afterAll(async () => {
  await app?.close();
  deps?.mailer.close?.();
  await inbox?.close();
});

const { ok } = restCalls(() => app, clock);
const setClock = (at: Date) => clock.advance(at.getTime() - clock.now().getTime());
const sweep = () => sweepDigestBatch(serviceContext(deps));

/** The 07:00 in `timezone` of the day after (the real now + 2 h): a digest instant ahead of every row. */
async function nextCut(timezone: string): Promise<Date> {
  const [row] = await database.db.$queryRaw<{ cut: Date }[]>`
    SELECT CASE WHEN today > now() THEN today ELSE tomorrow END AS cut
      FROM (SELECT (day + time '07:00') AT TIME ZONE ${timezone} AS today,
                   ((day + 1) + time '07:00') AT TIME ZONE ${timezone} AS tomorrow
              FROM (SELECT (now() AT TIME ZONE ${timezone})::date AS day) AS local) AS cuts`;
  if (!row) throw new Error('no cut');
  return row.cut;
}

async function notify(userId: string, event: NotificationEvent, message: string) {
  await database.db.$transaction((tx) => notifyUsers(tx, [userId], { message, link: '/home', event }, deps));
}

const digestsOf = (userId: string) =>
  database.db.$queryRaw<{ id: string }[]>`
    SELECT id FROM mail_outbox WHERE user_id = ${userId}::uuid AND kind = 'notification.digest'`;

/** The digest mails that reached `email` (the engine delivers them; waits for `count`). */
async function digestMails(email: string, count = 1) {
  await jobs.drain();
  const of = () =>
    inbox.messages.filter((m) => m.to.includes(email.toLowerCase()) && m.subject.includes(' digest: '));
  await expect.poll(() => of().length).toBe(count);
  return of();
}

let sequence = 0;
const address = (name: string) => `${name}-${Date.now().toString(36)}-${++sequence}@example.com`;

describe('the daily digest', () => {
  it('lists the digest events at 07:00 local in one mail; other events stay out; not twice; none without events', async () => {
    const admin = await createAdmin(database.db, { email: address('digest-admin') });
    await notify(admin.id, 'transactionCreated', 'Ann opened 1 Elm St, Springfield');
    await notify(admin.id, 'registration', 'Bob Builder registered and awaits approval');
    await notify(admin.id, 'documentUploaded', 'Ann uploaded "Disclosure" (1 Elm St, Springfield)');
    await notify(admin.id, 'comment', 'A comment that stays in the portal');
    await notify(admin.id, 'documentReviewed', 'A review mailed at once');

    const cut = await nextCut('America/New_York');
    setClock(new Date(cut.getTime() - 1000));
    await sweep();
    expect(await digestsOf(admin.id)).toEqual([]);

    setClock(cut);
    await sweep();
    expect(await digestsOf(admin.id)).toHaveLength(1);
    await sweep();
    setClock(new Date(cut.getTime() + 3 * 3600_000));
    await sweep();
    expect(await digestsOf(admin.id)).toHaveLength(1);

    const [mail] = await digestMails(admin.email);
    if (!mail) throw new Error('no digest');
    expect(mail.subject).toBe('Your Brokerage Portal digest: 3 updates');
    expect(mail.text).toContain('Transaction created: Ann opened 1 Elm St, Springfield');
    expect(mail.text).toContain('Registration: Bob Builder registered and awaits approval');
    expect(mail.text).toContain('Document uploaded: Ann uploaded "Disclosure" (1 Elm St, Springfield)');
    expect(mail.text).not.toContain('A comment that stays in the portal');
    expect(mail.text).not.toContain('A review mailed at once');
    expect(mail.html).toContain('Bob Builder registered and awaits approval');

    // The next morning, with nothing new: no mail.
    setClock(new Date(cut.getTime() + 24 * 3600_000));
    await sweep();
    expect(await digestsOf(admin.id)).toHaveLength(1);
  });

  it('none for a user whose digest events had nothing, even with other notifications', async () => {
    const admin = await createAdmin(database.db);
    await notify(admin.id, 'comment', 'In the portal only');
    setClock(await nextCut('America/New_York'));
    await sweep();
    expect(await digestsOf(admin.id)).toEqual([]);
  });

  it("respects each user's timezone", async () => {
    const newYork = await createAdmin(database.db);
    const tokyo = await createAdmin(database.db, { timezone: 'Asia/Tokyo' });
    await notify(newYork.id, 'registration', 'New York hears of a registration');
    await notify(tokyo.id, 'registration', 'Tokyo hears of a registration');
    const cuts = [
      { user: newYork, cut: await nextCut('America/New_York') },
      { user: tokyo, cut: await nextCut('Asia/Tokyo') },
    ].sort((a, b) => a.cut.getTime() - b.cut.getTime());
    const [first, second] = cuts as [(typeof cuts)[0], (typeof cuts)[0]];
    expect(first.cut.getTime()).not.toBe(second.cut.getTime());

    setClock(first.cut);
    await sweep();
    expect(await digestsOf(first.user.id)).toHaveLength(1);
    // Only when the later zone reaches its own 07:00.
    if (second.cut.getTime() - first.cut.getTime() > 1000) {
      setClock(new Date(second.cut.getTime() - 1000));
      await sweep();
      expect(await digestsOf(second.user.id)).toEqual([]);
    }
    setClock(second.cut);
    await sweep();
    expect(await digestsOf(second.user.id)).toHaveLength(1);
    expect(await digestsOf(first.user.id)).toHaveLength(1);
  });

  it('an agent with keyDate=digest gets reminders in the digest, not one by one', async () => {
    const agent = await createUser(database.db, { email: address('digest-agent') });
    await ok(200, 'PUT', `/api/settings/notifications/${agent.id}`, agent, {
      timezone: 'Europe/Paris',
      reminderDays: [3, 1],
      events: { keyDate: 'digest' },
    });
    await notify(agent.id, 'keyDate', 'Inspection deadline for 12 Main St is in 3 days (Dec 1)');
    expect(
      await database.db.$queryRaw<unknown[]>`SELECT 1 FROM mail_outbox WHERE user_id = ${agent.id}::uuid`,
    ).toEqual([]);
    setClock(await nextCut('Europe/Paris'));
    await sweep();
    expect(await digestsOf(agent.id)).toHaveLength(1);
    const [mail] = await digestMails(agent.email);
    expect(mail?.text).toContain(
      'Key date reminder: Inspection deadline for 12 Main St is in 3 days (Dec 1)',
    );
  });

  it("the digest's unsubscribe link switches every digest event to in-app", async () => {
    const admin = await createAdmin(database.db, { email: address('digest-unsub') });
    await notify(admin.id, 'documentUploaded', 'Something was uploaded');
    const cut = await nextCut('America/New_York');
    setClock(cut);
    await sweep();
    const [mail] = await digestMails(admin.email);
    if (!mail) throw new Error('no digest');
    const parsed = await simpleParser(mail.raw);
    const header = parsed.headerLines
      .find((line) => line.key === 'list-unsubscribe')
      ?.line.replace(/\r?\n[ \t]+/g, ' ');
    expect(parsed.headerLines.find((line) => line.key === 'list-unsubscribe-post')?.line).toBe(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );
    const link = header?.match(/<([^>]+)>/)?.[1];
    if (!link) throw new Error('no List-Unsubscribe');
    expect(link.startsWith(`${APP_URL}/api/unsubscribe/`)).toBe(true);

    const res = await app.inject({
      method: 'POST',
      url: new URL(link).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: notificationSettingsMessages.unsubscribed('Daily digest'),
      event: 'digest',
    });
    const settings = await ok<NotificationSettings>(
      200,
      'GET',
      `/api/settings/notifications/${admin.id}`,
      admin as Actor,
    );
    expect(settings.events).toStrictEqual({
      documentReviewed: 'email',
      comment: 'in-app',
      documentUploaded: 'in-app',
      transactionCreated: 'in-app',
      registration: 'in-app',
      keyDate: 'email',
    });

    // No digest from then on.
    await notify(admin.id, 'registration', 'Another registration');
    setClock(new Date(cut.getTime() + 24 * 3600_000));
    await sweep();
    expect(await digestsOf(admin.id)).toHaveLength(1);
  });

  // Last: its notice reaches every admin this file made, whose digests the tests above are done with.
  it('a notice to every admin is in the digest of each admin who has it, not of the admin who caused it', async () => {
    const told = await createAdmin(database.db, { email: address('digest-notice') });
    const actor = await createAdmin(database.db, { email: address('digest-actor') });
    await database.db.$transaction((tx) =>
      notifyActiveAdmins(
        tx,
        {
          message: 'Ann uploaded "Deed" (2 Oak Ave, Springfield)',
          link: '/adminTransactions',
          event: 'documentUploaded',
        },
        deps,
        actor.id,
      ),
    );
    setClock(await nextCut('America/New_York'));
    await sweep();
    const [mail] = await digestMails(told.email);
    expect(mail?.text).toContain('Document uploaded: Ann uploaded "Deed" (2 Oak Ave, Springfield)');
    expect(await digestsOf(actor.id)).toEqual([]);
  });
});
