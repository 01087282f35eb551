import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiMessages } from '../../shared/messages';
import type { Transaction } from '../../shared/schemas/transactions';
import { Prisma } from '../db/generated/client';
import { createNotificationBus, NOTIFICATIONS_CHANNEL } from '../realtime/bus';
import { hashSecretToken } from '../security/secret-tokens';
import {
  accessTokenFor,
  attachTestFile,
  createAdmin,
  createNotification,
  createOwner,
  createTemplate,
  createUser,
} from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { deliveriesOf, feedEntries } from '../test/notification-feed';
import { until } from '../test/until';
import { type FeedRow, toNotification } from './notification-feed';
import { notifyActiveAdmins, notifyUsers } from './notifications';

/**
 * Each event (docs/API.md, "Notifications", who is told) notifies exactly the right people, written in the same
 * database transaction as the change (so a rolled-back change notifies nobody).
 */

const database = setupTestDatabase();
let app: FastifyInstance;
const clock = new TestClock();

type Actor = { id: string; token: string };
let agent: Actor;
let otherAgent: Actor;
let admin: Actor;
let owner: Actor;
let inactiveAdmin: { id: string };
const TYPE = `Notify-${Date.now()}`;

async function actor(user: { id: string; role: 'user' | 'admin'; tokenVersion: number }): Promise<Actor> {
  return { id: user.id, token: await accessTokenFor(user, { now: clock.now() }) };
}

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  agent = await actor(await createUser(database.db, { firstName: 'Rosa', lastName: 'Tester' }));
  otherAgent = await actor(await createUser(database.db));
  admin = await actor(await createAdmin(database.db, { firstName: 'Carl', lastName: 'Compliance' }));
  owner = await actor(await createOwner(database.db));
  inactiveAdmin = await createAdmin(database.db, { isAdminApproved: false });
  await createTemplate(database.db, {
    type: TYPE,
    role: 'Seller',
    documents: ['Listing Agreement', 'Disclosure'],
  });
});
afterAll(() => app.close());

/**
 * Notifications created since the last markSeen(), per recipient. By id, not by time: the rows'
 * createdAt comes from the database clock, rounded to the millisecond, so a row made just before
 * a JavaScript timestamp can compare as made after it.
 */
let seen = new Set<string>();
/** The feed's rows in the list's shape, with their user, matching `where` on `n`. */
const feedRows = (where: Prisma.Sql) =>
  database.db.$queryRaw<(FeedRow & { user_id: string })[]>`
    SELECT n.user_id, n.id, n.message, n.link, n.read_at IS NOT NULL AS read, n.created_at,
           coalesce(t.deleted_at IS NOT NULL, false) AS transaction_deleted
      FROM notification_feed n LEFT JOIN transactions t ON t.id = n.transaction_id
     WHERE ${where} ORDER BY n.created_at, n.id`;

async function markSeen(): Promise<void> {
  seen = new Set((await feedEntries(database.db)).map((row) => row.id));
}
beforeEach(markSeen);
async function received(): Promise<Record<string, string[]>> {
  const rows = (await feedEntries(database.db)).filter((row) => !seen.has(row.id));
  const byUser: Record<string, string[]> = {};
  for (const row of rows) byUser[row.userId] = [...(byUser[row.userId] ?? []), row.message];
  return byUser;
}

function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  who: Actor | undefined,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
  });
}

async function open(who: Actor): Promise<Transaction> {
  const res = await call('POST', '/api/transactions', who, {
    type: TYPE,
    role: 'Seller',
    streetAddress: '48 Lighthouse Point',
    city: 'Portland',
    state: 'ME',
    zip: '04101',
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

/** A connection of its own LISTENing on the notifications channel, with every payload it got. */
async function listenToNotifications() {
  const listener = new pg.Client({ connectionString: database.url });
  await listener.connect();
  const payloads: string[] = [];
  listener.on('notification', (event) => {
    if (event.channel === NOTIFICATIONS_CHANNEL && event.payload) payloads.push(event.payload);
  });
  await listener.query(`LISTEN ${NOTIFICATIONS_CHANNEL}`);
  return { listener, payloads };
}

describe('who hears about what', () => {
  it('a new transaction: every active admin, not the agent, not an inactive admin', async () => {
    await open(agent);
    const got = await received();
    expect(Object.keys(got).sort()).toEqual([admin.id, owner.id].sort());
    expect(got[admin.id]).toEqual(['Rosa Tester opened a transaction: 48 Lighthouse Point, Portland']);
    expect(got[inactiveAdmin.id]).toBeUndefined();
  });

  it("an agent's upload and comment: the admins; an admin's comment: the agent only", async () => {
    const deal = await open(agent);
    const form = deal.forms[0];
    await markSeen();
    await call('POST', `/api/transactions/${deal._id}/forms/${form?._id}/comments`, agent, {
      text: 'Signed today',
    });
    let got = await received();
    expect(Object.keys(got).sort()).toEqual([admin.id, owner.id].sort());
    expect(got[owner.id]).toEqual([
      'Rosa Tester commented on "Listing Agreement" (48 Lighthouse Point, Portland): Signed today',
    ]);

    await markSeen();
    await call('POST', `/api/transactions/${deal._id}/forms/${form?._id}/comments`, admin, {
      text: 'Thanks!',
    });
    got = await received();
    expect(got).toEqual({
      [agent.id]: [
        'Carl Compliance commented on "Listing Agreement" (48 Lighthouse Point, Portland): Thanks!',
      ],
    });
  });

  it('a review with a comment is one notification, to the agent alone', async () => {
    const deal = await open(agent);
    await attachTestFile(database.db, { id: deal.forms[1]?._id ?? '', transactionId: deal._id });
    await markSeen();
    const res = await call(
      'POST',
      `/api/admin/transactions/${deal._id}/forms/${deal.forms[1]?._id}/comments`,
      admin,
      {
        status: 'rejected',
        text: 'Missing initials on page 3.',
      },
    );
    expect(res.statusCode).toBe(201);
    expect(await received()).toEqual({
      [agent.id]: ['"Disclosure" was rejected (48 Lighthouse Point, Portland): Missing initials on page 3.'],
    });
  });

  it('notifications link to the page each side uses', async () => {
    const deal = await open(agent);
    const toAdmin = (await feedEntries(database.db, Prisma.sql`user_id = ${admin.id}::uuid`)).at(-1);
    expect(toAdmin?.link).toBe(`/adminTransactions/transactions/${deal._id}`);
    await attachTestFile(database.db, { id: deal.forms[0]?._id ?? '', transactionId: deal._id });
    await call('POST', `/api/admin/transactions/${deal._id}/forms/${deal.forms[0]?._id}/comments`, admin, {
      status: 'accepted',
    });
    const toAgent = await database.db.notification.findFirstOrThrow({
      where: { userId: agent.id },
      orderBy: { createdAt: 'desc' },
    });
    expect(toAgent.link).toBe(`/home/transactions/${deal._id}`);
  });

  it('approval: the user, once; a verified registration: every active admin', async () => {
    const newcomer = await createUser(database.db, { isAdminApproved: false });
    await markSeen();
    await call('GET', `/api/users/activate/${newcomer.id}`, admin);
    await call('GET', `/api/users/activate/${newcomer.id}`, admin);
    expect(await received()).toEqual({ [newcomer.id]: [apiMessages.accountApproved] });

    const registered = await createUser(database.db, {
      firstName: 'Nadia',
      lastName: 'Reyes',
      email: 'nadia.notify@example.com',
      isAdminApproved: false,
      emailVerifiedAt: null,
    });
    const token = 'a-verification-token-for-this-test-0123456789';
    await database.db.emailToken.create({
      data: {
        userId: registered.id,
        purpose: 'verify_email',
        tokenHash: hashSecretToken(token),
        expiresAt: new Date(clock.now().getTime() + 3_600_000),
      },
    });
    await markSeen();
    expect((await call('POST', '/api/auth/verify-email', undefined, { token })).statusCode).toBe(200);
    const message = 'New registration awaiting approval: Nadia Reyes (nadia.notify@example.com)';
    expect(await received()).toEqual({ [admin.id]: [message], [owner.id]: [message] });
  });

  it("nobody else ever hears of an agent's deal", async () => {
    const theirs = () => feedEntries(database.db, Prisma.sql`user_id = ${otherAgent.id}::uuid`);
    const before = (await theirs()).length;
    const deal = await open(agent);
    await call('POST', `/api/transactions/${deal._id}/forms/${deal.forms[0]?._id}/comments`, agent, {
      text: 'x',
    });
    await call('POST', `/api/admin/transactions/${deal._id}/forms/${deal.forms[0]?._id}/comments`, admin, {
      status: 'accepted',
    });
    expect(await theirs()).toHaveLength(before);
  });

  it('a rolled-back change creates no notification', async () => {
    const before = await database.db.notification.count();
    const noticesBefore = await database.db.adminNotice.count();
    await expect(
      database.db.$transaction(async (tx) => {
        await notifyUsers(tx, [agent.id, admin.id], { message: 'never seen', link: '/home' });
        await notifyActiveAdmins(
          tx,
          { message: 'never seen', link: '/home', event: 'comment' },
          testDeps(database.db),
        );
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await database.db.notification.count()).toBe(before);
    expect(await database.db.adminNotice.count()).toBe(noticesBefore);
  });

  it('each live event is the stored notification as the list shows it, once per recipient', async () => {
    const { listener, payloads } = await listenToNotifications();
    try {
      const link = `/home/live-${Date.now()}`;
      await database.db.$transaction((tx) =>
        notifyUsers(tx, [agent.id, admin.id, agent.id], { message: 'Checked live', link }),
      );
      const ours = () => payloads.flatMap((p) => deliveriesOf(p)).filter((e) => e.notification.link === link);
      await until(() => ours().length >= 2, 3_000);
      const stored = await feedRows(Prisma.sql`n.link = ${link}`);
      const byUser = (a: { userId: string }, b: { userId: string }) => a.userId.localeCompare(b.userId);
      expect(stored).toHaveLength(2);
      expect(ours().sort(byUser)).toEqual(
        stored.map((row) => ({ userId: row.user_id, notification: toNotification(row) })).sort(byUser),
      );
    } finally {
      await listener.end();
    }
  });

  it('many recipients share a bus message, each under the 8,000-byte limit of NOTIFY, each told once', async () => {
    const { listener, payloads } = await listenToNotifications();
    try {
      const many = await Promise.all(Array.from({ length: 120 }, () => createUser(database.db)));
      const link = `/home/many-${Date.now()}`;
      // The longest message there is, every character escaped by JSON (\u0001 is six bytes).
      const message = '\u0001'.repeat(400);
      await database.db.$transaction((tx) =>
        notifyUsers(
          tx,
          many.map((user) => user.id),
          { message, link },
        ),
      );
      const ours = () => payloads.filter((payload) => deliveriesOf(payload)[0]?.notification.link === link);
      await until(() => ours().flatMap((p) => deliveriesOf(p)).length >= 120, 3_000);
      expect(ours()).toHaveLength(3); // 50 + 50 + 20 recipients
      for (const payload of ours()) expect(Buffer.byteLength(payload)).toBeLessThan(8_000);
      const events = ours().flatMap((p) => deliveriesOf(p));
      expect(events.map((event) => event.userId).sort()).toEqual(many.map((user) => user.id).sort());
      const stored = await feedRows(Prisma.sql`n.link = ${link}`);
      expect(events.map((event) => event.notification).sort((a, b) => a._id.localeCompare(b._id))).toEqual(
        stored.map(toNotification).sort((a, b) => a._id.localeCompare(b._id)),
      );
      expect(events[0]?.notification.message).toHaveLength(300);
    } finally {
      await listener.end();
    }
  });
});

describe('notification ids', () => {
  it('are UUIDv7 of the moment, unique across statements of the same millisecond, in row order', async () => {
    const users = await Promise.all(Array.from({ length: 30 }, () => createUser(database.db)));
    const before = Date.now();
    // Ten statements at once: many share a millisecond, each draws its own random bits.
    await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        database.db.$transaction((tx) =>
          notifyUsers(
            tx,
            users.map((user) => user.id),
            { message: `batch ${n}`, link: '/home/ids' },
          ),
        ),
      ),
    );
    const after = Date.now();
    const rows = await database.db.notification.findMany({
      where: { link: '/home/ids' },
      select: { id: true, userId: true, message: true },
    });
    expect(rows).toHaveLength(300);
    expect(new Set(rows.map((row) => row.id)).size).toBe(300);
    for (const { id } of rows) {
      // Version 7, variant 10xx (RFC 9562), which zod's uuid() and every validator accept.
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const millisecond = Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
      expect(millisecond).toBeGreaterThanOrEqual(before - 1_000);
      expect(millisecond).toBeLessThanOrEqual(after + 1_000);
    }
    // Within a statement, the ids follow the recipients' order.
    const batch = rows.filter((row) => row.message === 'batch 0').sort((a, b) => a.id.localeCompare(b.id));
    expect(batch.map((row) => row.userId)).toEqual(users.map((user) => user.id));
  });
});

describe('the list and mark-as-read', () => {
  it('newest first, own only (403 for another user), unread count, mark all read', async () => {
    const res = await call('GET', `/api/notifications/${agent.id}?page=1&limit=2`, agent);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.notifications).toHaveLength(2);
    expect(page.unread).toBeGreaterThan(0);
    const times = page.notifications.map((n: { createdAt: string }) => n.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(Object.keys(page.notifications[0]).sort()).toEqual([
      '_id',
      'createdAt',
      'link',
      'message',
      'read',
      'transactionDeleted',
    ]);
    expect((await call('GET', `/api/notifications/${agent.id}`, otherAgent)).statusCode).toBe(403);
    // A page far past the end (its offset beyond a 32-bit integer): empty, with the true totals.
    const far = await call(
      'GET',
      `/api/notifications/${agent.id}?page=${Number.MAX_SAFE_INTEGER}&limit=50`,
      agent,
    );
    expect(far.statusCode).toBe(200);
    expect(far.json()).toMatchObject({ notifications: [], total: page.total, unread: page.unread });

    const read = await call('POST', `/api/notifications/${agent.id}/read`, agent);
    expect(read.statusCode).toBe(200);
    expect((await call('GET', `/api/notifications/${agent.id}`, agent)).json().unread).toBe(0);
    expect((await call('POST', `/api/notifications/${agent.id}/read`, otherAgent)).statusCode).toBe(403);
  });
});

describe('a notification about a transaction deleted since', () => {
  const listFor = async (who: Actor) =>
    (await call('GET', `/api/notifications/${who.id}?page=1&limit=50`, who)).json() as {
      notifications: Array<{ _id: string; message: string; link: string; transactionDeleted: boolean }>;
    };

  it('stays in the list with its link, and says its transaction was deleted', async () => {
    const deal = await open(agent);
    const kept = await open(agent);
    await call('POST', `/api/admin/transactions/${deal._id}/forms/${deal.forms[0]?._id}/comments`, admin, {
      text: 'About the deal that goes',
    });
    await call('POST', `/api/admin/transactions/${kept._id}/forms/${kept.forms[0]?._id}/comments`, admin, {
      text: 'About the deal that stays',
    });
    expect((await call('DELETE', `/api/admin/transactions/${deal._id}`, admin)).statusCode).toBe(200);

    const agentSide = (await listFor(agent)).notifications;
    const gone = agentSide.find((n) => n.message.endsWith('About the deal that goes'));
    const stays = agentSide.find((n) => n.message.endsWith('About the deal that stays'));
    expect(gone).toMatchObject({ link: `/home/transactions/${deal._id}`, transactionDeleted: true });
    expect(stays).toMatchObject({ link: `/home/transactions/${kept._id}`, transactionDeleted: false });

    // The admins' "opened a transaction" notifications are about it too.
    const adminSide = (await listFor(admin)).notifications.filter((n) =>
      [`/adminTransactions/transactions/${deal._id}`, `/adminTransactions/transactions/${kept._id}`].includes(
        n.link,
      ),
    );
    expect(adminSide.map((n) => [n.link, n.transactionDeleted]).sort()).toEqual(
      [
        [`/adminTransactions/transactions/${deal._id}`, true],
        [`/adminTransactions/transactions/${kept._id}`, false],
      ].sort(),
    );
    // Notifications about no transaction (an approval, say) are never "deleted".
    await createNotification(database.db, { userId: agent.id, link: '/home', message: 'Not about a deal' });
    expect((await listFor(agent)).notifications.find((n) => n.message === 'Not about a deal')).toMatchObject({
      transactionDeleted: false,
    });
  });

  it('a live event about a deleted transaction says so as well', async () => {
    const { listener, payloads } = await listenToNotifications();
    try {
      const deal = await open(agent);
      const link = `/home/transactions/${deal._id}`;
      await database.db.$transaction((tx) =>
        notifyUsers(tx, [agent.id], { message: 'Before the delete', link, transactionId: deal._id }),
      );
      await call('DELETE', `/api/admin/transactions/${deal._id}`, admin);
      // A change that raced the delete: its event must not offer the dead page either.
      await database.db.$transaction((tx) =>
        notifyUsers(tx, [agent.id], { message: 'After the delete', link, transactionId: deal._id }),
      );
      const ours = () => payloads.flatMap((p) => deliveriesOf(p)).filter((e) => e.notification.link === link);
      await until(() => ours().length >= 2, 3_000);
      expect(ours().map((e) => [e.notification.message, e.notification.transactionDeleted])).toEqual([
        ['Before the delete', false],
        ['After the delete', true],
      ]);
    } finally {
      await listener.end();
    }
  });
});

describe('a notice to every active admin (fan-out on read)', () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
  const noticeToAdmins = (message: string, exceptUserId?: string) =>
    database.db.$transaction((tx) =>
      notifyActiveAdmins(
        tx,
        { message, link: '/adminTransactions', event: 'comment' },
        testDeps(database.db),
        exceptUserId,
      ),
    );
  const messagesOf = async (userId: string, prefix: string) =>
    (
      await feedEntries(database.db, Prisma.sql`user_id = ${userId}::uuid AND message LIKE ${`${prefix}%`}`)
    ).map((row) => row.message);

  it('is one row and one bus message whatever the number of admins, heard by every subscribed admin but the actor', async () => {
    const { listener, payloads } = await listenToNotifications();
    const bus = createNotificationBus(database.url, pino({ level: 'silent' }));
    const heard: Record<string, string[]> = {};
    const hear = (userId: string, admin: boolean) =>
      bus.subscribe(userId, admin, (event) => {
        if (event.kind === 'notification') heard[userId] = [...(heard[userId] ?? []), event.notification._id];
      });
    try {
      await bus.ready;
      const unsubscribes = [hear(admin.id, true), hear(owner.id, true), hear(agent.id, false)];
      const rowsBefore = await database.db.notification.count();
      const noticesBefore = await database.db.adminNotice.count();
      await noticeToAdmins('Fan-out one row', admin.id);
      expect(await database.db.notification.count()).toBe(rowsBefore);
      expect(await database.db.adminNotice.count()).toBe(noticesBefore + 1);
      const notice = await database.db.adminNotice.findFirstOrThrow({
        where: { message: 'Fan-out one row' },
      });

      const ours = () =>
        payloads.filter((p) => deliveriesOf(p, [admin.id, owner.id])[0]?.notification._id === notice.id);
      await until(() => ours().length === 1 && heard[owner.id] !== undefined, 3_000);
      expect(deliveriesOf(ours()[0] as string, [admin.id, owner.id, agent.id]).map((d) => d.userId)).toEqual([
        owner.id,
        agent.id,
      ]);
      // The bus hands it to admins only, and not to the admin whose action it tells of.
      expect(heard).toEqual({ [owner.id]: [notice.id] });
      for (const unsubscribe of unsubscribes) unsubscribe();
      // What the event said is what the list says.
      const [listed] = (await call('GET', `/api/notifications/${owner.id}?page=1&limit=1`, owner)).json()
        .notifications;
      const live = deliveriesOf(ours()[0] as string, [owner.id])[0]?.notification;
      expect(listed).toEqual(live);
      expect(live).toMatchObject({
        _id: notice.id,
        message: 'Fan-out one row',
        read: false,
        transactionDeleted: false,
      });
    } finally {
      await bus.close();
      await listener.end();
    }
  });

  it('reaches a stream opened before its user became an admin, and no longer once they are not one', async () => {
    const bus = createNotificationBus(database.url, pino({ level: 'silent' }));
    const promoted = await createUser(database.db);
    const heard: string[] = [];
    try {
      await bus.ready;
      // Subscribed as an agent: what the session said when the socket opened.
      const unsubscribe = bus.subscribe(promoted.id, false, (event) => {
        if (event.kind === 'notification') heard.push(event.notification.message);
      });
      await noticeToAdmins('Promotion: before');
      await database.db.user.update({ where: { id: promoted.id }, data: { role: 'admin' } });
      await noticeToAdmins('Promotion: as an admin');
      await until(() => heard.length > 0, 3_000);
      await database.db.user.update({ where: { id: promoted.id }, data: { isAdminApproved: false } });
      await noticeToAdmins('Promotion: deactivated');
      await database.db.user.update({ where: { id: promoted.id }, data: { isAdminApproved: true } });
      await noticeToAdmins('Promotion: active again');
      await until(() => heard.length > 1, 3_000);
      expect(heard).toEqual(['Promotion: as an admin', 'Promotion: active again']);
      expect(await messagesOf(promoted.id, 'Promotion: ')).toEqual(heard);
      unsubscribe();
    } finally {
      await database.db.user.update({ where: { id: promoted.id }, data: { isAdminApproved: false } });
      await bus.close();
    }
  });

  it('reaches the admins of the moment: not those made later, not during a deactivation, again after it', async () => {
    await noticeToAdmins('Term: before');
    await tick();
    const newcomer = await createAdmin(database.db);
    await tick();
    await noticeToAdmins('Term: first');
    await tick();
    await database.db.user.update({ where: { id: newcomer.id }, data: { isAdminApproved: false } });
    await tick();
    await noticeToAdmins('Term: while deactivated');
    await tick();
    await database.db.user.update({ where: { id: newcomer.id }, data: { isAdminApproved: true } });
    await tick();
    await noticeToAdmins('Term: second');
    expect(await messagesOf(newcomer.id, 'Term: ')).toEqual(['Term: first', 'Term: second']);
    expect(await messagesOf(admin.id, 'Term: ')).toEqual([
      'Term: before',
      'Term: first',
      'Term: while deactivated',
      'Term: second',
    ]);
    expect(await messagesOf(agent.id, 'Term: ')).toEqual([]);
    expect(await messagesOf(inactiveAdmin.id, 'Term: ')).toEqual([]);
    // The list pages and counts the same feed.
    const newcomerActor = await actor(newcomer);
    const page = (
      await call('GET', `/api/notifications/${newcomer.id}?page=1&limit=1`, newcomerActor)
    ).json();
    expect(page).toMatchObject({ total: 2, unread: 2, totalPages: 2 });
    expect(page.notifications.map((n: { message: string }) => n.message)).toEqual(['Term: second']);
    await database.db.user.update({ where: { id: newcomer.id }, data: { isAdminApproved: false } });
  });

  it('is read by each admin on their own: marking all read marks it for the caller only', async () => {
    await noticeToAdmins('Read mark: one');
    await noticeToAdmins('Read mark: two', owner.id);
    const listOf = async (who: Actor) =>
      (await call('GET', `/api/notifications/${who.id}?page=1&limit=100`, who)).json() as {
        unread: number;
        notifications: { message: string; read: boolean }[];
      };
    const readMarks = (page: Awaited<ReturnType<typeof listOf>>) =>
      page.notifications.filter((n) => n.message.startsWith('Read mark: ')).map((n) => [n.message, n.read]);
    const ownerBefore = await listOf(owner);
    expect(readMarks(ownerBefore)).toEqual([['Read mark: one', false]]);

    expect((await call('POST', `/api/notifications/${admin.id}/read`, admin)).statusCode).toBe(200);
    const adminAfter = await listOf(admin);
    expect(adminAfter.unread).toBe(0);
    expect(readMarks(adminAfter)).toEqual([
      ['Read mark: two', true],
      ['Read mark: one', true],
    ]);
    const ownerAfter = await listOf(owner);
    expect(ownerAfter.unread).toBe(ownerBefore.unread);
    expect(readMarks(ownerAfter)).toEqual([['Read mark: one', false]]);
    // Marking again changes nothing and fails nothing.
    expect((await call('POST', `/api/notifications/${admin.id}/read`, admin)).statusCode).toBe(200);
    expect((await listOf(admin)).unread).toBe(0);
  });

  it('marks the notices older than a minute read by one watermark, the newer ones by marks, and pages them all', async () => {
    const reader = await createAdmin(database.db);
    const readerActor = await actor(reader);
    // A term begun an hour ago, and notices made then: written as the clock had them.
    await database.db.$executeRaw`
      UPDATE admin_terms SET started_at = now() - interval '1 hour' WHERE user_id = ${reader.id}::uuid`;
    await database.db.$executeRaw`
      INSERT INTO admin_notices (message, link, event, created_at)
      SELECT 'Old notice ' || n, '/adminTransactions', 'comment', now() - n * interval '5 minutes'
        FROM generate_series(1, 3) AS n`;
    await noticeToAdmins('Watermark: new');
    const listOf = async (page: number, limit: number) =>
      (
        await call('GET', `/api/notifications/${reader.id}?page=${page}&limit=${limit}`, readerActor)
      ).json() as {
        total: number;
        unread: number;
        totalPages: number;
        notifications: { message: string; read: boolean }[];
      };
    const before = await listOf(1, 100);
    const ours = (page: Awaited<ReturnType<typeof listOf>>) =>
      page.notifications
        .filter((n) => /^(Old notice|Watermark)/.test(n.message))
        .map((n) => [n.message, n.read]);
    expect(ours(before)).toEqual([
      ['Watermark: new', false],
      ['Old notice 1', false],
      ['Old notice 2', false],
      ['Old notice 3', false],
    ]);
    expect(before.unread).toBe(before.total);

    expect((await call('POST', `/api/notifications/${reader.id}/read`, readerActor)).statusCode).toBe(200);
    const [user] = await database.db.$queryRaw<{ watermark_age: number; marks: number }[]>`
      SELECT extract(epoch FROM now() - notices_read_before)::float8 AS watermark_age,
             (SELECT count(*)::int FROM admin_notice_reads WHERE user_id = u.id) AS marks
        FROM users u WHERE id = ${reader.id}::uuid`;
    // One mark for each notice of the last minute, none for the older ones: the watermark reads them.
    expect(user?.watermark_age).toBeGreaterThanOrEqual(59);
    expect(user?.watermark_age).toBeLessThan(120);
    expect(user?.marks).toBe(before.total - 3);
    const after = await listOf(1, 100);
    expect(after.unread).toBe(0);
    expect(ours(after).every(([, read]) => read)).toBe(true);

    // Pages of two, newest first, with nothing repeated or left out.
    const pages = await Promise.all([1, 2, 3].map((page) => listOf(page, 2)));
    expect(pages[0]?.totalPages).toBe(Math.ceil(after.total / 2));
    const paged = pages.flatMap((page) => page.notifications.map((n) => n.message));
    expect(paged).toEqual(after.notifications.slice(0, 6).map((n) => n.message));
  });
});
