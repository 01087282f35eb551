import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedApiKeyAnswer } from '../../../shared/schemas/api-keys';
import type { CreatedWebhookEndpoint, WebhookEventsPage } from '../../../shared/schemas/webhooks';
import { webhookMessages } from '../../../shared/webhook-messages';
import type { AppDeps } from '../../deps';
import { createAdmin, createUser } from '../../test/factories';
import {
  buildTestApp,
  ShiftedClock,
  serviceContext,
  setupTestDatabase,
  testConfig,
  testDeps,
} from '../../test/harness';
import { restCalls } from '../../test/rest-calls';
import { type Receiver, startReceiver } from '../../test/webhook-receiver';
import { deliverWebhook } from './deliver';
import { emitWebhook } from './events';

/**
 * GET /api/admin/events: what the webhooks sent, oldest first, by keyset pages; each item the
 * very event a real receiver got (its webhook-id, and its body's type, timestamp and data).
 */

const database = setupTestDatabase();
const clock = new ShiftedClock();
const DAY = 86_400_000;
let deps: AppDeps;
let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof createAdmin>>;
let agent: Awaited<ReturnType<typeof createUser>>;
let to: Receiver;

beforeAll(async () => {
  deps = testDeps(database.db, { clock, config: testConfig({ webhookAllowPrivate: true }) });
  app = buildTestApp(deps);
  admin = await createAdmin(database.db);
  agent = await createUser(database.db);
  to = await startReceiver();
  const endpoint = await ok<CreatedWebhookEndpoint>(201, 'POST', '/api/admin/webhooks', admin, {
    url: to.url,
    events: ['user.registered', 'user.activated'],
  });
  to.secret = endpoint.secret;
});
beforeEach(async () => {
  await database.db.$executeRaw`DELETE FROM webhook_events`;
  to.received.length = 0;
  clock.offset = 0;
});
afterAll(async () => {
  await to?.close();
  await app?.close();
});

const { call, ok, refused } = restCalls(() => app, clock);
const list = (query: string) => ok<WebhookEventsPage>(200, 'GET', `/api/admin/events${query}`, admin);

/** An event recorded `ago` before now, in its own transaction, as a change would record it. */
async function emit(type: 'user.registered' | 'user.activated', data: object, ago = 0) {
  clock.offset = -ago;
  try {
    await database.db.$transaction((tx) => emitWebhook(tx, deps, { type, data }));
  } finally {
    clock.offset = 0;
  }
}

/** Sends every pending delivery to the receiver, on the real clock. */
async function deliverAll() {
  const pending = await database.db.webhookDelivery.findMany({
    where: { status: 'pending' },
    orderBy: { seq: 'asc' },
  });
  for (const delivery of pending) await deliverWebhook(serviceContext(deps), { deliveryId: delivery.id });
}

describe('the events list', () => {
  it('lists what the receiver got, oldest first, in three pages of a keyset', async () => {
    for (let i = 0; i < 5; i++)
      await emit(
        i % 2 ? 'user.activated' : 'user.registered',
        { _id: `user-${i}`, n: i, nested: { ok: [i] } },
        (5 - i) * 60_000,
      );
    await deliverAll();
    expect(to.received.map((got) => got.verified)).toEqual([true, true, true, true, true]);

    const first = await list('?limit=2');
    const second = await list(`?limit=2&after=${first.next}`);
    const third = await list(`?limit=2&after=${second.next}`);
    expect([first.items.length, second.items.length, third.items.length]).toEqual([2, 2, 1]);
    expect(first.next).toEqual(expect.any(String));
    expect(second.next).toEqual(expect.any(String));
    expect(third.next).toBeNull();

    const listed = [...first.items, ...second.items, ...third.items];
    expect(listed.map((item) => (item.data as { n: number }).n)).toEqual([0, 1, 2, 3, 4]);
    const got = [...to.received].sort((a, b) => a.payload.timestamp.localeCompare(b.payload.timestamp));
    expect(listed).toEqual(
      got.map((sent) => ({
        _id: sent.id,
        type: sent.payload.type,
        timestamp: sent.payload.timestamp,
        data: sent.payload.data,
      })),
    );
    // The default page holds them all.
    expect((await list('')).items).toEqual(listed);
  });

  it('events at the same millisecond are neither repeated nor skipped across pages', async () => {
    clock.offset = 0;
    const at = new Date(Date.now() - 60_000);
    const fixed = { now: () => at };
    const fixedDeps = { ...deps, clock: fixed };
    for (let i = 0; i < 4; i++)
      await database.db.$transaction((tx) =>
        emitWebhook(tx, fixedDeps, { type: 'user.registered', data: { n: i } }),
      );
    const seen: string[] = [];
    let after = '';
    for (let page = 0; page < 4; page++) {
      const answer = await list(`?limit=1${after}`);
      seen.push(...answer.items.map((item) => item._id));
      if (!answer.next) break;
      after = `&after=${answer.next}`;
    }
    expect(new Set(seen).size).toBe(4);
    expect(seen).toHaveLength(4);
  });

  it('filters on one type', async () => {
    for (let i = 0; i < 4; i++)
      await emit(i % 2 ? 'user.activated' : 'user.registered', { n: i }, (4 - i) * 1000);
    const activated = await list('?type=user.activated');
    expect(activated.items.map((item) => [item.type, (item.data as { n: number }).n])).toEqual([
      ['user.activated', 1],
      ['user.activated', 3],
    ]);
    const paged = await list('?type=user.registered&limit=1');
    expect(paged.items.map((item) => (item.data as { n: number }).n)).toEqual([0]);
    const rest = await list(`?type=user.registered&limit=1&after=${paged.next}`);
    expect(rest.items.map((item) => (item.data as { n: number }).n)).toEqual([2]);
    expect(rest.next).toBeNull();
    expect((await list('?type=cda.paid')).items).toEqual([]);
  });

  it('lists only the last 30 days, even of events a pending delivery still keeps', async () => {
    await emit('user.registered', { n: 'old' }, 31 * DAY);
    await emit('user.registered', { n: 'recent' }, 29 * DAY);
    const answer = await list('');
    expect(answer.items.map((item) => (item.data as { n: string }).n)).toEqual(['recent']);
    expect(await database.db.webhookEvent.count()).toBe(2);
  });

  it('400 for a cursor, limit or type it does not know; 403 for an agent; a key needs webhooks:manage', async () => {
    for (const [query, message] of [
      ['?after=nope', webhookMessages.eventsCursorInvalid],
      ['?after=12-34', webhookMessages.eventsCursorInvalid],
      ['?limit=0', webhookMessages.eventsLimitInvalid],
      ['?limit=201', webhookMessages.eventsLimitInvalid],
      ['?limit=1.5', webhookMessages.eventsLimitInvalid],
      ['?limit=many', webhookMessages.eventsLimitInvalid],
      ['?type=user.exploded', webhookMessages.eventInvalid],
    ] as const) {
      await refused(400, message, 'GET', `/api/admin/events${query}`, admin);
    }
    expect((await list('?limit=200')).items).toEqual([]);
    expect((await call('GET', '/api/admin/events', agent)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/events')).statusCode).toBe(401);
    const viaKey = async (scopes: string[]) => {
      const { key } = await ok<CreatedApiKeyAnswer>(201, 'POST', '/api/admin/api-keys', admin, {
        name: `Events ${scopes.join(' ')}`,
        scopes,
      });
      return app.inject({
        method: 'GET',
        url: '/api/admin/events',
        headers: { authorization: `Bearer ${key}` },
      });
    };
    expect((await viaKey(['transactions:read'])).statusCode).toBe(403);
    const allowed = await viaKey(['webhooks:manage']);
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
});
