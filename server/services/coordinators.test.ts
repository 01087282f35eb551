import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiMessages } from '../../shared/messages';
import type { CalendarAnswer } from '../../shared/schemas/key-dates';
import type { Transaction, TransactionForm } from '../../shared/schemas/transactions';
import type { AppDeps } from '../deps';
import { createAdmin, createTemplate, createTransaction, createUser } from '../test/factories';
import { buildTestApp, serviceContext, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { feedEntries } from '../test/notification-feed';
import { type Actor, restCalls } from '../test/rest-calls';
import { sweepReminders } from './reminders';

/**
 * What a transaction coordinator is told and sees beyond the files themselves: what its agent is
 * told (decisions, comments, key-date reminders, with their mails), its calendar and feed with its
 * agents' key dates, and no say over its agent's own settings. Its work on the files:
 * transactions/coordinators.test.ts.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-20T12:00:00.000Z'));
let deps: AppDeps;
let app: FastifyInstance;

let alice: Actor; // an agent with a coordinator
let bob: Actor; // an agent nobody coordinates for
let cora: Actor; // coordinates for alice
let carl: Actor; // an admin
const RUN = Date.now().toString(36);
const TYPE = `Coordinated-${RUN}`;

let aliceDeal: Transaction; // opened by cora for alice, its Disclosure attached
let bobDeal: { id: string };

const { call, ok, refused, formOf, attach } = restCalls(() => app, clock);

let streets = 0;
const newDeal = (extra: object = {}) => ({
  type: TYPE,
  role: 'Seller',
  streetAddress: `${++streets} Coordinated Way ${RUN}`,
  city: 'Portland',
  state: 'ME',
  zip: '04101',
  ...extra,
});

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  alice = await createUser(database.db, { firstName: 'Alice', lastName: 'Agent' });
  bob = await createUser(database.db, { firstName: 'Bob', lastName: 'Other' });
  cora = await createUser(database.db, { firstName: 'Cora', lastName: 'Coordinator' });
  carl = await createAdmin(database.db, { firstName: 'Carl', lastName: 'Compliance' });
  await database.db.coordination.create({ data: { coordinatorId: cora.id, agentId: alice.id } });
  await createTemplate(database.db, { type: TYPE, role: 'Seller', documents: ['Disclosure', 'Inspection'] });
  aliceDeal = await ok<Transaction>(201, 'POST', '/api/transactions', cora, newDeal({ agentId: alice.id }));
  await attach(cora, aliceDeal, 'Disclosure');
  await ok(200, 'PUT', `/api/transactions/${aliceDeal._id}/dates`, cora, {
    dates: [{ kind: 'closing', date: '2026-12-18' }],
  });
  bobDeal = await createTransaction(database.db, { userId: bob.id, streetAddress: `9 Elsewhere Rd ${RUN}` });
});
afterAll(() => app?.close());

const mailsOf = async (userId: string, kind: string) =>
  database.db.mailOutbox.count({ where: { userId, kind } });

/** Notifications written since the test began, per user. */
let since = new Set<string>();
const markSeen = async () => {
  since = new Set((await feedEntries(database.db)).map((row) => row.id));
};
beforeEach(markSeen);
async function received(transactionId: string): Promise<Record<string, string[]>> {
  const rows = (await feedEntries(database.db)).filter(
    (row) => !since.has(row.id) && row.transactionId === transactionId,
  );
  const byUser: Record<string, string[]> = {};
  for (const row of rows) byUser[row.userId] = [...(byUser[row.userId] ?? []), row.message];
  return byUser;
}

describe('what the agent is told, its coordinators are told', () => {
  it('a rejection reaches the agent and its coordinator, and the admin’s audit row has no onBehalfOf', async () => {
    const id = aliceDeal._id;
    const disclosure = formOf(aliceDeal, 'Disclosure');
    await ok<TransactionForm>(
      201,
      'POST',
      `/api/admin/transactions/${id}/forms/${disclosure}/comments`,
      carl,
      {
        status: 'rejected',
        text: 'Page 2 is unsigned',
      },
    );
    const told = await received(id);
    const message = `"Disclosure" was rejected (${aliceDeal.streetAddress}, Portland): Page 2 is unsigned`;
    expect(told[alice.id]).toStrictEqual([message]);
    expect(told[cora.id]).toStrictEqual([message]);
    expect(told[bob.id]).toBeUndefined();
    // Decisions are mailed by default: to the coordinator as to the agent.
    for (const who of [alice, cora]) expect(await mailsOf(who.id, 'notification.documentReviewed')).toBe(1);
    const review = await database.db.auditEvent.findFirstOrThrow({
      where: { transactionId: id, action: 'form.review' },
      select: { actorId: true, onBehalfOf: true },
    });
    expect(review).toStrictEqual({ actorId: carl.id, onBehalfOf: null });
  });

  it("an admin's comment reaches both too; the coordinator's own action goes to the admins", async () => {
    const id = aliceDeal._id;
    const disclosure = formOf(aliceDeal, 'Disclosure');
    await ok(201, 'POST', `/api/admin/transactions/${id}/forms/${disclosure}/comments`, carl, {
      text: 'Any news?',
    });
    const told = await received(id);
    expect(Object.keys(told).sort()).toStrictEqual([alice.id, cora.id].sort());
    await markSeen();
    await ok(201, 'POST', `/api/transactions/${id}/forms/${disclosure}/comments`, cora, { text: 'On it' });
    const heard = await received(id);
    expect(heard[carl.id]).toStrictEqual([
      `Cora Coordinator commented on "Disclosure" (${aliceDeal.streetAddress}, Portland): On it`,
    ]);
    expect(heard[alice.id]).toBeUndefined();
  });

  it('a bulk acceptance from the review queue reaches both', async () => {
    const deal = await ok<Transaction>(
      201,
      'POST',
      '/api/transactions',
      cora,
      newDeal({ agentId: alice.id }),
    );
    await attach(cora, deal, 'Inspection');
    await markSeen();
    await ok(200, 'POST', '/api/admin/review', carl, {
      items: [{ transactionId: deal._id, formId: formOf(deal, 'Inspection') }],
    });
    const told = await received(deal._id);
    expect(Object.keys(told).sort()).toStrictEqual([alice.id, cora.id].sort());
    expect(told[cora.id]).toStrictEqual(told[alice.id]);
  });

  it('key-date reminders reach the agent and its coordinator', async () => {
    const deal = await ok<Transaction>(
      201,
      'POST',
      '/api/transactions',
      cora,
      newDeal({ agentId: alice.id }),
    );
    // Three days ahead: the first reminder is due at 08:00 New York time today (13:00 UTC).
    await ok(200, 'PUT', `/api/transactions/${deal._id}/dates`, cora, {
      dates: [{ kind: 'inspection', date: '2026-11-23' }],
    });
    clock.advance(2 * 60 * 60 * 1000);
    await sweepReminders(serviceContext(deps));
    const told = await received(deal._id);
    const message = `Inspection deadline for ${deal.streetAddress} is in 3 days (Nov 23)`;
    expect(told[alice.id]).toStrictEqual([message]);
    expect(told[cora.id]).toStrictEqual([message]);
    expect(told[bob.id]).toBeUndefined();
  });
});

describe("a coordinator's calendar and settings", () => {
  it("shows its agents' key dates with its own; agentId narrows, another agent's is 403", async () => {
    await ok(200, 'PUT', `/api/transactions/${bobDeal.id}/dates`, bob, {
      dates: [{ kind: 'closing', date: '2026-12-18' }],
    });
    const range = 'from=2026-12-01&to=2026-12-31';
    const all = await ok<CalendarAnswer>(200, 'GET', `/api/calendar?${range}`, cora);
    const ids = all.events.map((event) => event.transactionId);
    expect(ids).toContain(aliceDeal._id);
    expect(ids).not.toContain(bobDeal.id);
    const own = await ok<CalendarAnswer>(200, 'GET', `/api/calendar?${range}&agentId=${cora.id}`, cora);
    expect(own.events.map((event) => event.transactionId)).not.toContain(aliceDeal._id);
    const agents = await ok<CalendarAnswer>(200, 'GET', `/api/calendar?${range}&agentId=${alice.id}`, cora);
    expect(agents.events.map((event) => event.transactionId)).toContain(aliceDeal._id);
    await refused(403, apiMessages.forbidden, 'GET', `/api/calendar?${range}&agentId=${bob.id}`, cora);
    // The agent's calendar is its own: its coordinator's files are not in it.
    const alices = await ok<CalendarAnswer>(200, 'GET', `/api/calendar?${range}`, alice);
    expect(alices.events.every((event) => event.transactionId !== bobDeal.id)).toBe(true);
  });

  it("its iCalendar feed holds its agents' key dates too", async () => {
    const { url } = await ok<{ url: string }>(200, 'POST', '/api/calendar/feed', cora);
    const feed = await call('GET', new URL(url).pathname);
    expect(feed.statusCode).toBe(200);
    const text = feed.body.replace(/\r\n[ \t]/g, ''); // RFC 5545 folds long lines
    expect(text).toContain(`/home/transactions/${aliceDeal._id}`);
    expect(text).not.toContain(bobDeal.id);
  });

  it("has no say over the agent's own settings and feed (403)", async () => {
    await refused(403, apiMessages.forbidden, 'GET', `/api/settings/notifications/${alice.id}`, cora);
    await refused(403, apiMessages.forbidden, 'GET', `/api/notifications/${alice.id}`, cora);
  });

  it("an office admin reaches its office's users' settings and feed; another office's user is 404", async () => {
    const north = await database.db.office.create({ data: { name: `North ${RUN}` } });
    const south = await database.db.office.create({ data: { name: `South ${RUN}` } });
    const officeAdmin = await createAdmin(database.db, { office: { connect: { id: north.id } } });
    const near = await createUser(database.db, { office: { connect: { id: north.id } } });
    const far = await createUser(database.db, { office: { connect: { id: south.id } } });
    await ok(200, 'GET', `/api/settings/notifications/${near.id}`, officeAdmin);
    await ok(200, 'GET', `/api/notifications/${near.id}`, officeAdmin);
    await refused(404, apiMessages.notFound, 'GET', `/api/settings/notifications/${far.id}`, officeAdmin);
    await refused(404, apiMessages.notFound, 'GET', `/api/notifications/${far.id}`, officeAdmin);
    await refused(404, apiMessages.notFound, 'POST', `/api/notifications/${far.id}/read`, officeAdmin);
    // A brokerage-wide admin reaches both.
    await ok(200, 'GET', `/api/settings/notifications/${far.id}`, carl);
  });
});
