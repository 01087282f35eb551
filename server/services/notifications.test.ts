import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiMessages } from '../../shared/messages';
import type { Transaction } from '../../shared/schemas/transactions';
import { NOTIFICATIONS_CHANNEL, notificationsOfPayload } from '../realtime/bus';
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
import { until } from '../test/until';
import { notificationSelect, notifyUsers, toNotification } from './notifications';

/**
 * Each event of DESIGN.md section 7 notifies exactly the right people, written in the same
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
async function markSeen(): Promise<void> {
  seen = new Set((await database.db.notification.findMany({ select: { id: true } })).map((row) => row.id));
}
beforeEach(markSeen);
async function received(): Promise<Record<string, string[]>> {
  const rows = await database.db.notification.findMany({
    where: { id: { notIn: [...seen] } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
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
    const toAdmin = await database.db.notification.findFirstOrThrow({
      where: { userId: admin.id },
      orderBy: { createdAt: 'desc' },
    });
    expect(toAdmin.link).toBe(`/adminTransactions/transactions/${deal._id}`);
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
    const before = await database.db.notification.count({ where: { userId: otherAgent.id } });
    const deal = await open(agent);
    await call('POST', `/api/transactions/${deal._id}/forms/${deal.forms[0]?._id}/comments`, agent, {
      text: 'x',
    });
    await call('POST', `/api/admin/transactions/${deal._id}/forms/${deal.forms[0]?._id}/comments`, admin, {
      status: 'accepted',
    });
    expect(await database.db.notification.count({ where: { userId: otherAgent.id } })).toBe(before);
  });

  it('a rolled-back change creates no notification', async () => {
    const before = await database.db.notification.count();
    await expect(
      database.db.$transaction(async (tx) => {
        await notifyUsers(tx, [agent.id, admin.id], { message: 'never seen', link: '/home' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await database.db.notification.count()).toBe(before);
  });

  it('each live event is the stored notification as the list shows it, once per recipient', async () => {
    const { listener, payloads } = await listenToNotifications();
    try {
      const link = `/home/live-${Date.now()}`;
      await database.db.$transaction((tx) =>
        notifyUsers(tx, [agent.id, admin.id, agent.id], { message: 'Checked live', link }),
      );
      const ours = () => payloads.flatMap(notificationsOfPayload).filter((e) => e.notification.link === link);
      await until(() => ours().length >= 2, 3_000);
      const stored = await database.db.notification.findMany({
        where: { link },
        select: notificationSelect,
      });
      const byUser = (a: { userId: string }, b: { userId: string }) => a.userId.localeCompare(b.userId);
      expect(stored).toHaveLength(2);
      expect(ours().sort(byUser)).toEqual(
        stored.map((row) => ({ userId: row.userId, notification: toNotification(row) })).sort(byUser),
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
      const ours = () =>
        payloads.filter((payload) => notificationsOfPayload(payload)[0]?.notification.link === link);
      await until(() => ours().flatMap(notificationsOfPayload).length >= 120, 3_000);
      expect(ours()).toHaveLength(3); // 50 + 50 + 20 recipients
      for (const payload of ours()) expect(Buffer.byteLength(payload)).toBeLessThan(8_000);
      const events = ours().flatMap(notificationsOfPayload);
      expect(events.map((event) => event.userId).sort()).toEqual(many.map((user) => user.id).sort());
      const stored = await database.db.notification.findMany({ where: { link }, select: notificationSelect });
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

    const read = await call('POST', `/api/notifications/${agent.id}/read`, agent);
    expect(read.statusCode).toBe(200);
    expect((await call('GET', `/api/notifications/${agent.id}`, agent)).json().unread).toBe(0);
    expect((await call('POST', `/api/notifications/${agent.id}/read`, otherAgent)).statusCode).toBe(403);
  });
});

describe('a notification about a transaction deleted since (issue 17)', () => {
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
      const ours = () => payloads.flatMap(notificationsOfPayload).filter((e) => e.notification.link === link);
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
