import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../shared/schemas/notifications';
import { createNotificationBus } from '../realtime/bus';
import { withAdminClient } from '../test/databases';
import { createAdmin, createNotification, createUser } from '../test/factories';
import { serviceContext, setupTestDatabase, testDeps } from '../test/harness';
import { until } from '../test/until';
import type { CallerContext } from './context';
import { notifyActiveAdmins, notifyUsers, revokeLiveSessions, streamNotifications } from './notifications';

/**
 * The live notification stream is a service: driven here directly, with a context made
 * without any request and a real LISTEN/NOTIFY bus, no tRPC in between.
 */

const database = setupTestDatabase();
let bus: ReturnType<typeof createNotificationBus>;

beforeAll(async () => {
  bus = createNotificationBus(database.url, pino({ level: 'silent' }), { minDelayMs: 50, maxDelayMs: 500 });
  await bus.ready;
});
afterAll(() => bus.close());

async function agentContext(signal?: AbortSignal): Promise<CallerContext> {
  const user = await createUser(database.db);
  const ctx = serviceContext(testDeps(database.db, { bus }), { id: user.id, role: 'user', isOwner: false });
  return signal ? { ...ctx, signal } : ctx;
}

/** Reads events from the stream into `into` until it ends; resolves with how it ended. */
async function drain(stream: AsyncGenerator<Notification, string>, into: Notification[]) {
  for (;;) {
    const next = await stream.next();
    if (next.done) return next.value;
    into.push(next.value);
  }
}

/** An agent's stream with a direct delivery, resuming after 'seen' with 'missed' to catch up on. */
async function directStreamAfterOneMissed() {
  const aborted = new AbortController();
  const ctx = await agentContext(aborted.signal);
  const seen = await createNotification(database.db, { userId: ctx.user.id, message: 'seen' });
  await createNotification(database.db, { userId: ctx.user.id, message: 'missed' });
  const direct: Notification[] = [];
  const stream = streamNotifications(ctx, { lastEventId: seen.id }, (event) => direct.push(event));
  return { aborted, ctx, direct, stream };
}

describe('streamNotifications', () => {
  it('sends what the client missed after its last event, then each new one once, until the caller goes away', async () => {
    const aborted = new AbortController();
    const ctx = await agentContext(aborted.signal);
    const seen = await createNotification(database.db, { userId: ctx.user.id, message: 'seen' });
    const missed = await createNotification(database.db, { userId: ctx.user.id, message: 'missed' });

    const received: Notification[] = [];
    const ended = drain(streamNotifications(ctx, { lastEventId: seen.id }), received);
    await until(async () => received.length === 1, 5_000);
    expect(received[0]).toMatchObject({ _id: missed.id, message: 'missed', read: false });

    await until(async () => (bus.stats?.().subscriptions ?? 0) > 0, 5_000);
    await notifyUsers(database.db, [ctx.user.id], { message: 'live', link: '/home' });
    await until(async () => received.length === 2, 5_000);
    expect(received[1]).toMatchObject({ message: 'live', link: '/home' });

    aborted.abort();
    expect(await ended).toBe('ended');
    // Its subscription to the bus went with it.
    expect(bus.stats?.().subscriptions).toBe(0);
    expect(received.map((event) => event.message)).toEqual(['missed', 'live']);
  });

  it("an admin's stream: the notices to every admin missed after its last event, its own rows, then each live one but its own action's", async () => {
    const aborted = new AbortController();
    const admin = await createAdmin(database.db);
    const other = await createAdmin(database.db);
    const deps = testDeps(database.db, { bus });
    const ctx = {
      ...serviceContext(deps, { id: admin.id, role: 'admin', isOwner: false }),
      signal: aborted.signal,
    };
    const toAdmins = (message: string, exceptUserId?: string) =>
      notifyActiveAdmins(
        database.db,
        { message, link: '/adminTransactions', event: 'comment' },
        deps,
        exceptUserId,
      );
    await toAdmins('seen notice');
    const [seen] = await database.db.adminNotice.findMany({ where: { message: 'seen notice' } });
    await toAdmins('missed notice');
    await createNotification(database.db, { userId: admin.id, message: 'missed row' });
    await toAdmins('not theirs to hear', admin.id);

    const yielded: Notification[] = [];
    const direct: Notification[] = [];
    const ended = drain(
      streamNotifications(ctx, { lastEventId: seen?.id }, (event) => direct.push(event)),
      yielded,
    );
    await until(async () => yielded.length === 2 && (bus.stats?.().subscriptions ?? 0) > 0, 5_000);
    expect(yielded.map((event) => event.message)).toEqual(['missed notice', 'missed row']);

    await toAdmins('live notice', other.id);
    await toAdmins('live, their own action', admin.id);
    await toAdmins('live again');
    await until(async () => direct.length === 2, 5_000);
    expect(direct.map((event) => event.message)).toEqual(['live notice', 'live again']);
    aborted.abort();
    expect(await ended).toBe('ended');
    expect(bus.stats?.().subscriptions).toBe(0);
  });

  it('a first connection starts after the newest notification; a deactivation ends it as revoked', async () => {
    const ctx = await agentContext();
    await createNotification(database.db, { userId: ctx.user.id, message: 'old news' });
    const received: Notification[] = [];
    const ended = drain(streamNotifications(ctx, undefined), received);
    await until(async () => (bus.stats?.().subscriptions ?? 0) > 0, 5_000);

    await revokeLiveSessions(database.db, ctx.user.id);
    expect(await ended).toBe('revoked');
    expect(received).toEqual([]);
  });

  it('with a direct delivery, the catch-up is yielded and each live event goes to it once, in order', async () => {
    const yielded: Notification[] = [];
    const { aborted, ctx, direct, stream } = await directStreamAfterOneMissed();
    const ended = drain(stream, yielded);
    await until(async () => yielded.length === 1 && (bus.stats?.().subscriptions ?? 0) > 0, 5_000);

    for (const message of ['one', 'two', 'three']) {
      await notifyUsers(database.db, [ctx.user.id], { message, link: '/home' });
    }
    await until(async () => direct.length === 3, 5_000);
    expect(yielded.map((event) => event.message)).toEqual(['missed']);
    expect(direct.map((event) => event.message)).toEqual(['one', 'two', 'three']);
    expect(new Set(direct.map((event) => event._id)).size).toBe(3);

    aborted.abort();
    expect(await ended).toBe('ended');
    await notifyUsers(database.db, [ctx.user.id], { message: 'after the end', link: '/home' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(direct).toHaveLength(3);
    expect(bus.stats?.().subscriptions).toBe(0);
  });

  it('with a direct delivery, what comes while the generator is busy is yielded, and so is a resync', async () => {
    const { aborted, ctx, direct, stream } = await directStreamAfterOneMissed();

    // Suspended at the yield of the catch-up: the caller has not taken the next event yet.
    expect((await stream.next()).value).toMatchObject({ message: 'missed' });
    // A second listener of the same user, subscribed after the stream's: the bus calls listeners
    // in the order they came, so once this one has heard an event, the stream's has too. (A
    // fixed 300 ms wait was not always enough on a loaded CI machine: the event then came when
    // the generator was waiting again, went direct, and the next() below waited forever.)
    const heard: string[] = [];
    const unsubscribe = bus.subscribe(ctx.user.id, false, (event) => {
      if (event.kind === 'notification') heard.push(event.notification.message);
    });
    await notifyUsers(database.db, [ctx.user.id], { message: 'queued', link: '/home' });
    await until(async () => heard.includes('queued'), 5_000);
    unsubscribe();
    expect(direct).toEqual([]);
    expect((await stream.next()).value).toMatchObject({ message: 'queued' });

    // Waiting now, nothing queued: a new event goes direct.
    const waiting = stream.next();
    await notifyUsers(database.db, [ctx.user.id], { message: 'direct', link: '/home' });
    await until(async () => direct.length === 1, 5_000);

    // The bus's listener drops (a database restart): on reconnecting it sends a resync, and the
    // generator reads what it missed from the table, which no live event announced.
    await createNotification(database.db, { userId: ctx.user.id, message: 'unannounced' });
    await withAdminClient(database.url, (client) =>
      client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = 'portal-notification-bus' AND datname = current_database()`,
      ),
    );
    expect((await waiting).value).toMatchObject({ message: 'unannounced' });
    expect(direct.map((event) => event.message)).toEqual(['direct']);

    // And a revocation, which always goes through the generator, still ends it.
    const last = stream.next();
    await until(async () => bus.stats?.().listening === true, 5_000);
    await revokeLiveSessions(database.db, ctx.user.id);
    expect(await last).toEqual({ done: true, value: 'revoked' });
    aborted.abort();
  });

  it('a caller that went away before the stream began ends it at once, leaving no listener on the bus', async () => {
    const gone = new AbortController();
    gone.abort();
    const ctx = await agentContext(gone.signal);
    const received: Notification[] = [];
    expect(await drain(streamNotifications(ctx, undefined), received)).toBe('ended');
    expect(received).toEqual([]);
    expect(bus.stats?.().subscriptions).toBe(0);
  });
});
