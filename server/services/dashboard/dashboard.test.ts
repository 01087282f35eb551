import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttentionAnswer, DashboardAnswer } from '../../../shared/schemas/dashboard';
import type { Transaction, TransactionForm } from '../../../shared/schemas/transactions';
import { bearer, injectUpload, TINY_PDF } from '../../test/api-calls';
import {
  accessTokenFor,
  createAdmin,
  createOwner,
  createTransaction,
  createUser,
} from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';

/**
 * The columns migration 20261129090000 keeps for the dashboard (closing_date, compliant_at, and
 * each version's agent and label), the attention strip, and a first call of the dashboard. The
 * figures' own definitions are pinned by their tests (server/services/dashboard/figures*.test.ts).
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-21T12:00:00.000Z'));
let app: FastifyInstance;

type Actor = { id: string; role: 'user' | 'admin'; tokenVersion: number };
let alice: Actor;
let bob: Actor;
let carl: Actor;

const RUN = Date.now().toString(36);
const TYPE = `Dashboard-${RUN}`;
const REQUIRED = ['Listing Agreement', 'Disclosure'];

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  alice = await createUser(database.db, { firstName: 'Alice', lastName: 'Agent' });
  bob = await createUser(database.db, { firstName: 'Bob', lastName: 'Broker' });
  carl = await createAdmin(database.db, { firstName: 'Carl', lastName: 'Compliance' });
  const owner = await createOwner(database.db);
  const created = await call('POST', '/api/admin/forms/transactions/insert', owner, {
    type: TYPE,
    role: 'Seller',
    forms: REQUIRED,
    optionalForms: ['HOA Documents'],
  });
  expect(created.statusCode, created.body).toBe(201);
});
afterAll(() => app.close());

async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: Actor, payload?: unknown) {
  return app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: bearer(await accessTokenFor(who, { now: clock.now() })),
  });
}

async function ok<T>(
  status: number,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  who: Actor,
  payload?: unknown,
) {
  const res = await call(method, url, who, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json() as T;
}

let streets = 0;
const open = (who: Actor = alice) =>
  ok<Transaction>(201, 'POST', '/api/transactions', who, {
    type: TYPE,
    role: 'Seller',
    streetAddress: `${++streets} Dashboard Way ${RUN}`,
    city: 'Portland',
    state: 'ME',
    zip: '04101',
  });

const formOf = (t: Transaction, label: string) => {
  const form = t.forms.find((f) => f.label === label);
  if (!form) throw new Error(`no item ${label}`);
  return form._id;
};

async function attach(who: Actor, t: Transaction, label: string) {
  const bytes = Buffer.concat([TINY_PDF, Buffer.from(`% ${randomUUID()}\n`)]);
  const token = await accessTokenFor(who, { now: clock.now() });
  const uploaded = await injectUpload(app, `/api/uploads/transactions/${t._id}`, token, bytes);
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  return ok<TransactionForm>(200, 'PUT', `/api/transactions/${t._id}/forms/${formOf(t, label)}`, who, {
    url: (uploaded.json() as { url: string }).url,
  });
}

const decide = (t: Transaction, label: string, status: 'accepted' | 'rejected', reasons?: string[]) =>
  ok<TransactionForm>(
    201,
    'POST',
    `/api/admin/transactions/${t._id}/forms/${formOf(t, label)}/comments`,
    carl,
    {
      status,
      ...(status === 'rejected' ? { text: 'Please redo', ...(reasons ? { reasons } : {}) } : {}),
    },
  );

const row = (t: { _id: string }) =>
  database.db.transaction.findUniqueOrThrow({
    where: { id: t._id },
    select: { closingDate: true, compliantAt: true, createdAt: true },
  });

const setDates = (
  t: Transaction,
  dates: Array<{ kind: string; date: string; done?: boolean; label?: string }>,
) => ok(200, 'PUT', `/api/transactions/${t._id}/dates`, alice, { dates });

describe('the columns the dashboard reads', () => {
  it('closing_date is the earliest closing key date, through every replacement of the dates', async () => {
    const t = await open();
    expect((await row(t)).closingDate).toBeNull();
    await setDates(t, [
      { kind: 'inspection', date: '2026-12-01' },
      { kind: 'closing', date: '2026-12-20' },
    ]);
    expect((await row(t)).closingDate?.toISOString().slice(0, 10)).toBe('2026-12-20');
    await setDates(t, [
      { kind: 'closing', date: '2026-12-18' },
      { kind: 'custom', label: 'Walk-through', date: '2026-12-10' },
    ]);
    expect((await row(t)).closingDate?.toISOString().slice(0, 10)).toBe('2026-12-18');
    await setDates(t, [{ kind: 'inspection', date: '2026-12-01' }]);
    expect((await row(t)).closingDate).toBeNull();
  });

  it("compliant_at is set when the last required item is settled, by the clock's decision times, and cleared when one is not", async () => {
    const t = await open();
    expect((await row(t)).compliantAt).toBeNull();
    await attach(alice, t, 'Listing Agreement');
    await attach(alice, t, 'Disclosure');
    clock.advance(60_000);
    await decide(t, 'Listing Agreement', 'accepted');
    expect((await row(t)).compliantAt).toBeNull();
    clock.advance(60_000);
    const secondAccept = clock.now();
    await decide(t, 'Disclosure', 'accepted');
    expect((await row(t)).compliantAt).toEqual(secondAccept);
    // An optional item changes nothing.
    await attach(alice, t, 'HOA Documents');
    expect((await row(t)).compliantAt).toEqual(secondAccept);

    clock.advance(60_000);
    await decide(t, 'Listing Agreement', 'rejected');
    expect((await row(t)).compliantAt).toBeNull();

    // A waiver approved on the rejected item settles it: the approval is the latest time.
    await ok(
      201,
      'POST',
      `/api/transactions/${t._id}/forms/${formOf(t, 'Listing Agreement')}/waiver`,
      alice,
      {
        reason: 'Not applicable',
      },
    );
    clock.advance(3_600_000);
    const approved = clock.now();
    await ok(
      200,
      'POST',
      `/api/admin/transactions/${t._id}/forms/${formOf(t, 'Listing Agreement')}/waiver`,
      carl,
      {
        approve: true,
      },
    );
    expect((await row(t)).compliantAt).toEqual(approved);

    // A new file on an accepted item reopens it.
    await attach(alice, t, 'Disclosure');
    expect((await row(t)).compliantAt).toBeNull();
    clock.advance(60_000);
    const reaccepted = clock.now();
    await decide(t, 'Disclosure', 'accepted');
    expect((await row(t)).compliantAt).toEqual(reaccepted);
  });

  it('compliant_at is the creation time of a transaction with nothing required', async () => {
    const t = await createTransaction(database.db, { userId: alice.id, documents: [] });
    const kept = await row({ _id: t.id });
    expect(kept.compliantAt).toEqual(kept.createdAt);
  });

  it("each version carries its transaction's agent and its item's label", async () => {
    const t = await open(bob);
    await attach(bob, t, 'Disclosure');
    const versions = await database.db.formVersion.findMany({
      where: { form: { transactionId: t._id } },
      select: { agentId: true, label: true },
    });
    expect(versions).toEqual([{ agentId: bob.id, label: 'Disclosure' }]);
  });
});

describe('GET /api/admin/dashboard', () => {
  it('answers the figures of the default range, the last 30 days ending today (UTC)', async () => {
    const t = await open(bob);
    await attach(bob, t, 'Listing Agreement');
    clock.advance(120_000);
    await decide(t, 'Listing Agreement', 'rejected', ['missing-signature', 'illegible']);
    await attach(bob, t, 'Disclosure');
    const answer = await ok<DashboardAnswer>(200, 'GET', '/api/admin/dashboard', carl);
    const today = clock.now().toISOString().slice(0, 10);
    expect(answer.to).toBe(today);
    expect(Date.parse(answer.to) - Date.parse(answer.from)).toBe(29 * 86_400_000);
    expect(answer.turnaround.reviewed).toBeGreaterThan(0);
    expect(answer.turnaround.byReviewer.map((r) => r.user._id)).toEqual([carl.id]);
    expect(answer.rejections.byAgent.find((r) => r.user._id === bob.id)).toMatchObject({
      reviewed: 1,
      rejected: 1,
      rate: 1,
    });
    expect(answer.rejections.topReasons.map((r) => r.code).sort()).toEqual(
      expect.arrayContaining(['illegible', 'missing-signature']),
    );
    expect(answer.queue.size).toBeGreaterThan(0);
  });

  it('refuses agents, and ranges it cannot answer with 400 and the reason', async () => {
    expect((await call('GET', '/api/admin/dashboard', alice)).statusCode).toBe(403);
    for (const [query, message] of [
      ['from=2026-11-10&to=2026-11-01', '"to" must not be before "from"'],
      ['from=2030-01-01', '"to" must not be before "from"'],
      ['from=2020-01-01', 'The range may span at most 400 days'],
      ['from=2025-01-01&to=2026-11-01', 'The range may span at most 400 days'],
      ['from=2026-02-30', null],
    ] as const) {
      const res = await call('GET', `/api/admin/dashboard?${query}`, carl);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      if (message) expect(res.json().message).toBe(message);
    }
  });
});

describe('GET /api/attention', () => {
  it("lists the caller's rejected and missing required items and the dates due within 7 days of their zone", async () => {
    const agent = await createUser(database.db, { firstName: 'Nora', lastName: 'New' });
    const who: Actor = agent;
    const t = await open(who);
    await attach(who, t, 'Listing Agreement');
    await decide(t, 'Listing Agreement', 'rejected');
    // Someone else's file never shows.
    const other = await open(bob);
    await ok(200, 'PUT', `/api/transactions/${other._id}/dates`, bob, {
      dates: [{ kind: 'closing', date: '2026-11-22' }],
    });
    await ok(200, 'PUT', `/api/transactions/${t._id}/dates`, who, {
      dates: [
        { kind: 'inspection', date: '2026-11-19' },
        { kind: 'contract-acceptance', date: '2026-11-15', done: true },
        { kind: 'closing', date: '2026-11-29' },
        { kind: 'appraisal', date: '2026-11-25' },
      ],
    });
    const answer = await ok<AttentionAnswer>(200, 'GET', '/api/attention', who);
    expect(answer.rejected).toEqual({
      total: 1,
      items: [expect.objectContaining({ transactionId: t._id, formId: formOf(t, 'Listing Agreement') })],
    });
    // The optional item is nobody's to-do.
    expect(answer.missing.total).toBe(1);
    expect(answer.missing.items.map((i) => i.label)).toEqual(['Disclosure']);
    // Today is 2026-11-21 in New York: up to 2026-11-28.
    expect(answer.deadlines.items.map((i) => [i.kind, i.date, i.overdue])).toEqual([
      ['inspection', '2026-11-19', true],
      ['appraisal', '2026-11-25', false],
    ]);
    // In Auckland it is already 2026-11-22: the closing on the 29th is within 7 days.
    await database.db.user.update({ where: { id: agent.id }, data: { timezone: 'Pacific/Auckland' } });
    const later = await ok<AttentionAnswer>(200, 'GET', '/api/attention', who);
    expect(later.deadlines.total).toBe(3);
    expect(later.deadlines.items.at(-1)).toMatchObject({
      kind: 'closing',
      date: '2026-11-29',
      overdue: false,
    });
  });
});
