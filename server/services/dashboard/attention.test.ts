import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTENTION_ITEMS, type AttentionAnswer } from '../../../shared/schemas/dashboard';
import type { Transaction, TransactionForm } from '../../../shared/schemas/transactions';
import type { AppDeps } from '../../deps';
import { accessTokenFor, createAdmin, createOwner, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testContext, testDeps } from '../../test/harness';
import { type Actor, restCalls } from '../../test/rest-calls';
import { createCaller } from '../../trpc/router';

/**
 * The agent's 'Needs your attention' strip (shared/schemas/dashboard.ts): on the
 * caller's own open, undeleted transactions, required items rejected and not waived (oldest
 * rejection first), required items with no file and no waiver asked for or granted, and key
 * dates not done that are overdue or fall within the next 7 days, in the agent's zone.
 *
 * Now is 2026-11-21T03:00Z: still Nov 20 (22:00) in New York, the zone of an agent who set
 * none, and already Nov 21 (12:00) in Tokyo.
 */

const database = setupTestDatabase();
const NOW = '2026-11-21T03:00:00.000Z';
const clock = new TestClock(new Date(NOW));
let deps: AppDeps;
let app: FastifyInstance;
let alice: Actor;
let bob: Actor;
let tokyo: Actor;
let rita: Actor;
let olga: Actor;

const RUN = Date.now().toString(36);
const TYPE = `Attention-${RUN}`;
const BIG = `Attention-big-${RUN}`;
const LA = 'Listing Agreement';
const DI = 'Disclosure';
const IN = 'Inspection';
const HOA = 'HOA Documents';
const MANY = Array.from({ length: 12 }, (_, i) => `Document ${String(i + 1).padStart(2, '0')}`);

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  alice = await createUser(database.db, { firstName: 'Alice', lastName: 'Agent' });
  bob = await createUser(database.db, { firstName: 'Bob', lastName: 'Broker' });
  tokyo = await createUser(database.db, { firstName: 'Taro', lastName: 'Tokyo', timezone: 'Asia/Tokyo' });
  rita = await createAdmin(database.db, { firstName: 'Rita', lastName: 'Reviewer' });
  olga = await createOwner(database.db, { firstName: 'Olga', lastName: 'Owner' });
  for (const [type, forms, optionalForms] of [
    [TYPE, [LA, DI, IN], [HOA]],
    [BIG, MANY, []],
  ] as const) {
    await ok(201, 'POST', '/api/admin/forms/transactions/insert', olga, {
      type,
      role: 'Seller',
      forms,
      optionalForms,
    });
  }
});
afterAll(() => app?.close());

const { attach, call, formOf, ok } = restCalls(() => app, clock);

function setClock(iso: string) {
  clock.advance(Date.parse(iso) - clock.now().getTime());
}

async function attention(who: Actor): Promise<AttentionAnswer> {
  const caller = createCaller(await testContext(deps, await accessTokenFor(who, { now: clock.now() })));
  return caller.dashboard.attention();
}

let streets = 0;
async function open(who: Actor, dates: unknown[] = [], type = TYPE): Promise<Transaction> {
  const t = await ok<Transaction>(201, 'POST', '/api/transactions', who, {
    type,
    role: 'Seller',
    streetAddress: `${++streets} Attention Ave ${RUN}`,
    city: 'Salem',
    state: 'OR',
    zip: '97301',
  });
  if (dates.length) await ok(200, 'PUT', `/api/transactions/${t._id}/dates`, who, { dates });
  return t;
}

const review = (t: Transaction, label: string, status: 'accepted' | 'rejected') =>
  ok<TransactionForm>(
    201,
    'POST',
    `/api/admin/transactions/${t._id}/forms/${formOf(t, label)}/comments`,
    rita,
    {
      status,
      ...(status === 'rejected' ? { reasons: ['illegible'] } : {}),
    },
  );
/** At `iso`, the agent uploads the item and Rita rejects it. */
async function rejectedAt(iso: string, who: Actor, t: Transaction, label: string) {
  setClock(iso);
  await attach(who, t, label);
  await review(t, label, 'rejected');
}
const askWaiver = (t: Transaction, label: string, who: Actor) =>
  ok(201, 'POST', `/api/transactions/${t._id}/forms/${formOf(t, label)}/waiver`, who, {
    reason: 'Not needed',
  });
const decideWaiver = (t: Transaction, label: string, approve: boolean) =>
  ok(200, 'POST', `/api/admin/transactions/${t._id}/forms/${formOf(t, label)}/waiver`, rita, { approve });

const placeOf = (t: Transaction) => ({
  transactionId: t._id,
  streetAddress: t.streetAddress,
  city: 'Salem',
  state: 'OR',
  zip: '97301',
});
const item = (t: Transaction, label: string) => ({ ...placeOf(t), formId: formOf(t, label), label });

describe("the agent's strip", () => {
  let w1: Transaction;
  let w2: Transaction;
  let w5: Transaction;

  beforeAll(async () => {
    setClock('2026-11-10T09:00:00.000Z');
    // W1: Listing Agreement rejected (2nd oldest rejection), its optional HOA rejected too (not
    // required: not listed), Disclosure missing, Inspection missing with a waiver asked (not
    // listed: the desk has it). Key dates around today (Nov 20 in New York).
    w1 = await open(alice, [
      { kind: 'closing', date: '2026-11-18' }, // overdue
      { kind: 'possession', date: '2026-11-19', done: true }, // done: not listed
      { kind: 'inspection', date: '2026-11-20' }, // today: due, not overdue
      { kind: 'appraisal', date: '2026-11-27' }, // today + 7: listed
      { kind: 'financing', date: '2026-11-28' }, // today + 8: not listed
    ]);
    // W2: Listing Agreement rejected first of all, Disclosure rejected last; Inspection's waiver
    // denied, so it is missing again.
    w2 = await open(alice, [{ kind: 'custom', label: 'Walkthrough', date: '2026-11-21' }]);
    await rejectedAt('2026-11-10T10:00:00.000Z', alice, w2, LA);
    await rejectedAt('2026-11-11T10:00:00.000Z', alice, w1, LA);
    await rejectedAt('2026-11-11T11:00:00.000Z', alice, w1, HOA);
    await rejectedAt('2026-11-12T10:00:00.000Z', alice, w2, DI);
    setClock('2026-11-13T10:00:00.000Z');
    await askWaiver(w1, IN, alice);
    await askWaiver(w2, IN, alice);
    await decideWaiver(w2, IN, false);
    // W5: Inspection rejected, then waived: nothing to fix; Listing Agreement and Disclosure missing.
    w5 = await open(alice);
    await rejectedAt('2026-11-14T10:00:00.000Z', alice, w5, IN);
    setClock('2026-11-14T11:00:00.000Z');
    await askWaiver(w5, IN, alice);
    await decideWaiver(w5, IN, true);
    // A closed file (compliant, then closed) with an overdue date: not listed.
    const w3 = await open(alice, [{ kind: 'closing', date: '2026-11-15' }]);
    for (const label of [LA, DI, IN]) {
      await attach(alice, w3, label);
      await review(w3, label, 'accepted');
    }
    await ok(200, 'POST', `/api/admin/transactions/${w3._id}/close`, rita);
    // A deleted file with a rejection, missing items and a date due: not listed.
    const w4 = await open(alice, [{ kind: 'closing', date: '2026-11-19' }]);
    await rejectedAt('2026-11-15T10:00:00.000Z', alice, w4, LA);
    await ok(200, 'DELETE', `/api/admin/transactions/${w4._id}`, rita);
    // Bob's file: his, never Alice's.
    const b1 = await open(bob, [{ kind: 'closing', date: '2026-11-20' }]);
    await rejectedAt('2026-11-15T11:00:00.000Z', bob, b1, LA);
    // Last: Alice asks to waive W2's rejected Listing Agreement. It is still rejected and not
    // waived, so still to fix, and its rejection is still the oldest.
    setClock('2026-11-16T10:00:00.000Z');
    await askWaiver(w2, LA, alice);
    setClock(NOW);
  });

  it('lists what to fix, to upload and to meet, each in its order, with totals', async () => {
    expect(await attention(alice)).toStrictEqual({
      rejected: {
        total: 3,
        // Oldest rejection first: W2 LA (Nov 10), W1 LA (Nov 11), W2 DI (Nov 12).
        items: [item(w2, LA), item(w1, LA), item(w2, DI)],
      },
      missing: {
        total: 4,
        // Oldest transaction first, then checklist order: W1 DI; W2 IN (waiver denied); W5 LA, DI.
        items: [item(w1, DI), item(w2, IN), item(w5, LA), item(w5, DI)],
      },
      deadlines: {
        total: 4,
        // Soonest first; overdue before Nov 20 (today in New York, the default zone).
        items: [
          { ...placeOf(w1), kind: 'closing', label: 'Closing', date: '2026-11-18', overdue: true },
          {
            ...placeOf(w1),
            kind: 'inspection',
            label: 'Inspection deadline',
            date: '2026-11-20',
            overdue: false,
          },
          { ...placeOf(w2), kind: 'custom', label: 'Walkthrough', date: '2026-11-21', overdue: false },
          {
            ...placeOf(w1),
            kind: 'appraisal',
            label: 'Appraisal deadline',
            date: '2026-11-27',
            overdue: false,
          },
        ],
      },
      desk: null,
    });
  });

  it('GET /api/attention answers the same; an admin sees their own (none) and the desk; nobody gets 401', async () => {
    expect(await ok(200, 'GET', '/api/attention', alice)).toStrictEqual(await attention(alice));
    const empty = { total: 0, items: [] };
    expect(await ok(200, 'GET', '/api/attention', rita)).toStrictEqual({
      rejected: empty,
      missing: empty,
      deadlines: empty,
      // The two waivers asked for: W1's Inspection (Nov 13 10:00, 7 days 17 hours ago) and W2's
      // Listing Agreement. No open file closes this week.
      desk: { queue: { size: 2, oldestWaitingSeconds: 7 * 86_400 + 17 * 3_600 }, atRisk: empty },
    });
    expect((await call('GET', '/api/attention')).statusCode).toBe(401);
  });

  it("gives every admin the desk's queue and files at risk as the dashboard counts them", async () => {
    const dora = await createUser(database.db, { firstName: 'Dora', lastName: 'Deals' });
    setClock('2026-11-20T09:00:00.000Z');
    // Closing within the week (UTC Nov 21 to 27) and not compliant: at risk, soonest first.
    const d1 = await open(dora, [{ kind: 'closing', date: '2026-11-25' }]);
    const d2 = await open(dora, [{ kind: 'closing', date: '2026-11-22' }]);
    await open(dora, [{ kind: 'closing', date: '2026-11-27' }]); // counted, not among the first 3
    const d4 = await open(dora, [{ kind: 'closing', date: '2026-11-23' }]);
    await attach(dora, d1, LA); // waits for review since Nov 20 09:00
    // Not at risk: closing next week, or compliant.
    await open(dora, [{ kind: 'closing', date: '2026-11-28' }]);
    const done = await open(dora, [{ kind: 'closing', date: '2026-11-22' }]);
    for (const label of [LA, DI, IN]) {
      await attach(dora, done, label);
      await review(done, label, 'accepted');
    }
    setClock(NOW);

    const desk = (await attention(olga)).desk;
    expect(desk?.queue).toStrictEqual({ size: 3, oldestWaitingSeconds: 7 * 86_400 + 17 * 3_600 });
    expect(desk?.atRisk.total).toBe(4);
    expect(
      desk?.atRisk.items.map((row) => [
        row.transaction._id,
        row.closingDate,
        row.missing,
        row.awaitingReview,
      ]),
    ).toEqual([
      [d2._id, '2026-11-22', 3, 0],
      [d4._id, '2026-11-23', 3, 0],
      [d1._id, '2026-11-25', 2, 1],
    ]);
    expect(desk?.atRisk.items[0]?.transaction.user).toStrictEqual({
      _id: dora.id,
      firstName: 'Dora',
      lastName: 'Deals',
    });

    // The same figures as the dashboard's, from the same statements.
    const caller = createCaller(await testContext(deps, await accessTokenFor(rita, { now: clock.now() })));
    const figures = await caller.dashboard.figures({});
    expect(desk?.queue.size).toBe(figures.queue.size);
    expect(desk?.queue.oldestWaitingSeconds).toBe(figures.queue.oldestWaitingSeconds);
    expect(desk?.atRisk.items).toStrictEqual(figures.atRisk.slice(0, 3));
    expect((await attention(dora)).desk).toBeNull();
  });

  it("takes today in the agent's zone: Nov 20 is overdue in Tokyo, and Nov 28 within 7 days", async () => {
    const t = await open(tokyo, [
      { kind: 'closing', date: '2026-11-20' },
      { kind: 'inspection', date: '2026-11-28' },
      { kind: 'appraisal', date: '2026-11-29' },
    ]);
    const answer = await attention(tokyo);
    expect(answer.deadlines).toStrictEqual({
      total: 2,
      items: [
        { ...placeOf(t), kind: 'closing', label: 'Closing', date: '2026-11-20', overdue: true },
        {
          ...placeOf(t),
          kind: 'inspection',
          label: 'Inspection deadline',
          date: '2026-11-28',
          overdue: false,
        },
      ],
    });
    expect(answer.missing).toStrictEqual({ total: 3, items: [item(t, LA), item(t, DI), item(t, IN)] });
  });

  it(`shows at most ${ATTENTION_ITEMS} items of each list; total counts them all`, async () => {
    const big = await open(
      bob,
      Array.from({ length: 11 }, (_, i) => ({
        kind: 'custom',
        label: `Step ${i + 1}`,
        date: `2026-11-${String(i + 1).padStart(2, '0')}`,
      })),
      BIG,
    );
    const answer = await attention(bob);
    // Bob's first file (b1): LA rejected, DI and IN missing, closing Nov 20; then 12 missing here.
    expect(answer.rejected.total).toBe(1);
    expect(answer.missing.total).toBe(2 + 12);
    expect(answer.missing.items).toHaveLength(ATTENTION_ITEMS);
    expect(answer.missing.items.map((row) => row.label)).toEqual([DI, IN, ...MANY.slice(0, 8)]);
    expect(answer.missing.items.slice(2).every((row) => row.transactionId === big._id)).toBe(true);
    // 11 steps Nov 1 to Nov 11 and b1's closing (Nov 20): 12, the 10 soonest shown, all overdue.
    expect(answer.deadlines.total).toBe(12);
    expect(answer.deadlines.items.map((row) => [row.date, row.overdue])).toEqual(
      Array.from({ length: 10 }, (_, i) => [`2026-11-${String(i + 1).padStart(2, '0')}`, true]),
    );
  });
});
