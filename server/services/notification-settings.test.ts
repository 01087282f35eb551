import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationSettingsMessages } from '../../shared/messages';
import type { NotificationSettings } from '../../shared/schemas/notification-settings';
import type { AppDeps } from '../deps';
import { smtpMailer } from '../mail/mailer';
import {
  accessTokenFor,
  attachTestFile,
  createAdmin,
  createTransaction,
  createUser,
} from '../test/factories';
import {
  buildTestApp,
  setupTestDatabase,
  TestClock,
  testConfig,
  testContext,
  testDeps,
} from '../test/harness';
import { runTestJobs } from '../test/jobs';
import { type Actor, restCalls } from '../test/rest-calls';
import { type SmtpInbox, startSmtpInbox } from '../test/smtp-inbox';
import { createCaller } from '../trpc/router';
import { notifyUsers } from './notifications';

/**
 * Notification preferences and how an event reaches a user, through the REST
 * paths: the answer's shape and defaults, who may read and change them, validation, the browser's
 * timezone, e-mail routed by preference in the change's own database transaction, the mail as it
 * arrives over SMTP (RFC 8058 headers) and its one-click unsubscribe.
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

const { call, ok, refused } = restCalls(() => app, clock);
const settingsUrl = (userId: string) => `/api/settings/notifications/${userId}`;
const getSettings = (who: Actor, userId = who.id) =>
  ok<NotificationSettings>(200, 'GET', settingsUrl(userId), who);

const AGENT_DEFAULTS: NotificationSettings = {
  timezone: 'America/New_York',
  reminderDays: [3, 1],
  events: { documentReviewed: 'email', comment: 'in-app', keyDate: 'email' },
};

/** The outbox rows of a user (the mails queued for them). */
const outboxOf = (userId: string) =>
  database.db.$queryRaw<{ id: string; kind: string; status: string }[]>`
    SELECT id, kind, status FROM mail_outbox WHERE user_id = ${userId}::uuid ORDER BY created_at`;

/** The mail:send jobs of one outbox row, as graphile-worker holds them. */
const jobsOfMail = (db: Pick<AppDeps['db'], '$queryRaw'>, mailId: string) =>
  db.$queryRaw<{ id: string }[]>`
    SELECT j.id::text FROM graphile_worker._private_jobs j
      JOIN graphile_worker._private_tasks t ON t.id = j.task_id
     WHERE t.identifier = 'mail:send' AND j.payload->>'mailId' = ${mailId}`;

describe('GET and PUT /api/settings/notifications/:userId', () => {
  it("answers an agent's defaults: exactly the agent events, reminder days [3, 1], New York", async () => {
    const agent = await createUser(database.db);
    const settings = await getSettings(agent);
    expect(settings).toStrictEqual(AGENT_DEFAULTS);
    expect(Object.keys(settings.events).sort()).toEqual(['comment', 'documentReviewed', 'keyDate']);
  });

  it("answers an admin's defaults: every event, the admin events by digest", async () => {
    const admin = await createAdmin(database.db);
    expect(await getSettings(admin)).toStrictEqual({
      timezone: 'America/New_York',
      reminderDays: [3, 1],
      events: {
        documentReviewed: 'email',
        comment: 'in-app',
        documentUploaded: 'digest',
        transactionCreated: 'digest',
        registration: 'digest',
        keyDate: 'email',
      },
    });
  });

  it('saves the same shape; events left out keep their choice; reminder days deduplicated, latest first', async () => {
    const agent = await createUser(database.db);
    const saved = await ok<NotificationSettings>(200, 'PUT', settingsUrl(agent.id), agent, {
      timezone: 'Asia/Tokyo',
      reminderDays: [1, 7, 7],
      events: { comment: 'email', keyDate: 'digest' },
    });
    const expected = {
      timezone: 'Asia/Tokyo',
      reminderDays: [7, 1],
      events: { documentReviewed: 'email', comment: 'email', keyDate: 'digest' },
    };
    expect(saved).toStrictEqual(expected);
    expect(await getSettings(agent)).toStrictEqual(expected);

    const again = await ok<NotificationSettings>(200, 'PUT', settingsUrl(agent.id), agent, {
      timezone: 'Asia/Tokyo',
      reminderDays: [],
      events: { documentReviewed: 'in-app' },
    });
    expect(again.events).toStrictEqual({ documentReviewed: 'in-app', comment: 'email', keyDate: 'digest' });
    expect(again.reminderDays).toEqual([]);
  });

  it('is self or admin: another agent 403 (read and write), anonymous 401, an admin may do both', async () => {
    const agent = await createUser(database.db);
    const other = await createUser(database.db);
    const admin = await createAdmin(database.db);
    const body = { timezone: 'Europe/Paris', reminderDays: [2], events: { comment: 'email' } };

    expect((await call('GET', settingsUrl(agent.id), other)).statusCode).toBe(403);
    expect((await call('PUT', settingsUrl(agent.id), other, body)).statusCode).toBe(403);
    expect((await call('GET', settingsUrl(agent.id))).statusCode).toBe(401);
    expect((await call('PUT', settingsUrl(agent.id), undefined, body)).statusCode).toBe(401);
    expect(await getSettings(agent)).toStrictEqual(AGENT_DEFAULTS);

    expect(await getSettings(admin, agent.id)).toStrictEqual(AGENT_DEFAULTS);
    const changed = await ok<NotificationSettings>(200, 'PUT', settingsUrl(agent.id), admin, body);
    // The agent's own events, even when an admin writes them.
    expect(changed).toStrictEqual({
      timezone: 'Europe/Paris',
      reminderDays: [2],
      events: { documentReviewed: 'email', comment: 'email', keyDate: 'email' },
    });
  });

  it('an admin naming an account that does not exist gets 404', async () => {
    const admin = await createAdmin(database.db);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('GET', settingsUrl(unknown), admin)).statusCode).toBe(404);
    const body = { timezone: 'Europe/Paris', reminderDays: [2], events: {} };
    expect((await call('PUT', settingsUrl(unknown), admin, body)).statusCode).toBe(404);
  });

  it('refuses a bad timezone, delivery or reminder day with its message and changes nothing', async () => {
    const agent = await createUser(database.db);
    const valid = { timezone: 'America/Chicago', reminderDays: [3, 1], events: {} };
    const cases: [object, string][] = [
      [{ ...valid, timezone: 'Mars/Olympus_Mons' }, notificationSettingsMessages.timezoneInvalid],
      [{ ...valid, timezone: '' }, notificationSettingsMessages.timezoneInvalid],
      [{ ...valid, events: { comment: 'sms' } }, notificationSettingsMessages.deliveryInvalid],
      [
        { ...valid, events: { keyDate: 'email', comment: 'pigeon' } },
        notificationSettingsMessages.deliveryInvalid,
      ],
      [{ ...valid, reminderDays: [0] }, notificationSettingsMessages.reminderDayInvalid(60)],
      [{ ...valid, reminderDays: [61] }, notificationSettingsMessages.reminderDayInvalid(60)],
      [{ ...valid, reminderDays: [1.5] }, notificationSettingsMessages.reminderDayInvalid(60)],
      [{ ...valid, reminderDays: [-3] }, notificationSettingsMessages.reminderDayInvalid(60)],
      [{ ...valid, reminderDays: [1, 2, 3, 4, 5, 6] }, notificationSettingsMessages.tooManyReminderDays(5)],
    ];
    for (const [body, message] of cases) {
      await refused(400, message, 'PUT', settingsUrl(agent.id), agent, body);
    }
    expect(await getSettings(agent)).toStrictEqual(AGENT_DEFAULTS);
  });

  it('refuses a zone the runtime knows but PostgreSQL does not (every "today" is computed there)', async () => {
    // Node's ICU still accepts the long-removed US/Pacific-New; PostgreSQL's tzdata does not.
    expect(new Intl.DateTimeFormat('en-US', { timeZone: 'US/Pacific-New' }).resolvedOptions()).toBeTruthy();
    const agent = await createUser(database.db);
    await createTransaction(database.db, { userId: agent.id });
    await refused(400, notificationSettingsMessages.timezoneInvalid, 'PUT', settingsUrl(agent.id), agent, {
      timezone: 'US/Pacific-New',
      reminderDays: [3, 1],
      events: {},
    });
    const caller = createCaller(await testContext(deps, await accessTokenFor(agent, { now: clock.now() })));
    await expect(caller.notificationSettings.detectTimezone({ timezone: 'US/Pacific-New' })).rejects.toThrow(
      notificationSettingsMessages.timezoneInvalid,
    );
    expect(await getSettings(agent)).toStrictEqual(AGENT_DEFAULTS);
    // The agent's lists (and everyone's digest) still work.
    expect((await call('GET', `/api/transactions/${agent.id}`, agent)).statusCode).toBe(200);
    // Names PostgreSQL knows in any case are fine.
    const saved = await ok<NotificationSettings>(200, 'PUT', settingsUrl(agent.id), agent, {
      timezone: 'Asia/Calcutta',
      reminderDays: [3, 1],
      events: {},
    });
    expect(saved.timezone).toBe('Asia/Calcutta');
  });

  it('refuses an admin event from an agent (400 naming it) and changes nothing', async () => {
    const agent = await createUser(database.db);
    for (const event of ['registration', 'documentUploaded', 'transactionCreated']) {
      const answer = await refused(
        400,
        notificationSettingsMessages.eventNotYours(event),
        'PUT',
        settingsUrl(agent.id),
        agent,
        { timezone: 'Asia/Tokyo', reminderDays: [5], events: { comment: 'email', [event]: 'email' } },
      );
      expect(answer.issues?.[0]?.path).toBe(`events.${event}`);
    }
    expect(await getSettings(agent)).toStrictEqual(AGENT_DEFAULTS);
  });

  it("takes the browser's timezone only while the account has none", async () => {
    const agent = await createUser(database.db);
    const trpc = async () =>
      createCaller(await testContext(deps, await accessTokenFor(agent, { now: clock.now() })));
    const first = await (await trpc()).notificationSettings.detectTimezone({ timezone: 'Europe/Paris' });
    expect(first.timezone).toBe('Europe/Paris');
    const second = await (await trpc()).notificationSettings.detectTimezone({ timezone: 'Asia/Tokyo' });
    expect(second.timezone).toBe('Europe/Paris');

    const chooser = await createUser(database.db);
    await ok(200, 'PUT', settingsUrl(chooser.id), chooser, {
      timezone: 'America/Denver',
      reminderDays: [3, 1],
      events: {},
    });
    const chooserCaller = createCaller(
      await testContext(deps, await accessTokenFor(chooser, { now: clock.now() })),
    );
    await chooserCaller.notificationSettings.detectTimezone({ timezone: 'Australia/Sydney' });
    expect((await getSettings(chooser)).timezone).toBe('America/Denver');
    await expect(
      chooserCaller.notificationSettings.detectTimezone({ timezone: 'Not/AZone' }),
    ).rejects.toThrow(notificationSettingsMessages.timezoneInvalid);
  });
});

describe('routing an event by preference', () => {
  let admin: Actor & { email: string };
  beforeAll(async () => {
    admin = await createAdmin(database.db);
  });

  /** An agent's open file with one uploaded item, ready for a decision. */
  async function fileAwaitingReview(agentId: string) {
    const transaction = await createTransaction(database.db, { userId: agentId, documents: ['Disclosure'] });
    const form = transaction.forms[0];
    if (!form) throw new Error('no form');
    await attachTestFile(database.db, form);
    return { transaction, form };
  }

  const reject = (t: { id: string }, form: { id: string }) =>
    ok(201, 'POST', `/api/admin/transactions/${t.id}/forms/${form.id}/comments`, admin, {
      status: 'rejected',
      text: 'Please sign page 2',
    });

  it('a decision with documentReviewed=email queues exactly one mail and its job, delivered once over SMTP with the RFC 8058 headers', async () => {
    const agent = await createUser(database.db, { email: `routed-${Date.now()}@example.com` });
    const { transaction, form } = await fileAwaitingReview(agent.id);
    const before = inbox.messages.length;
    await reject(transaction, form);

    const rows = await outboxOf(agent.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.kind).toBe('notification.documentReviewed');

    await jobs.drain();
    const mail = await inbox.waitFor(agent.email, { after: before });
    expect(mail.subject).toContain('"Disclosure" was rejected');
    expect(mail.text).toContain('Please sign page 2');
    expect(mail.html).toContain('Please sign page 2');
    const parsed = await simpleParser(mail.raw);
    const header = (key: string) =>
      parsed.headerLines.find((line) => line.key === key)?.line.replace(/\r?\n[ \t]+/g, ' ');
    expect(header('list-unsubscribe')).toMatch(
      new RegExp(`^List-Unsubscribe: <${APP_URL}/api/unsubscribe/[A-Za-z0-9_.-]+>$`),
    );
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect((await outboxOf(agent.id)).map((row) => row.status)).toEqual(['sent']);
    expect(inbox.messages.slice(before).filter((m) => m.to.includes(agent.email))).toHaveLength(1);
  });

  it("queues the mail and its job in the change's own database transaction", async () => {
    const agent = await createUser(database.db);
    let seenInside: { mails: number; jobs: number } | undefined;
    await database.db.$transaction(async (tx) => {
      await notifyUsers(
        tx,
        [agent.id],
        { message: 'Committed decision', link: '/home', event: 'documentReviewed' },
        deps,
      );
      const mails = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM mail_outbox WHERE user_id = ${agent.id}::uuid`;
      const queued = mails[0] ? await jobsOfMail(tx, mails[0].id) : [];
      seenInside = { mails: mails.length, jobs: queued.length };
    });
    expect(seenInside).toEqual({ mails: 1, jobs: 1 });
  });

  it('a rolled-back change leaves no notification, no mail and no job', async () => {
    const agent = await createUser(database.db);
    let mailId: string | undefined;
    await expect(
      database.db.$transaction(async (tx) => {
        await notifyUsers(
          tx,
          [agent.id],
          { message: 'Rolled back decision', link: '/home', event: 'documentReviewed' },
          deps,
        );
        const [mail] = await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM mail_outbox WHERE user_id = ${agent.id}::uuid`;
        mailId = mail?.id;
        expect(mailId).toBeDefined();
        throw new Error('forced failure after notifyUsers');
      }),
    ).rejects.toThrow('forced failure after notifyUsers');
    expect(await database.db.notification.count({ where: { userId: agent.id } })).toBe(0);
    expect(await outboxOf(agent.id)).toEqual([]);
    expect(await jobsOfMail(database.db, mailId as string)).toEqual([]);
  });

  it('in-app queues no mail (the notification is still made)', async () => {
    const agent = await createUser(database.db);
    await ok(200, 'PUT', settingsUrl(agent.id), agent, {
      timezone: 'America/New_York',
      reminderDays: [3, 1],
      events: { documentReviewed: 'in-app' },
    });
    const { transaction, form } = await fileAwaitingReview(agent.id);
    await reject(transaction, form);
    expect(await database.db.notification.count({ where: { userId: agent.id } })).toBe(1);
    expect(await outboxOf(agent.id)).toEqual([]);
  });

  it('comment (in-app by default) queues none; set to email it queues one', async () => {
    const agent = await createUser(database.db);
    const { transaction, form } = await fileAwaitingReview(agent.id);
    const comment = () =>
      ok(201, 'POST', `/api/admin/transactions/${transaction.id}/forms/${form.id}/comments`, admin, {
        text: 'A note',
      });
    await comment();
    expect(await outboxOf(agent.id)).toEqual([]);
    await ok(200, 'PUT', settingsUrl(agent.id), agent, {
      timezone: 'America/New_York',
      reminderDays: [3, 1],
      events: { comment: 'email' },
    });
    await comment();
    expect((await outboxOf(agent.id)).map((row) => row.kind)).toEqual(['notification.comment']);
  });
});

describe('one-click unsubscribe (RFC 8058)', () => {
  /** A documentReviewed mail to a fresh agent, delivered; its List-Unsubscribe address. */
  async function mailedAgent() {
    const admin = await createAdmin(database.db);
    const agent = await createUser(database.db, {
      email: `unsub-${Date.now()}-${Math.random()}@example.com`,
    });
    const transaction = await createTransaction(database.db, { userId: agent.id, documents: ['Disclosure'] });
    const form = transaction.forms[0];
    if (!form) throw new Error('no form');
    await attachTestFile(database.db, form);
    const before = inbox.messages.length;
    await ok(201, 'POST', `/api/admin/transactions/${transaction.id}/forms/${form.id}/comments`, admin, {
      status: 'accepted',
    });
    await jobs.drain();
    const mail = await inbox.waitFor(agent.email, { after: before });
    const parsed = await simpleParser(mail.raw);
    const value = parsed.headerLines
      .find((line) => line.key === 'list-unsubscribe')
      ?.line.replace(/\r?\n[ \t]+/g, ' ');
    const match = value?.match(/<([^>]+)>/);
    if (!match?.[1]) throw new Error(`No List-Unsubscribe in ${mail.raw.slice(0, 2000)}`);
    const url = new URL(match[1]);
    expect(url.origin).toBe(APP_URL);
    return { agent, path: url.pathname, token: url.pathname.split('/').pop() as string };
  }

  const oneClick = (
    path: string,
    headers: Record<string, string> = {},
    payload = 'List-Unsubscribe=One-Click',
  ) =>
    app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload,
    });

  it("the mail's POST without a session switches that event to in-app (200, message), twice alike", async () => {
    const { agent, path } = await mailedAgent();
    expect(path).toMatch(/^\/api\/unsubscribe\//);
    const res = await oneClick(path);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: notificationSettingsMessages.unsubscribed('Document reviewed'),
      event: 'documentReviewed',
    });
    expect(await getSettings(agent)).toStrictEqual({
      ...AGENT_DEFAULTS,
      events: { ...AGENT_DEFAULTS.events, documentReviewed: 'in-app' },
    });
    // Mail providers may POST again: still 200, still in-app.
    expect((await oneClick(path)).statusCode).toBe(200);
    expect((await getSettings(agent)).events.documentReviewed).toBe('in-app');
  });

  it('takes any body type (text, JSON, none, multipart) and ignores it', async () => {
    const { agent, path } = await mailedAgent();
    const answers = [
      await oneClick(path, { 'content-type': 'text/plain' }, 'anything at all'),
      await app.inject({ method: 'POST', url: path }),
      await oneClick(path, { 'content-type': 'application/json' }, '{"List-Unsubscribe":"One-Click"}'),
      await oneClick(
        path,
        { 'content-type': 'multipart/form-data; boundary=x' },
        '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
      ),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
    expect((await getSettings(agent)).events.documentReviewed).toBe('in-app');
  });

  it('a tampered token is 400 and changes nothing', async () => {
    const { agent, token } = await mailedAgent();
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    const tampered = [
      `${token.slice(0, -1)}${last}`,
      `${token.slice(0, 5)}${token[5] === 'x' ? 'y' : 'x'}${token.slice(6)}`,
      token.split('.')[0] ?? 'x',
      'not-a-token',
    ];
    for (const bad of tampered) {
      const res = await oneClick(`/api/unsubscribe/${bad}`);
      expect(res.statusCode, `${bad}: ${res.body}`).toBe(400);
      expect(res.json().message).toBe(notificationSettingsMessages.unsubscribeInvalid);
    }
    expect(await getSettings(agent)).toStrictEqual(AGENT_DEFAULTS);
  });

  it('GET redirects (303) to the page /unsubscribe/<token> and changes nothing', async () => {
    const { agent, path, token } = await mailedAgent();
    const res = await app.inject({ method: 'GET', url: path });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/unsubscribe/${token}`);
    expect(await getSettings(agent)).toStrictEqual(AGENT_DEFAULTS);
  });
});
