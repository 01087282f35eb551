import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../../shared/messages';
import type { KeyDatesAnswer } from '../../../shared/schemas/key-dates';
import type {
  Comment,
  HistoryEntry,
  Transaction,
  TransactionForm,
  TransactionsPage,
} from '../../../shared/schemas/transactions';
import { injectUpload, TINY_PDF } from '../../test/api-calls';
import {
  accessTokenFor,
  createAdmin,
  createTemplate,
  createTransaction,
  createUser,
} from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { type Actor, restCalls } from '../../test/rest-calls';

/**
 * Transaction coordinators: an agent who coordinates for other agents works on their files as
 * they could (opening, changing, uploading, attaching, commenting, asking waivers, setting key
 * dates), through the agents' own REST paths, and on nobody else's (404); it never reviews. Its
 * audit events name it and the agent it acted for. What it is told, and its calendar and
 * settings: services/coordinators.test.ts.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-20T12:00:00.000Z'));
let app: FastifyInstance;

type Person = Actor & { firstName: string; lastName: string };
let alice: Person; // an agent with a coordinator
let bob: Person; // an agent nobody coordinates for
let cora: Person; // coordinates for alice
let carl: Person; // an admin
const RUN = Date.now().toString(36);
const TYPE = `Coordinated-${RUN}`;

let aliceDeal: Transaction; // opened by cora for alice
let bobDeal: { id: string; forms: { id: string; label: string }[] };

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  alice = await createUser(database.db, { firstName: 'Alice', lastName: 'Agent' });
  bob = await createUser(database.db, { firstName: 'Bob', lastName: 'Other' });
  cora = await createUser(database.db, { firstName: 'Cora', lastName: 'Coordinator' });
  carl = await createAdmin(database.db, { firstName: 'Carl', lastName: 'Compliance' });
  await database.db.coordination.create({ data: { coordinatorId: cora.id, agentId: alice.id } });
  await createTemplate(database.db, { type: TYPE, role: 'Seller', documents: ['Disclosure', 'Inspection'] });
  bobDeal = await createTransaction(database.db, {
    userId: bob.id,
    streetAddress: `9 Elsewhere Rd ${RUN}`,
    documents: ['Disclosure'],
  });
});
afterAll(() => app?.close());

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

const auditOf = (transactionId: string) =>
  database.db.auditEvent.findMany({
    where: { transactionId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { action: true, actorId: true, onBehalfOf: true },
  });

describe('a coordinator opens transactions for its agents', () => {
  it("POST /api/transactions {agentId}: the transaction is the agent's, the audit names both", async () => {
    aliceDeal = await ok<Transaction>(201, 'POST', '/api/transactions', cora, newDeal({ agentId: alice.id }));
    expect(aliceDeal.user).toStrictEqual({ _id: alice.id, firstName: 'Alice', lastName: 'Agent' });
    const row = await database.db.transaction.findUniqueOrThrow({ where: { id: aliceDeal._id } });
    expect(row.userId).toBe(alice.id);
    expect(await auditOf(aliceDeal._id)).toStrictEqual([
      { action: 'transaction.create', actorId: cora.id, onBehalfOf: alice.id },
    ]);
    // The admins are told who opened it, and for whom.
    const notice = await database.db.adminNotice.findFirstOrThrow({
      where: { transactionId: aliceDeal._id },
      select: { message: true },
    });
    expect(notice.message).toBe(
      `Cora Coordinator opened a transaction for Alice Agent: ${aliceDeal.streetAddress}, Portland`,
    );
  });

  it('its own `user` beside the agent is accepted; without agentId the transaction is its own', async () => {
    const both = await ok<Transaction>(
      201,
      'POST',
      '/api/transactions',
      cora,
      newDeal({ user: cora.id, agentId: alice.id }),
    );
    expect(both.user._id).toBe(alice.id);
    const own = await ok<Transaction>(201, 'POST', '/api/transactions', cora, newDeal());
    expect(own.user._id).toBe(cora.id);
    expect(await auditOf(own._id)).toStrictEqual([
      { action: 'transaction.create', actorId: cora.id, onBehalfOf: null },
    ]);
  });

  it('naming an agent it does not coordinate for is 403, as is another agent from an agent; an admin may name one', async () => {
    await refused(
      403,
      apiMessages.forbidden,
      'POST',
      '/api/transactions',
      cora,
      newDeal({ agentId: bob.id }),
    );
    await refused(
      403,
      apiMessages.forbidden,
      'POST',
      '/api/transactions',
      bob,
      newDeal({ agentId: alice.id }),
    );
    // An admin opens files in any active agent's name it reaches (a back-office sync does too).
    const forAlice = await ok<Transaction>(
      201,
      'POST',
      '/api/transactions',
      carl,
      newDeal({ agentId: alice.id }),
    );
    expect(forAlice.user._id).toBe(alice.id);
    const own = await ok<Transaction>(
      201,
      'POST',
      '/api/transactions',
      alice,
      newDeal({ agentId: alice.id }),
    );
    expect(own.user._id).toBe(alice.id);
    expect(await auditOf(own._id)).toStrictEqual([
      { action: 'transaction.create', actorId: alice.id, onBehalfOf: null },
    ]);
  });
});

describe('a deactivated agent', () => {
  it('is no longer coordinated: its files go back to the admins, and it comes back when reactivated', async () => {
    const dana = await createUser(database.db, { firstName: 'Dana', lastName: 'Departing' });
    const tess = await createUser(database.db, { firstName: 'Tess', lastName: 'Coordinator' });
    await database.db.coordination.create({ data: { coordinatorId: tess.id, agentId: dana.id } });
    const deal = await ok<Transaction>(201, 'POST', '/api/transactions', tess, newDeal({ agentId: dana.id }));
    await ok(200, 'GET', `/api/transactions/individual/${deal._id}/${dana.id}`, tess);

    await database.db.user.update({ where: { id: dana.id }, data: { isAdminApproved: false } });
    await refused(
      404,
      apiMessages.notFound,
      'GET',
      `/api/transactions/individual/${deal._id}/${tess.id}`,
      tess,
    );
    await refused(
      403,
      apiMessages.forbidden,
      'POST',
      '/api/transactions',
      tess,
      newDeal({ agentId: dana.id }),
    );
    const listed = await ok<{ totalTransactions: number }>(200, 'GET', `/api/transactions/${tess.id}`, tess);
    expect(listed.totalTransactions).toBe(0);

    await database.db.user.update({ where: { id: dana.id }, data: { isAdminApproved: true } });
    await ok(200, 'GET', `/api/transactions/individual/${deal._id}/${tess.id}`, tess);
  });
});

describe("a coordinator works on its agent's file, and on no one else's", () => {
  it('reads and updates it through its own paths and the agent’s; another agent’s is 404', async () => {
    const id = aliceDeal._id;
    for (const path of [cora.id, alice.id]) {
      const got = await ok<Transaction>(200, 'GET', `/api/transactions/individual/${id}/${path}`, cora);
      expect(got.user._id).toBe(alice.id);
    }
    const changed = await ok<Transaction>(200, 'PUT', `/api/transactions/${id}/${cora.id}`, cora, {
      streetAddress: `1 Renamed Way ${RUN}`,
      city: 'Portland',
      state: 'ME',
      zip: '04101',
    });
    expect(changed.streetAddress).toBe(`1 Renamed Way ${RUN}`);
    const address = { streetAddress: 'x', city: 'y', state: 'ME', zip: '04101' };
    await refused(
      404,
      apiMessages.notFound,
      'GET',
      `/api/transactions/individual/${bobDeal.id}/${cora.id}`,
      cora,
    );
    await refused(
      404,
      apiMessages.notFound,
      'PUT',
      `/api/transactions/${bobDeal.id}/${cora.id}`,
      cora,
      address,
    );
    // The agent's own path holds only the agent's transactions; bob's path is not cora's to use.
    await refused(
      403,
      apiMessages.forbidden,
      'GET',
      `/api/transactions/individual/${bobDeal.id}/${bob.id}`,
      cora,
    );
    // The agent itself does not reach its coordinator's own files through its path.
    const coraOwn = await ok<Transaction>(201, 'POST', '/api/transactions', cora, newDeal());
    await refused(
      404,
      apiMessages.notFound,
      'GET',
      `/api/transactions/individual/${coraOwn._id}/${alice.id}`,
      alice,
    );
  });

  it("lists and searches its agents' transactions, naming the agent; agentId narrows", async () => {
    const list = await ok<TransactionsPage>(200, 'GET', `/api/transactions/${cora.id}?limit=100`, cora);
    const row = list.transactions.find((t) => t._id === aliceDeal._id);
    expect(row?.user).toStrictEqual({ _id: alice.id, firstName: 'Alice', lastName: 'Agent' });
    expect(list.transactions.some((t) => t.user._id === bob.id)).toBe(false);
    const found = await ok<TransactionsPage>(
      200,
      'GET',
      `/api/transactions/search/${cora.id}/${encodeURIComponent(`Renamed Way ${RUN}`)}`,
      cora,
    );
    expect(found.transactions.map((t) => t._id)).toStrictEqual([aliceDeal._id]);
    const narrowed = await ok<TransactionsPage>(
      200,
      'GET',
      `/api/transactions/${cora.id}?limit=100&agentId=${cora.id}`,
      cora,
    );
    expect(narrowed.transactions.every((t) => t.user._id === cora.id)).toBe(true);
    const other = await ok<TransactionsPage>(
      200,
      'GET',
      `/api/transactions/${cora.id}?agentId=${bob.id}`,
      cora,
    );
    expect(other.totalTransactions).toBe(0);
  });

  it('uploads, attaches, comments, asks a waiver and sets key dates; each is 404 on another agent’s file', async () => {
    const id = aliceDeal._id;
    const disclosure = formOf(aliceDeal, 'Disclosure');
    const inspection = formOf(aliceDeal, 'Inspection');
    const attached = await attach(cora, aliceDeal, 'Disclosure');
    expect(attached.status).toBe('pending');
    const comment = await ok<Comment>(
      201,
      'POST',
      `/api/transactions/${id}/forms/${disclosure}/comments`,
      cora,
      {
        text: 'Signed copy attached',
      },
    );
    expect(comment.user._id).toBe(cora.id);
    const waived = await ok<TransactionForm>(
      201,
      'POST',
      `/api/transactions/${id}/forms/${inspection}/waiver`,
      cora,
      {
        reason: 'Buyer waived inspection',
      },
    );
    expect(waived.waiver?.status).toBe('requested');
    const dates = await ok<KeyDatesAnswer>(200, 'PUT', `/api/transactions/${id}/dates`, cora, {
      dates: [{ kind: 'closing', date: '2026-12-18' }],
    });
    expect(dates.dates.map((d) => d.date)).toStrictEqual(['2026-12-18']);

    const bobForm = bobDeal.forms[0]?.id ?? '';
    const upload = await injectUpload(
      app,
      `/api/uploads/transactions/${bobDeal.id}`,
      await accessTokenFor(cora, { now: clock.now() }),
      TINY_PDF,
    );
    expect(upload.statusCode).toBe(404);
    for (const [method, url, body] of [
      [
        'PUT',
        `/api/transactions/${bobDeal.id}/forms/${bobForm}`,
        { url: `transactions/${bobDeal.id}/x.pdf` },
      ],
      ['POST', `/api/transactions/${bobDeal.id}/forms/${bobForm}/comments`, { text: 'hello' }],
      ['POST', `/api/transactions/${bobDeal.id}/forms/${bobForm}/waiver`, { reason: 'no' }],
      ['PUT', `/api/transactions/${bobDeal.id}/dates`, { dates: [] }],
      ['GET', `/api/transactions/${bobDeal.id}/dates`, undefined],
    ] as const) {
      const res = await call(method, url, cora, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.json().message).toBe(apiMessages.notFound);
    }
  });

  it('never reviews: the admin paths are 403 for it', async () => {
    const id = aliceDeal._id;
    const disclosure = formOf(aliceDeal, 'Disclosure');
    await refused(
      403,
      apiMessages.forbidden,
      'POST',
      `/api/admin/transactions/${id}/forms/${disclosure}/comments`,
      cora,
      {
        status: 'accepted',
      },
    );
    const inspection = formOf(aliceDeal, 'Inspection');
    await refused(
      403,
      apiMessages.forbidden,
      'POST',
      `/api/admin/transactions/${id}/forms/${inspection}/waiver`,
      cora,
      {
        approve: true,
      },
    );
    await refused(403, apiMessages.forbidden, 'GET', `/api/admin/transactions/${id}/history`, cora);
  });

  it('every action it took is audited with it as the actor and the agent as onBehalfOf', async () => {
    const events = await auditOf(aliceDeal._id);
    expect(events.map((event) => event.action)).toStrictEqual([
      'transaction.create',
      'transaction.update',
      'form.upload',
      'comment.create',
      'waiver.request',
      'transaction.key-dates',
    ]);
    for (const event of events) expect(event).toMatchObject({ actorId: cora.id, onBehalfOf: alice.id });
    const history = await ok<HistoryEntry[]>(
      200,
      'GET',
      `/api/admin/transactions/${aliceDeal._id}/history`,
      carl,
    );
    expect(history).toHaveLength(events.length);
    for (const entry of history) {
      expect(entry.actor?._id).toBe(cora.id);
      expect(entry.onBehalfOf).toStrictEqual({ _id: alice.id, firstName: 'Alice', lastName: 'Agent' });
    }
  });
});
