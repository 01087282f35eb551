import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import { pino } from 'pino';
import { afterAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { Notification } from '../../shared/schemas/notifications';
import { createDb } from '../db/client';
import { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from '../db/embedded';
import { migrate } from '../db/migrate';
import { notifyUsers } from '../services/notifications';
import { accessTokenFor, createUser } from '../test/factories';
import { buildTestApp, TestClock, testDeps } from '../test/harness';
import { until } from '../test/until';
import type { AppRouter } from '../trpc/router';
import { createNotificationBus } from './bus';

/**
 * A real restart of PostgreSQL under a running app: its own embedded cluster on a
 * fixed port, stopped and started again. The listener reconnects by itself and live delivery
 * works afterwards, on the same open WebSocket. (live.test.ts covers catching up on events raised
 * while the listener was away.)
 */

let dataDir: string | undefined;
let database: EmbeddedDatabase | undefined;
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await database?.stop().catch(() => {});
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('after PostgreSQL restarts, the listener reconnects and delivery works again', {
  timeout: 90_000,
}, async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-restart-'));
  const port = await freePort();
  database = await startEmbeddedPostgres({ dataDir, ephemeral: true, port });
  await migrate(database.url, { log: pino({ level: 'silent' }) });
  const db = createDb(database.url, { poolSize: 2 });
  cleanups.push(() => db.$disconnect());

  const bus = createNotificationBus(database.url, pino({ level: 'silent' }), {
    minDelayMs: 100,
    maxDelayMs: 500,
  });
  cleanups.push(() => bus.close());
  await bus.ready;
  const clock = new TestClock(new Date());
  const app = buildTestApp(testDeps(db, { bus, clock }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  cleanups.push(() => app.close());
  const { port: appPort } = app.server.address() as AddressInfo;

  const agent = await createUser(db);
  const token = await accessTokenFor(agent, { now: clock.now() });
  const events: Notification[] = [];
  const errors: unknown[] = [];
  const wsClient = createWSClient({
    url: `ws://127.0.0.1:${appPort}/trpc`,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    connectionParams: () => ({ token }),
    retryDelayMs: () => 100,
  });
  cleanups.push(async () => wsClient.close());
  const client = createTRPCClient<AppRouter>({ links: [wsLink({ client: wsClient })] });
  let started!: () => void;
  const ready = new Promise<void>((resolve) => {
    started = resolve;
  });
  const subscription = client.notifications.onNotification.subscribe(undefined, {
    onStarted: () => started(),
    onData: (event) => events.push(event.data),
    onError: (error) => errors.push(error),
  });
  cleanups.push(async () => subscription.unsubscribe());
  await ready;

  const raise = (message: string) =>
    db.$transaction((tx) => notifyUsers(tx, [agent.id], { message, link: '/home' }));
  await raise('before the restart');
  await until(() => events.length === 1, 3_000);

  await database.stop();
  database = await startEmbeddedPostgres({ dataDir, ephemeral: true, port });

  // The app's pool drops its dead connections on first use; the change may need a second try.
  await until(async () => {
    try {
      await raise('after the restart');
      return true;
    } catch {
      return false;
    }
  }, 10_000);
  await until(() => events.some((e) => e.message === 'after the restart'), 10_000);
  expect(events.map((e) => e.message)).toEqual(['before the restart', 'after the restart']);
  expect(errors).toEqual([]);
});
