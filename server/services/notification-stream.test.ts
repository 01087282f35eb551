import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../shared/schemas/notifications';
import { createNotificationBus } from '../realtime/bus';
import { createNotification, createUser } from '../test/factories';
import { serviceContext, setupTestDatabase, testDeps } from '../test/harness';
import { until } from '../test/until';
import type { CallerContext } from './context';
import { notifyUsers, revokeLiveSessions, streamNotifications } from './notifications';

/**
 * The live notification stream is a service (issue 16): driven here directly, with a context made
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
