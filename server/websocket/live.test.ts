import type { AddressInfo } from 'node:net';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Notification } from '../../shared/schemas/notifications';
import type { Transaction } from '../../shared/schemas/transactions';
import { createNotificationBus } from '../realtime/bus';
import { runSql } from '../test/databases';
import { accessTokenFor, createAdmin, createTemplate, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { until } from '../test/until';
import type { AppRouter } from '../trpc/router';

/**
 * Live notifications across instances: two apps on one database,
 * each with its own LISTEN connection, real WebSockets from a tRPC client.
 */

const database = setupTestDatabase();
const quiet = pino({ level: 'silent' });
const clock = new TestClock(new Date());
type Instance = { app: FastifyInstance; url: string; bus: ReturnType<typeof createNotificationBus> };
let a: Instance;
let b: Instance;
const TYPE = `Live-${Date.now()}`;

async function instance(): Promise<Instance> {
  const bus = createNotificationBus(database.url, quiet, { minDelayMs: 50, maxDelayMs: 500 });
  await bus.ready;
  const app = buildTestApp(testDeps(database.db, { clock, bus }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}`, bus };
}

beforeAll(async () => {
  await createTemplate(database.db, { type: TYPE, role: 'Seller', documents: ['Listing Agreement'] });
  a = await instance();
  b = await instance();
});
afterAll(async () => {
  for (const i of [a, b]) {
    await i?.app.close();
    await i?.bus.close();
  }
});

type Actor = { id: string; token: string };
async function actor(user: { id: string; role: 'user' | 'admin'; tokenVersion: number }): Promise<Actor> {
  return { id: user.id, token: await accessTokenFor(user, { now: clock.now() }) };
}

/** A real tRPC WebSocket client of one instance, collecting the events it receives. */
function listen(on: Instance, who: Actor, retryMs = 100) {
  const events: Notification[] = [];
  const errors: unknown[] = [];
  const wsClient = createWSClient({
    url: `${on.url.replace('http', 'ws')}/trpc`,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    connectionParams: () => ({ token: who.token }),
    retryDelayMs: () => retryMs,
  });
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
  return {
    events,
    errors,
    ready,
    close: () => {
      subscription.unsubscribe();
      wsClient.close();
    },
  };
}

async function call(on: Instance, method: 'POST' | 'GET', url: string, who: Actor, payload?: unknown) {
  const res = await fetch(on.url + url, {
    method,
    headers: {
      authorization: `Bearer ${who.token}`,
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

async function openDeal(on: Instance, agent: Actor): Promise<Transaction> {
  const res = await call(on, 'POST', '/api/transactions', agent, {
    type: TYPE,
    role: 'Seller',
    streetAddress: '48 Lighthouse Point',
    city: 'Portland',
    state: 'ME',
    zip: '04101',
  });
  expect(res.status).toBe(201);
  return res.body as Transaction;
}

function review(on: Instance, admin: Actor, deal: Transaction, text: string) {
  return call(on, 'POST', `/api/admin/transactions/${deal._id}/forms/${deal.forms[0]?._id}/comments`, admin, {
    text,
  });
}

describe('live notifications', () => {
  it("a review on instance A reaches the agent's socket on instance B within 1 s; another agent's socket gets nothing", async () => {
    const agent = await actor(await createUser(database.db));
    const bystander = await actor(await createUser(database.db));
    const admin = await actor(await createAdmin(database.db));
    const deal = await openDeal(a, agent);

    const agentSocket = listen(b, agent);
    const bystanderSocket = listen(b, bystander);
    await Promise.all([agentSocket.ready, bystanderSocket.ready]);

    const sent = Date.now();
    expect((await review(a, admin, deal, 'Please initial page 3')).status).toBe(201);
    await until(() => agentSocket.events.length === 1, 3_000);
    expect(Date.now() - sent).toBeLessThan(1_000);
    expect(agentSocket.events[0]).toMatchObject({
      message: expect.stringContaining('Please initial page 3'),
      link: `/home/transactions/${deal._id}`,
      read: false,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bystanderSocket.events).toEqual([]);
    agentSocket.close();
    bystanderSocket.close();
  });

  it('after a dropped connection the client resumes and receives what it missed, each once', async () => {
    const agent = await actor(await createUser(database.db));
    const admin = await actor(await createAdmin(database.db));
    const deal = await openDeal(a, agent);
    // The client waits 1 s before reconnecting, so the events below surely happen while away.
    const socket = listen(b, agent, 1_000);
    await socket.ready;
    await review(a, admin, deal, 'first');
    await until(() => socket.events.length === 1, 3_000);

    for (const client of b.app.websocketServer.clients) client.terminate();
    const cut = Date.now();
    await review(a, admin, deal, 'second');
    await review(a, admin, deal, 'third');
    expect(Date.now() - cut).toBeLessThan(1_000);

    await until(() => socket.events.length >= 3, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(socket.events.map((e) => e.message.split(': ').pop())).toEqual(['first', 'second', 'third']);
    expect(new Set(socket.events.map((e) => e._id)).size).toBe(3);
    socket.close();
  });

  it('when the database drops the listening connection (as on a restart), it reconnects and delivery works again', async () => {
    const agent = await actor(await createUser(database.db));
    const admin = await actor(await createAdmin(database.db));
    const deal = await openDeal(a, agent);
    const socket = listen(b, agent);
    await socket.ready;

    const listeners = `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE application_name = 'portal-notification-bus' AND datname = current_database()`;
    expect((await runSql(database.url, listeners))[0]).toEqual({ n: 2 });
    // What a restart does to every client connection: the server ends it (SQLSTATE 57P01).
    await runSql(
      database.url,
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'portal-notification-bus' AND datname = current_database()`,
    );
    // An event while no instance listens is caught up after the reconnect ...
    await review(a, admin, deal, 'during the outage');
    await until(() => socket.events.length === 1, 5_000);
    const reconnected = async () => ((await runSql(database.url, listeners))[0] as { n: number }).n === 2;
    for (let i = 0; i < 100 && !(await reconnected()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await reconnected()).toBe(true);
    // ... and live delivery works again.
    await review(a, admin, deal, 'after the outage');
    await until(() => socket.events.length === 2, 3_000);
    expect(socket.events.map((e) => e.message.split(': ').pop())).toEqual([
      'during the outage',
      'after the outage',
    ]);
    socket.close();
  });

  it("deactivation closes the user's live socket on every instance", async () => {
    const agent = await actor(await createUser(database.db));
    const admin = await actor(await createAdmin(database.db));
    const socket = listen(b, agent);
    await socket.ready;
    const closed = new Promise<number>((resolve) => {
      for (const client of b.app.websocketServer.clients) client.once('close', (code) => resolve(code));
    });
    expect((await call(a, 'GET', `/api/users/deactivated/${agent.id}`, admin)).status).toBe(200);
    expect(await closed).toBe(4001);
    // The client's reconnect is refused: the account is no longer active.
    await until(() => socket.errors.length > 0, 5_000);
    socket.close();
  });
});
