import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../shared/schemas/notifications';
import { Prisma } from '../db/generated/client';
import { createNotificationBus } from '../realtime/bus';
import { notifyUsers } from '../services/notifications';
import { bearer, multipartBody, subscribeOverWebSocket, TINY_PDF, trpcRequest } from './api-calls';
import {
  accessTokenFor,
  createAdmin,
  createBanner,
  createComment,
  createNotification,
  createTemplate,
  createTransaction,
  createUser,
} from './factories';
import { buildTestApp, setupTestDatabase, TEST_DATA_DIR, TestClock, testDeps } from './harness';
import { feedEntries } from './notification-feed';
import { until } from './until';

/**
 * Object-level authorization as properties. fast-check generates worlds of 2 to 5
 * agents with transactions at overlapping addresses, comments, banners and notifications, and picks
 * a caller among them. Whatever the world, every answer the caller gets holds only the caller's
 * data, and every id of another agent's object is refused (404; 403 where the path names another
 * user). "The caller's" is decided by the database rows, never by the answer itself. Worlds
 * accumulate across runs in one database, which only makes the neighbourhood more crowded.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let app: FastifyInstance;
let bus: ReturnType<typeof createNotificationBus>;
let webSocketUrl: string;
let admin: Person;
const TYPE = `Property-${Date.now()}`;
const DOCUMENTS = ['Listing Agreement', 'Seller Disclosure'];

/** Enough runs to meet empty agents, crowded ones, shared words and multi-page lists. */
const WORLD_RUNS = 50;
/** Each live run opens a socket per agent: fewer runs, each with many events. */
const LIVE_RUNS = 30;
const stats = { worlds: 0, liveWorlds: 0, calls: 0, liveEvents: 0 };

type Person = { id: string; token: string };

beforeAll(async () => {
  bus = createNotificationBus(database.url, pino({ level: 'silent' }), { minDelayMs: 50, maxDelayMs: 500 });
  await bus.ready;
  app = buildTestApp(testDeps(database.db, { clock, bus }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  webSocketUrl = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/trpc`;
  await createTemplate(database.db, { type: TYPE, role: 'Seller', documents: DOCUMENTS });
  admin = await person(await createAdmin(database.db));
});
afterAll(async () => {
  // Printed for the record of what was covered (noConsole allows warn, not log).
  console.warn(
    `object-level properties: ${stats.worlds} worlds, ${stats.liveWorlds} live worlds, ` +
      `${stats.calls} calls, ${stats.liveEvents} live events`,
  );
  await app?.close();
  await bus?.close();
});

async function person(user: { id: string; role: 'user' | 'admin'; tokenVersion: number }): Promise<Person> {
  return { id: user.id, token: await accessTokenFor(user, { now: clock.now() }) };
}

// --- Calls ---

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function rest(method: Method, url: string, who: Person, payload?: unknown) {
  stats.calls++;
  return app.inject({
    method,
    url,
    headers: bearer(who.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

function trpc(procedure: string, type: 'query' | 'mutation', input: unknown, who: Person) {
  stats.calls++;
  return app.inject(trpcRequest(procedure, type, input, bearer(who.token)));
}

function upload(transactionId: string, who: Person) {
  stats.calls++;
  const body = multipartBody(TINY_PDF);
  return app.inject({
    method: 'POST',
    url: `/api/uploads/transactions/${transactionId}`,
    payload: body.payload,
    headers: { ...body.headers, ...bearer(who.token) },
  });
}

/** Every page of a paged answer, following its own page count. */
async function allPages<T>(page: (n: number) => Promise<{ items: T[]; pages: number }>): Promise<T[]> {
  const first = await page(1);
  const items = [...first.items];
  for (let n = 2; n <= first.pages; n++) items.push(...(await page(n)).items);
  return items;
}

const sorted = (ids: Iterable<string>) => [...ids].sort();

// --- Worlds ---

/** Few words, shared by everyone: searches for one agent's words hit other agents' rows too. */
const STREETS = ['Harbor', 'Maple', 'Lighthouse', 'Birch', 'Main', 'Oak Hill', 'Cedar', 'Portland'];
const SUFFIXES = ['Street', 'Lane', 'Avenue', 'Road', 'Way'];
const PLACES = [
  { city: 'Portland', state: 'ME', zip: '04101' },
  { city: 'Portland', state: 'OR', zip: '97201' },
  { city: 'Springfield', state: 'IL', zip: '62701' },
  { city: 'Salem', state: 'MA', zip: '01970' },
  { city: 'Bangor', state: 'ME', zip: '04401' },
];
const COMMENTS = ['Please sign page 2', 'Uploaded the signed copy', 'Missing initials', 'Looks complete'];

const addressArb = fc
  .record({
    number: fc.integer({ min: 1, max: 999 }),
    street: fc.constantFrom(...STREETS),
    suffix: fc.constantFrom(...SUFFIXES),
    place: fc.constantFrom(...PLACES),
  })
  .map(({ number, street, suffix, place }) => ({ streetAddress: `${number} ${street} ${suffix}`, ...place }));
type Address = { streetAddress: string; city: string; state: string; zip: string };

/** A comment on one of the deal's forms, by its agent or by an admin. */
const commentArb = fc.record({ byAdmin: fc.boolean(), form: fc.nat(), text: fc.constantFrom(...COMMENTS) });
const dealArb = fc.record({
  address: addressArb,
  // Now and then a deleted deal: gone for its agent too.
  deleted: fc.constantFrom(false, false, false, false, true),
  comments: fc.array(commentArb, { maxLength: 3 }),
});
const agentArb = fc.record({
  deals: fc.array(dealArb, { maxLength: 6 }),
  banners: fc.nat({ max: 3 }),
  notifications: fc.array(fc.boolean(), { maxLength: 4 }), // read or not
});
/** How a search term is drawn from a word of some agent's address. */
const termShapeArb = fc.constantFrom('word', 'lower', 'upper', 'prefix', 'padded');
const worldArb = fc.record({
  agents: fc.array(agentArb, { minLength: 2, maxLength: 5 }),
  caller: fc.nat(),
  pageSize: fc.integer({ min: 1, max: 4 }),
  terms: fc.array(fc.record({ word: fc.nat(), shape: termShapeArb }), { minLength: 1, maxLength: 3 }),
  /** Which other agent's deal and banner get the write attempts. */
  victim: fc.nat(),
});
type WorldPlan = typeof worldArb extends fc.Arbitrary<infer T> ? T : never;

type Deal = { id: string; formIds: string[]; deleted: boolean; address: Address };
type Agent = Person & { deals: Deal[]; bannerIds: string[] };

let agentCount = 0;
async function createAgent(plan: WorldPlan['agents'][number]): Promise<Agent> {
  const user = await createUser(database.db, { firstName: `Prop${++agentCount}`, lastName: 'Agent' });
  const deals: Deal[] = [];
  for (const dealPlan of plan.deals) {
    const row = await createTransaction(database.db, {
      userId: user.id,
      ...dealPlan.address,
      type: TYPE,
      role: 'Seller',
      documents: DOCUMENTS,
      deletedAt: dealPlan.deleted ? clock.now() : null,
    });
    const formIds = row.forms.map((form) => form.id);
    for (const comment of dealPlan.comments) {
      await createComment(database.db, {
        formId: formIds[comment.form % formIds.length] ?? '',
        userId: comment.byAdmin ? admin.id : user.id,
        role: comment.byAdmin ? 'admin' : 'user',
        text: comment.text,
      });
    }
    deals.push({ id: row.id, formIds, deleted: dealPlan.deleted, address: dealPlan.address });
  }
  const bannerIds: string[] = [];
  for (let i = 0; i < plan.banners; i++)
    bannerIds.push((await createBanner(database.db, { userId: user.id })).id);
  for (const read of plan.notifications) {
    await createNotification(database.db, { userId: user.id, readAt: read ? clock.now() : null });
  }
  return { ...(await person(user)), deals, bannerIds };
}

function searchTerms(plan: WorldPlan, agents: Agent[]): string[] {
  const words = agents.flatMap((agent) =>
    agent.deals.flatMap(({ address }) => [
      ...address.streetAddress.split(' '),
      address.city,
      address.state,
      address.zip,
    ]),
  );
  const pool = words.length ? words : STREETS;
  return plan.terms.map(({ word, shape }) => {
    const picked = pool[word % pool.length] ?? 'Harbor';
    if (shape === 'lower') return picked.toLowerCase();
    if (shape === 'upper') return picked.toUpperCase();
    if (shape === 'prefix') return picked.slice(0, 3);
    if (shape === 'padded') return `  ${picked}  `;
    return picked;
  });
}

// --- What the database says is the caller's ---

async function liveDealIdsOf(userId: string): Promise<string[]> {
  const rows = await database.db.transaction.findMany({
    where: { userId, deletedAt: null },
    select: { id: true },
  });
  return sorted(rows.map((row) => row.id));
}

async function matchingDealIdsOf(userId: string, term: string): Promise<string[]> {
  const needle = term.trim().toLowerCase();
  const rows = await database.db.transaction.findMany({
    where: { userId, deletedAt: null },
    select: { id: true, streetAddress: true, city: true, state: true, zip: true },
  });
  return sorted(
    rows
      .filter((row) =>
        [row.streetAddress, row.city, row.state, row.zip].some((f) => f.toLowerCase().includes(needle)),
      )
      .map((row) => row.id),
  );
}

/** Every id must be a live transaction of the user, as the database has it. */
async function expectLiveDealsOf(userId: string, ids: string[]) {
  const rows = await database.db.transaction.findMany({
    where: { id: { in: ids } },
    select: { id: true, userId: true, deletedAt: true },
  });
  expect(rows).toHaveLength(new Set(ids).size);
  for (const row of rows)
    expect(row, 'a transaction in the answer').toMatchObject({ userId, deletedAt: null });
}

// --- The properties ---

type Summary = { _id: string };
type Page = { transactions: Summary[]; totalPages: number; totalTransactions: number };
type Detail = {
  _id: string;
  user: { _id: string };
  forms: Array<{ _id: string; comments: Array<{ _id: string }> }>;
};

async function checkListsAndSearches(caller: Agent, pageSize: number, terms: string[]) {
  const listed = await allPages(async (n) => {
    const res = await rest('GET', `/api/transactions/${caller.id}?page=${n}&limit=${pageSize}`, caller);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Page;
    return { items: page.transactions.map((t) => t._id), pages: page.totalPages };
  });
  expect(listed, 'no transaction twice across pages').toHaveLength(new Set(listed).size);
  await expectLiveDealsOf(caller.id, listed);
  expect(sorted(listed)).toEqual(await liveDealIdsOf(caller.id));

  for (const term of terms) {
    const found = await allPages(async (n) => {
      const url = `/api/transactions/search/${caller.id}/${encodeURIComponent(term)}?page=${n}&limit=${pageSize}`;
      const res = await rest('GET', url, caller);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as Page;
      return { items: page.transactions.map((t) => t._id), pages: page.totalPages };
    });
    await expectLiveDealsOf(caller.id, found);
    expect(sorted(found), `search "${term}"`).toEqual(await matchingDealIdsOf(caller.id, term));
  }
}

async function checkOwnDeals(caller: Agent, pick: number) {
  for (const deal of caller.deals) {
    const res = await rest('GET', `/api/transactions/individual/${deal.id}/${caller.id}`, caller);
    if (deal.deleted) {
      expect(res.statusCode).toBe(404);
      continue;
    }
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json() as Detail;
    expect(detail._id).toBe(deal.id);
    expect(detail.user._id).toBe(caller.id);
    const formIds = detail.forms.map((form) => form._id);
    const forms = await database.db.transactionForm.findMany({
      where: { transactionId: deal.id },
      select: { id: true },
    });
    expect(sorted(formIds)).toEqual(sorted(forms.map((form) => form.id)));
    const commentIds = detail.forms.flatMap((form) => form.comments.map((comment) => comment._id));
    const comments = await database.db.comment.findMany({
      where: { form: { transactionId: deal.id } },
      select: { id: true },
    });
    expect(sorted(commentIds)).toEqual(sorted(comments.map((comment) => comment.id)));
  }

  // One of the caller's own live deals takes an upload, a file and a comment: all theirs.
  const live = caller.deals.filter((deal) => !deal.deleted);
  const deal = live[pick % Math.max(live.length, 1)];
  if (!deal) return;
  const uploaded = await upload(deal.id, caller);
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const { key, url } = uploaded.json() as { key: string; url: string };
  expect(key.startsWith(`transactions/${deal.id}/`)).toBe(true);
  const formId = deal.formIds[pick % deal.formIds.length];
  const attached = await rest('PUT', `/api/transactions/${deal.id}/forms/${formId}`, caller, { url });
  expect(attached.statusCode, attached.body).toBe(200);
  const comment = await rest('POST', `/api/transactions/${deal.id}/forms/${formId}/comments`, caller, {
    text: 'Signed copy attached',
  });
  expect(comment.statusCode, comment.body).toBe(201);
  expect(comment.json()).toMatchObject({ role: 'user', user: { _id: caller.id } });
}

const filesIn = (transactionId: string) =>
  readdir(path.join(TEST_DATA_DIR, 'uploads', 'transactions', transactionId)).catch(() => [] as string[]);

async function checkOtherAgentsDeals(caller: Agent, others: Agent[], victim: number) {
  for (const other of others) {
    for (const deal of other.deals) {
      const formId = deal.formIds[0];
      // Behind the caller's own id the deal is simply not there; naming its agent is refused.
      expect(
        (await rest('GET', `/api/transactions/individual/${deal.id}/${caller.id}`, caller)).statusCode,
      ).toBe(404);
      expect(
        (await rest('GET', `/api/transactions/individual/${deal.id}/${other.id}`, caller)).statusCode,
      ).toBe(403);
      const before = await database.db.comment.count({ where: { form: { transactionId: deal.id } } });
      const comment = await rest('POST', `/api/transactions/${deal.id}/forms/${formId}/comments`, caller, {
        text: 'Not mine to comment on',
      });
      expect(comment.statusCode).toBe(404);
      expect(await database.db.comment.count({ where: { form: { transactionId: deal.id } } })).toBe(before);
      const filesBefore = await filesIn(deal.id);
      expect((await upload(deal.id, caller)).statusCode).toBe(404);
      expect(await filesIn(deal.id)).toEqual(filesBefore);
    }
  }

  // Writes to one of another agent's deals: refused, and the row does not move.
  const targets = others.flatMap((other) => other.deals.map((deal) => ({ other, deal })));
  const target = targets[victim % Math.max(targets.length, 1)];
  if (!target) return;
  const { other, deal } = target;
  const before = await database.db.transaction.findUniqueOrThrow({
    where: { id: deal.id },
    include: { forms: true },
  });
  const address = { streetAddress: '1 Hijack Road', city: 'Nowhere', state: 'XX', zip: '00000' };
  expect((await rest('PUT', `/api/transactions/${deal.id}/${caller.id}`, caller, address)).statusCode).toBe(
    404,
  );
  expect((await rest('PUT', `/api/transactions/${deal.id}/${other.id}`, caller, address)).statusCode).toBe(
    403,
  );
  const setFile = await rest('PUT', `/api/transactions/${deal.id}/forms/${deal.formIds[0]}`, caller, {
    url: `transactions/${deal.id}/00000000-0000-4000-8000-000000000000-x.pdf`,
  });
  expect(setFile.statusCode).toBe(404);
  const viaTrpc = await trpc('transactions.get', 'query', { id: deal.id, userId: caller.id }, caller);
  expect(viaTrpc.statusCode).toBe(404);
  expect(
    await database.db.transaction.findUniqueOrThrow({ where: { id: deal.id }, include: { forms: true } }),
  ).toEqual(before);
}

async function checkBanners(caller: Agent, others: Agent[], victim: number) {
  const res = await trpc('banners.list', 'query', undefined, caller);
  expect(res.statusCode, res.body).toBe(200);
  const listed = (res.json() as { result: { data: Array<{ _id: string }> } }).result.data.map((b) => b._id);
  const rows = await database.db.banner.findMany({ where: { id: { in: listed } }, select: { userId: true } });
  expect(rows).toHaveLength(listed.length);
  for (const row of rows) expect(row.userId).toBe(caller.id);
  const own = await database.db.banner.findMany({ where: { userId: caller.id }, select: { id: true } });
  expect(sorted(listed)).toEqual(sorted(own.map((b) => b.id)));

  const othersBanners = others.flatMap((other) => other.bannerIds);
  for (const id of othersBanners) {
    expect((await trpc('banners.get', 'query', { id }, caller)).statusCode).toBe(404);
  }
  const id = othersBanners[victim % Math.max(othersBanners.length, 1)];
  if (!id) return;
  const before = await database.db.banner.findUniqueOrThrow({ where: { id } });
  const save = await trpc('banners.save', 'mutation', { id, name: 'Hijacked', elements: [] }, caller);
  expect(save.statusCode).toBe(404);
  expect((await trpc('banners.delete', 'mutation', { id }, caller)).statusCode).toBe(404);
  expect(await database.db.banner.findUniqueOrThrow({ where: { id } })).toEqual(before);
}

async function checkNotificationsAndProfiles(caller: Agent, others: Agent[], pageSize: number) {
  const listed = await allPages(async (n) => {
    const res = await rest('GET', `/api/notifications/${caller.id}?page=${n}&limit=${pageSize}`, caller);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as { notifications: Array<{ _id: string }>; totalPages: number };
    return { items: page.notifications.map((item) => item._id), pages: page.totalPages };
  });
  const own = await feedEntries(database.db, Prisma.sql`user_id = ${caller.id}::uuid`);
  expect(sorted(listed)).toEqual(sorted(own.map((row) => row.id)));

  const unreadOf = async (userId: string) =>
    (await feedEntries(database.db, Prisma.sql`user_id = ${userId}::uuid AND read_at IS NULL`)).length;
  for (const other of others) {
    const unreadBefore = await unreadOf(other.id);
    expect((await rest('GET', `/api/notifications/${other.id}`, caller)).statusCode).toBe(403);
    expect((await rest('POST', `/api/notifications/${other.id}/read`, caller)).statusCode).toBe(403);
    expect((await trpc('notifications.list', 'query', { userId: other.id }, caller)).statusCode).toBe(403);
    expect(await unreadOf(other.id)).toBe(unreadBefore);
    expect((await rest('GET', `/api/settings/getUser/${other.id}`, caller)).statusCode).toBe(403);
    expect((await rest('GET', `/api/transactions/${other.id}`, caller)).statusCode).toBe(403);
    expect((await rest('GET', `/api/transactions/search/${other.id}/a`, caller)).statusCode).toBe(403);
  }
}

describe('object-level authorization over random worlds', () => {
  it("every answer holds only the caller's objects; other agents' ids are refused", async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (plan) => {
        stats.worlds++;
        const agents: Agent[] = [];
        for (const agentPlan of plan.agents) agents.push(await createAgent(agentPlan));
        const caller = agents[plan.caller % agents.length] as Agent;
        const others = agents.filter((agent) => agent !== caller);

        // Reads first, so the caller's own writes below cannot blur what the lists should hold.
        await checkListsAndSearches(caller, plan.pageSize, searchTerms(plan, agents));
        await checkNotificationsAndProfiles(caller, others, plan.pageSize);
        await checkBanners(caller, others, plan.victim);
        await checkOtherAgentsDeals(caller, others, plan.victim);
        await checkOwnDeals(caller, plan.victim);
      }),
      { numRuns: WORLD_RUNS },
    );
  }, 120_000);

  it("a live subscription delivers the caller's own events, every one, and nobody else's", async () => {
    /** Who gets an event, and how it is raised: directly, by an admin's comment, or by the agent's own. */
    const eventArb = fc.record({
      agent: fc.nat(),
      how: fc.constantFrom('notify', 'adminComment', 'ownComment'),
    });
    const liveWorldArb = fc.record({
      agents: fc.integer({ min: 2, max: 5 }),
      events: fc.array(eventArb, { minLength: 1, maxLength: 12 }),
    });
    await fc.assert(
      fc.asyncProperty(liveWorldArb, async (plan) => {
        stats.liveWorlds++;
        const agents: Array<Agent & { deal: { id: string; formId: string } }> = [];
        for (let i = 0; i < plan.agents; i++) {
          const agent = await createAgent({ deals: [], banners: 0, notifications: [] });
          const deal = await createTransaction(database.db, {
            userId: agent.id,
            type: TYPE,
            role: 'Seller',
            documents: DOCUMENTS,
          });
          agents.push({ ...agent, deal: { id: deal.id, formId: deal.forms[0]?.id ?? '' } });
        }
        const sockets = agents.map((agent) =>
          subscribeOverWebSocket<Notification>(
            webSocketUrl,
            'notifications.onNotification',
            undefined,
            agent.token,
          ),
        );
        try {
          await Promise.all(sockets.map((socket) => socket.started));
          for (const event of plan.events) {
            const agent = agents[event.agent % agents.length] as (typeof agents)[number];
            const { id, formId } = agent.deal;
            if (event.how === 'notify') {
              await database.db.$transaction((tx) =>
                notifyUsers(tx, [agent.id], { message: 'Direct event', link: '/notifications' }),
              );
            } else {
              // An admin's comment reaches the agent; the agent's own reaches admins only.
              const who = event.how === 'adminComment' ? admin : agent;
              const url = `/api/${who === admin ? 'admin/' : ''}transactions/${id}/forms/${formId}/comments`;
              expect((await rest('POST', url, who, { text: 'Live event' })).statusCode).toBe(201);
            }
          }
          // A last event for everyone, committed after all the others: once it has arrived, any
          // event that leaked to the wrong socket would have arrived before it (commit order).
          const sentinels = new Map<string, string>();
          for (const agent of agents) {
            await database.db.$transaction((tx) =>
              notifyUsers(tx, [agent.id], { message: 'Sentinel', link: '/notifications' }),
            );
            const newest = await database.db.notification.findFirstOrThrow({
              where: { userId: agent.id },
              orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
            });
            sentinels.set(agent.id, newest.id);
          }
          await Promise.all(
            agents.map((agent, i) =>
              until(
                () => (sockets[i]?.events ?? []).some((event) => event._id === sentinels.get(agent.id)),
                10_000,
              ),
            ),
          );
          for (const [i, agent] of agents.entries()) {
            const received = (sockets[i]?.events ?? []).map((event) => event._id);
            stats.liveEvents += received.length;
            const rows = await database.db.notification.findMany({
              where: { userId: agent.id },
              select: { id: true },
            });
            expect(received, 'no event twice').toHaveLength(new Set(received).size);
            expect(sorted(received)).toEqual(sorted(rows.map((row) => row.id)));
          }
        } finally {
          for (const socket of sockets) socket.close();
        }
      }),
      { numRuns: LIVE_RUNS },
    );
  }, 120_000);
});
