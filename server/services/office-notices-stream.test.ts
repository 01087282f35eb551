import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../shared/schemas/notifications';
import type { AppDeps } from '../deps';
import { type BusEvent, createNotificationBus } from '../realtime/bus';
import { withAdminClient } from '../test/databases';
import { serviceContext, setupTestDatabase, testDeps } from '../test/harness';
import { adminOf, callerOf, moveTo, twoOffices } from '../test/office-notices';
import { until } from '../test/until';
import { notifyActiveAdmins, streamNotifications } from './notifications';
import { notifyOtherSide } from './transactions/notify';

/**
 * The admins' live streams, by office, over a real LISTEN/NOTIFY bus: an office admin's stream
 * hears only its office's notices, live and in its catch-up, and follows its office when it
 * moves, without reconnecting; a brokerage-wide admin's hears them all. The review queue, the
 * dashboard and the lists refresh on these events, so no other office's transaction reaches an
 * office admin's socket.
 */

const database = setupTestDatabase();
let bus: ReturnType<typeof createNotificationBus>;
let deps: AppDeps;
let offices: Awaited<ReturnType<typeof twoOffices>>;

beforeAll(async () => {
  bus = createNotificationBus(database.url, pino({ level: 'silent' }), { minDelayMs: 50, maxDelayMs: 500 });
  await bus.ready;
  deps = testDeps(database.db, { bus });
  offices = await twoOffices(database.db, 'stream');
});
afterAll(() => bus.close());

type Deal = { agent: { id: string }; transaction: { id: string } };

async function agentActs(deal: Deal, message: string) {
  const agent = await callerOf(database.db, deal.agent.id);
  await database.db.$transaction((tx) =>
    notifyOtherSide(
      tx,
      { deps, user: agent },
      { id: deal.transaction.id, userId: agent.id },
      message,
      'comment',
    ),
  );
}

const registration = (message: string) =>
  database.db.$transaction((tx) =>
    notifyActiveAdmins(tx, { message, link: '/users', event: 'registration' }, deps),
  );

/** `userId`'s stream as its session opens it now, read into `heard` until `stop`. */
async function listen(userId: string, lastEventId?: string) {
  const aborted = new AbortController();
  const ctx = { ...serviceContext(deps, await callerOf(database.db, userId)), signal: aborted.signal };
  const heard: Notification[] = [];
  const before = bus.stats?.().subscriptions ?? 0;
  const stream = streamNotifications(ctx, { lastEventId });
  const done = (async () => {
    for (;;) {
      const next = await stream.next();
      if (next.done) return;
      heard.push(next.value);
    }
  })();
  await until(() => (bus.stats?.().subscriptions ?? 0) > before, 5_000);
  return {
    messages: () => heard.map((event) => event.message),
    stop: async () => {
      aborted.abort();
      await done;
    },
  };
}

describe("an admin's live stream, by office", () => {
  it("hears its office's notices only; moved, the new office's at once; a brokerage-wide admin hears all", async () => {
    const { north, south, northDeal, southDeal } = offices;
    const officeAdmin = await adminOf(database.db, north.id);
    const wideAdmin = await adminOf(database.db, null);
    const office = await listen(officeAdmin.id);
    const wide = await listen(wideAdmin.id);
    try {
      await agentActs(southDeal, 'Live: South comment');
      await registration('Live: a registration');
      await agentActs(northDeal, 'Live: North comment');
      // Events arrive in commit order: once North's is heard, South's would have been too.
      await until(() => office.messages().length === 1 && wide.messages().length === 3, 5_000);
      expect(office.messages()).toEqual(['Live: North comment']);
      expect(wide.messages()).toEqual(['Live: South comment', 'Live: a registration', 'Live: North comment']);

      // The move commits before the next notices, and the bus learns of it on the way.
      await moveTo(database.db, officeAdmin.id, south.id);
      await agentActs(northDeal, 'Live: North after the move');
      await agentActs(southDeal, 'Live: South after the move');
      await until(() => office.messages().length === 2 && wide.messages().length === 5, 5_000);
      expect(office.messages()).toEqual(['Live: North comment', 'Live: South after the move']);
    } finally {
      await office.stop();
      await wide.stop();
    }
  });

  it("catches up on the current office's notices missed after its last event", async () => {
    const { north, south, northDeal, southDeal } = offices;
    const admin = await adminOf(database.db, north.id);
    await agentActs(northDeal, 'Catch-up: seen');
    const seen = await database.db.adminNotice.findFirstOrThrow({ where: { message: 'Catch-up: seen' } });
    await agentActs(southDeal, 'Catch-up: South missed');
    await agentActs(northDeal, 'Catch-up: North missed');
    await registration('Catch-up: a registration');

    const first = await listen(admin.id, seen.id);
    await until(() => first.messages().length === 1, 5_000);
    await first.stop();
    expect(first.messages()).toEqual(['Catch-up: North missed']);

    await moveTo(database.db, admin.id, south.id);
    const again = await listen(admin.id, seen.id);
    await until(() => again.messages().length === 1, 5_000);
    await again.stop();
    expect(again.messages()).toEqual(['Catch-up: South missed']);
  });

  it("a bus that lost its connection reads its admins' offices again before it resumes", async () => {
    const { north, south, northDeal, southDeal } = offices;
    const admin = await adminOf(database.db, south.id);
    const own = createNotificationBus(database.url, pino({ level: 'silent' }), {
      minDelayMs: 50,
      maxDelayMs: 500,
    });
    const events: BusEvent[] = [];
    try {
      await own.ready;
      // As if the move to South had been told while no connection listened: the bus still
      // holds the office the session had.
      const unsubscribe = own.subscribe(admin.id, { officeId: north.id }, (event) => events.push(event));
      await withAdminClient(database.url, (client) =>
        client.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'portal-notification-bus' AND datname = current_database()`,
        ),
      );
      await until(() => events.some((event) => event.kind === 'resync'), 5_000);
      await agentActs(northDeal, 'Reconnected: North comment');
      await agentActs(southDeal, 'Reconnected: South comment');
      await until(() => events.length === 2, 5_000);
      expect(
        events.map((event) => (event.kind === 'notification' ? event.notification.message : event.kind)),
      ).toEqual(['resync', 'Reconnected: South comment']);
      unsubscribe();
    } finally {
      await own.close();
    }
  });
});
