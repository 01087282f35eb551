import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyDateMessages } from '../../../shared/messages';
import {
  type DashboardAnswer,
  type DashboardInput,
  MAX_DASHBOARD_DAYS,
} from '../../../shared/schemas/dashboard';
import type { Transaction, TransactionForm } from '../../../shared/schemas/transactions';
import type { AppDeps } from '../../deps';
import { accessTokenFor, createAdmin, createOwner, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testContext, testDeps } from '../../test/harness';
import { type Actor, restCalls } from '../../test/rest-calls';
import { createCaller } from '../../trpc/router';
import { monthsOf } from './money';

/**
 * The broker dashboard's figures (docs/API.md, "Broker dashboard"; the definitions in
 * shared/schemas/dashboard.ts), every number of the answer, from a history built through the
 * real app on a TestClock: uploads, reviews with reasons, waivers, key dates, closing, deleting.
 * Each expected value is worked out by hand in the comments next to it.
 *
 * "Now" is 2026-11-21T12:00:00.000Z, so today (UTC) is 2026-11-21 and the default range is
 * 2026-10-23 to 2026-11-21 (30 days, today included). The history is laid out so that each
 * range the tests ask for holds a known set of decisions and closings:
 *
 * - August 3-14, 2026: the plain setup (acceptances that make files compliant, closings of
 *   files), whose figures no test reads; August 31 holds an edge decision (E0) and is read alone.
 * - September 2026 (range S): eight decisions by two reviewers on two agents' files, for
 *   turnaround and rejections, with both edges of the range.
 * - 2026-10-01 to 2026-11-15 (range C): closings over two months for compliance, plus four
 *   decisions (an edge of S, a late acceptance, the two edges of the default range).
 * - July 2026 (range J): a decision changed later, and a file deleted since; May 2026 (range M):
 *   two decisions of 2 s and 3 s, for the rounding of a median.
 * - From 2026-11-14 on: what waits in the review queue now, and the files closing soon.
 */

const database = setupTestDatabase();
const NOW = '2026-11-21T12:00:00.000Z';
const clock = new TestClock(new Date(NOW));
let deps: AppDeps;
let app: FastifyInstance;

type Named = Actor & { firstName: string; lastName: string };
let alice: Named;
let bob: Named;
let rita: Named;
let sam: Named;
let olga: Named;

const RUN = Date.now().toString(36);
const TYPE = `Dashboard-${RUN}`;
const LA = 'Listing Agreement';
const DI = 'Disclosure';
const IN = 'Inspection';
const HOA = 'HOA Documents';

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  alice = await createUser(database.db, { firstName: 'Alice', lastName: 'Agent' });
  bob = await createUser(database.db, { firstName: 'Bob', lastName: 'Broker' });
  rita = await createAdmin(database.db, { firstName: 'Rita', lastName: 'Reviewer' });
  sam = await createAdmin(database.db, { firstName: 'Sam', lastName: 'Second' });
  olga = await createOwner(database.db, { firstName: 'Olga', lastName: 'Owner' });
});
afterAll(() => app?.close());

const { attach, call, formOf, ok, refused } = restCalls(() => app, clock);

/** Moves the test's clock to an instant (forwards or back). */
function setClock(iso: string) {
  clock.advance(Date.parse(iso) - clock.now().getTime());
}

const personOf = (who: Named) => ({ _id: who.id, firstName: who.firstName, lastName: who.lastName });

type Figures = Omit<DashboardAnswer, 'money'>;

/**
 * This history issues no CDA: its money is zero, month by month of the range (its own tests are
 * in money.test.ts). Checked here, then left out of the figures compared.
 */
function withoutMoney({ money, ...answer }: DashboardAnswer): Figures {
  expect(money).toStrictEqual({
    grossCents: 0,
    brokerageCents: 0,
    agentCents: 0,
    pendingCents: 0,
    byMonth: monthsOf(answer.from, answer.to).map((month) => ({ month, grossCents: 0 })),
  });
  return answer;
}

/** The figures through the tRPC caller, as the client's dashboard page asks for them. */
async function figures(input: DashboardInput = {}, who: Actor = rita): Promise<Figures> {
  const caller = createCaller(await testContext(deps, await accessTokenFor(who, { now: clock.now() })));
  return withoutMoney(await caller.dashboard.figures(input));
}

// --- The history's steps, through the REST paths (the style of transactions/compliance.test.ts) ---

let streets = 0;
async function open(who: Named, closing?: string): Promise<Transaction> {
  const t = await ok<Transaction>(201, 'POST', '/api/transactions', who, {
    type: TYPE,
    role: 'Seller',
    streetAddress: `${++streets} Dashboard Way ${RUN}`,
    city: 'Portland',
    state: 'ME',
    zip: '04101',
  });
  if (closing)
    await ok(200, 'PUT', `/api/transactions/${t._id}/dates`, who, {
      dates: [{ kind: 'closing', date: closing }],
    });
  return t;
}

const reviewUrl = (t: Transaction, label: string) =>
  `/api/admin/transactions/${t._id}/forms/${formOf(t, label)}/comments`;
const accept = (t: Transaction, label: string, who: Named) =>
  ok<TransactionForm>(201, 'POST', reviewUrl(t, label), who, { status: 'accepted' });
const reject = (t: Transaction, label: string, who: Named, reasons: string[]) =>
  ok<TransactionForm>(201, 'POST', reviewUrl(t, label), who, { status: 'rejected', reasons });
const askWaiver = (t: Transaction, label: string, who: Named) =>
  ok<TransactionForm>(201, 'POST', `/api/transactions/${t._id}/forms/${formOf(t, label)}/waiver`, who, {
    reason: 'Not applicable to this sale',
  });
const approveWaiver = (t: Transaction, label: string, who: Named) =>
  ok<TransactionForm>(200, 'POST', `/api/admin/transactions/${t._id}/forms/${formOf(t, label)}/waiver`, who, {
    approve: true,
  });

/** At `iso`, the agent uploads the item; at `decidedAt`, `who` accepts it (or rejects with reasons). */
async function decided(
  t: Transaction,
  label: string,
  agent: Named,
  uploadedAt: string,
  decidedAt: string,
  who: Named,
  reasons?: string[],
) {
  setClock(uploadedAt);
  await attach(agent, t, label);
  setClock(decidedAt);
  if (reasons) await reject(t, label, who, reasons);
  else await accept(t, label, who);
}

/** Every required item uploaded and accepted by Rita on an August day (no figures read those days). */
async function compliantInAugust(t: Transaction, agent: Named, day: string) {
  for (const [index, label] of [LA, DI, IN].entries())
    await decided(t, label, agent, `${day}T09:0${index}:00.000Z`, `${day}T10:0${index}:00.000Z`, rita);
}

// --- The answer, compared whole ---

/**
 * The contract fixes the order of every list: atRisk soonest first, byMonth oldest first,
 * byReviewer by reviewed (most first), byDocument and byAgent by rejected then reviewed (most
 * first), topReasons by count (most first). This checks those orders, then puts rows that tie
 * (an order the contract leaves open) by name, so that the answer compares whole.
 */
function comparable(answer: Figures) {
  function inOrder<T>(rows: T[], key: (row: T) => number[], name: (row: T) => string, what: string): T[] {
    const descending = (a: T, b: T) => {
      const [x, y] = [key(a), key(b)];
      const index = x.findIndex((value, i) => value !== y[i]);
      return index < 0 ? 0 : (y[index] ?? 0) - (x[index] ?? 0);
    };
    rows.forEach((row, i) => {
      const before = rows[i - 1];
      if (before)
        expect(descending(before, row), `${what} out of order: ${JSON.stringify(rows)}`).toBeLessThanOrEqual(
          0,
        );
    });
    return [...rows].sort((a, b) => descending(a, b) || name(a).localeCompare(name(b)));
  }
  const { turnaround, rejections } = answer;
  return {
    ...answer,
    turnaround: {
      ...turnaround,
      byReviewer: inOrder(
        turnaround.byReviewer,
        (r) => [r.reviewed],
        (r) => r.user.lastName,
        'byReviewer',
      ),
    },
    rejections: {
      ...rejections,
      byDocument: inOrder(
        rejections.byDocument,
        (r) => [r.rejected, r.reviewed],
        (r) => r.label,
        'byDocument',
      ),
      byAgent: inOrder(
        rejections.byAgent,
        (r) => [r.rejected, r.reviewed],
        (r) => r.user.lastName,
        'byAgent',
      ),
      topReasons: inOrder(
        rejections.topReasons,
        (r) => [r.count],
        (r) => r.code,
        'topReasons',
      ),
    },
  };
}

/** A share compared to 10 decimals: rejected / reviewed as a float. */
const share = (value: number) => expect.closeTo(value, 10);

const EMPTY_RANGE_FIGURES = {
  turnaround: { reviewed: 0, medianSeconds: null, p90Seconds: null, byReviewer: [] },
  rejections: { rate: null, byDocument: [], byAgent: [], topReasons: [] },
  compliance: { closed: 0, compliantAtClose: 0, byMonth: [] },
};

describe('an empty portal', () => {
  it('answers zeros, nulls and empty lists for the default range, today included', async () => {
    expect(await figures()).toStrictEqual({
      // 2026-11-21 less 29 days is 2026-10-23: 30 days, today included.
      from: '2026-10-23',
      to: '2026-11-21',
      queue: { size: 0, oldestWaitingSeconds: null, medianWaitingSeconds: null },
      ...EMPTY_RANGE_FIGURES,
      atRisk: [],
      // No office exists: the breakdown by office is empty.
      offices: [],
    });
  });
});

describe('a known history', () => {
  // The files closing soon, which the tests name; every other file lives in the history alone.
  let a0: Transaction;
  let a3: Transaction;
  let a6: Transaction;
  let a7: Transaction;
  let a8: Transaction;
  let addendum: { code: string; label: string };

  beforeAll(async () => {
    setClock('2026-08-01T08:00:00.000Z');
    await ok(201, 'POST', '/api/admin/forms/transactions/insert', olga, {
      type: TYPE,
      role: 'Seller',
      forms: [LA, DI, IN],
      optionalForms: [HOA],
    });
    // A reason of the desk's own, relabelled at the end of the history.
    addendum = await ok<{ code: string; label: string }>(201, 'POST', '/api/admin/rejection-reasons', rita, {
      label: `Addendum unsigned ${RUN}`,
    });

    // --- Range S: September 2026 ---
    const t1 = await open(alice);
    const t2 = await open(bob);
    // E0: decided 1 ms before S starts (uploaded 20:00, rejected 23:59:59.999 on Aug 31): outside S.
    await decided(t2, LA, bob, '2026-08-31T20:00:00.000Z', '2026-08-31T23:59:59.999Z', sam, ['wrong-form']);
    // E1: decided at the first instant of S: in. 22:00 -> 00:00 = 7,200 s, Rita, accepted.
    await decided(t1, LA, alice, '2026-08-31T22:00:00.000Z', '2026-09-01T00:00:00.000Z', rita);
    // M1: 09:00 -> 10:00 = 3,600 s, Rita, accepted (Bob's LA, second version).
    await decided(t2, LA, bob, '2026-09-02T09:00:00.000Z', '2026-09-02T10:00:00.000Z', rita);
    // M2: 09:00 -> 14:00 = 18,000 s, Rita, rejected [addendum].
    await decided(t1, IN, alice, '2026-09-03T09:00:00.000Z', '2026-09-03T14:00:00.000Z', rita, [
      addendum.code,
    ]);
    // M3: 09:00 -> 09:30 = 1,800 s, Sam, rejected with two reasons [addendum, missing-signature].
    await decided(t1, IN, alice, '2026-09-04T09:00:00.000Z', '2026-09-04T09:30:00.000Z', sam, [
      addendum.code,
      'missing-signature',
    ]);
    // M4: 09:00 -> 10:30 = 5,400 s, Sam, accepted (third version of Alice's Inspection).
    await decided(t1, IN, alice, '2026-09-05T09:00:00.000Z', '2026-09-05T10:30:00.000Z', sam);
    // M5: 08:00 -> 18:00 = 36,000 s, Rita, accepted (a second file of an accepted item).
    await decided(t1, LA, alice, '2026-09-10T08:00:00.000Z', '2026-09-10T18:00:00.000Z', rita);
    // M6: 09:00 -> 09:45 = 2,700 s, Rita, rejected [addendum].
    await decided(t2, DI, bob, '2026-09-15T09:00:00.000Z', '2026-09-15T09:45:00.000Z', rita, [addendum.code]);
    // E2: decided at the last millisecond of S: in. 19:59:59.999 -> 23:59:59.999 = 14,400 s, Sam,
    // rejected with two reasons [missing-signature, illegible].
    await decided(t2, DI, bob, '2026-09-30T19:59:59.999Z', '2026-09-30T23:59:59.999Z', sam, [
      'missing-signature',
      'illegible',
    ]);
    // E3: decided 1 ms after S ends: outside S, first instant of C. 22:00 -> 00:00 = 7,200 s, Rita, accepted.
    await decided(t1, DI, alice, '2026-09-30T22:00:00.000Z', '2026-10-01T00:00:00.000Z', rita);

    // --- The default range's edges (both inside C) ---
    // F_out: 1 ms before 2026-10-23: 19:59:59.999 -> 23:59:59.999 = 14,400 s, Sam, rejected [wrong-property].
    await decided(t2, IN, bob, '2026-10-22T19:59:59.999Z', '2026-10-22T23:59:59.999Z', sam, [
      'wrong-property',
    ]);
    // F_in: the first instant of 2026-10-23: 22:00 -> 00:00 = 7,200 s, Rita, accepted.
    const t3 = await open(alice);
    await decided(t3, LA, alice, '2026-10-22T22:00:00.000Z', '2026-10-23T00:00:00.000Z', rita);

    // --- Closings (the closing key date; compliant by the end of that day, UTC) ---
    // P0 closes 2026-09-30 (the last day of S, the day before C), compliant since August.
    const p0 = await open(bob, '2026-09-30');
    await compliantInAugust(p0, bob, '2026-08-03');
    // C1 closes 2026-10-01 (the first day of C), compliant since August, and closed by the desk.
    const c1 = await open(alice, '2026-10-01');
    await compliantInAugust(c1, alice, '2026-08-04');
    setClock('2026-10-02T09:00:00.000Z');
    await ok(200, 'POST', `/api/admin/transactions/${c1._id}/close`, rita);
    // C2 closes 2026-10-20; its Inspection is accepted at 2026-10-21T00:00:00.000Z, 1 ms after the
    // end of its closing day: compliant now, not at close. 18:00 -> 00:00 = 21,600 s, Sam.
    const c2 = await open(bob, '2026-10-20');
    await decided(c2, LA, bob, '2026-08-05T09:00:00.000Z', '2026-08-05T10:00:00.000Z', rita);
    await decided(c2, DI, bob, '2026-08-05T09:01:00.000Z', '2026-08-05T10:01:00.000Z', rita);
    await decided(c2, IN, bob, '2026-10-20T18:00:00.000Z', '2026-10-21T00:00:00.000Z', sam);
    // C3 closes 2026-11-05; its Inspection is waived at the last millisecond of that day:
    // compliant at close (a waiver approval is no file decision: no turnaround).
    const c3 = await open(alice, '2026-11-05');
    await decided(c3, LA, alice, '2026-08-06T09:00:00.000Z', '2026-08-06T10:00:00.000Z', rita);
    await decided(c3, DI, alice, '2026-08-06T09:01:00.000Z', '2026-08-06T10:01:00.000Z', rita);
    setClock('2026-08-06T11:00:00.000Z');
    await askWaiver(c3, IN, alice);
    setClock('2026-11-05T23:59:59.999Z');
    await approveWaiver(c3, IN, rita);
    // C4 closes 2026-11-12 and is not compliant: its Inspection, uploaded 2026-11-14T12:00, waits.
    const c4 = await open(bob, '2026-11-12');
    await decided(c4, LA, bob, '2026-08-07T09:00:00.000Z', '2026-08-07T10:00:00.000Z', rita);
    await decided(c4, DI, bob, '2026-08-07T09:01:00.000Z', '2026-08-07T10:01:00.000Z', rita);
    setClock('2026-11-14T12:00:00.000Z');
    await attach(bob, c4, IN);
    // C5 closes 2026-11-15 (the last day of C), compliant since August.
    const c5 = await open(alice, '2026-11-15');
    await compliantInAugust(c5, alice, '2026-08-08');
    // Q0 closes 2026-11-16 (the day after C), compliant since August.
    const q0 = await open(alice, '2026-11-16');
    await compliantInAugust(q0, alice, '2026-08-09');

    // --- Files closing soon (today is 2026-11-21), opened in no date order ---
    // A6 closes in 6 days (2026-11-27): Listing Agreement accepted in August, two items missing.
    a6 = await open(bob, '2026-11-27');
    await decided(a6, LA, bob, '2026-08-10T09:00:00.000Z', '2026-08-10T10:00:00.000Z', rita);
    // A0 closes today: Disclosure rejected in August, Inspection uploaded 2026-11-20T12:00 and
    // waiting, Listing Agreement missing.
    a0 = await open(alice, '2026-11-21');
    await decided(a0, DI, alice, '2026-08-11T09:00:00.000Z', '2026-08-11T10:00:00.000Z', sam, [
      'blank-fields',
    ]);
    setClock('2026-11-20T12:00:00.000Z');
    await attach(alice, a0, IN);
    // A3 closes in 3 days (2026-11-24): all three uploaded this morning, waiting.
    a3 = await open(bob, '2026-11-24');
    setClock('2026-11-21T06:00:00.000Z');
    await attach(bob, a3, LA);
    setClock('2026-11-21T08:00:00.000Z');
    await attach(bob, a3, DI);
    setClock('2026-11-21T11:00:00.000Z');
    await attach(bob, a3, IN);
    // A7 closes in 7 days (2026-11-28), nothing uploaded: the 8th day counting today, not at risk.
    a7 = await open(alice, '2026-11-28');
    // A8 closes in 8 days (2026-11-29): not at risk. A waiver of its Inspection asked
    // 2026-11-19T12:00 and its Listing Agreement uploaded 2026-11-21T11:30 wait for the desk.
    a8 = await open(alice, '2026-11-29');
    setClock('2026-11-19T12:00:00.000Z');
    await askWaiver(a8, IN, alice);
    setClock('2026-11-21T11:30:00.000Z');
    await attach(alice, a8, LA);
    // K1 closes in 2 days (2026-11-23) but is compliant: not at risk.
    const k1 = await open(bob, '2026-11-23');
    await compliantInAugust(k1, bob, '2026-08-12');
    // X1 closes tomorrow (2026-11-22) and is closed. A closed file takes no change through the app,
    // so its Inspection is put back to 'awaiting review' in the database (as a file closed before
    // closing required compliance would be): only its being closed keeps it off the at-risk list,
    // and its waiting item (uploaded in August, older than anything) out of the queue.
    const x1 = await open(alice, '2026-11-22');
    await compliantInAugust(x1, alice, '2026-08-13');
    setClock('2026-08-14T09:00:00.000Z');
    await ok(200, 'POST', `/api/admin/transactions/${x1._id}/close`, rita);
    await database.db.transactionForm.update({ where: { id: formOf(x1, IN) }, data: { status: 'pending' } });
    // D1 closes tomorrow, is not compliant, has an upload waiting since 2026-11-01, and is deleted.
    const d1 = await open(bob, '2026-11-22');
    setClock('2026-11-01T12:00:00.000Z');
    await attach(bob, d1, LA);
    setClock('2026-11-02T12:00:00.000Z');
    await ok(200, 'DELETE', `/api/admin/transactions/${d1._id}`, rita);

    // --- Range J: July 2026, a changed decision and a file deleted since ---
    // T4 (Alice) closes 2026-07-31 and is not compliant. Its Listing Agreement, uploaded
    // 07-01T09:00, is accepted by Rita at 07-01T10:00, then rejected by Sam at 07-02T09:00
    // [wrong-form]: one version, counted once by its latest decision: 24 h = 86,400 s, Sam, rejected.
    const t4 = await open(alice, '2026-07-31');
    await decided(t4, LA, alice, '2026-07-01T09:00:00.000Z', '2026-07-01T10:00:00.000Z', rita);
    setClock('2026-07-02T09:00:00.000Z');
    await reject(t4, LA, sam, ['wrong-form']);
    // D2 (Bob) closes 2026-07-15; its Listing Agreement, uploaded 07-10T09:00, is rejected by Rita
    // at 09:20 [illegible] (1,200 s); then the file is deleted: the decision was made and counts,
    // the file's closing does not.
    const d2 = await open(bob, '2026-07-15');
    await decided(d2, LA, bob, '2026-07-10T09:00:00.000Z', '2026-07-10T09:20:00.000Z', rita, ['illegible']);
    setClock('2026-07-20T09:00:00.000Z');
    await ok(200, 'DELETE', `/api/admin/transactions/${d2._id}`, rita);

    // --- Range M: May 2026, two quick acceptances by Sam on Bob's file: 2 s and 3 s ---
    const t5 = await open(bob);
    await decided(t5, IN, bob, '2026-05-04T09:00:00.000Z', '2026-05-04T09:00:02.000Z', sam);
    await decided(t5, DI, bob, '2026-05-04T10:00:00.000Z', '2026-05-04T10:00:03.000Z', sam);

    // The desk rewords its reason after every rejection that gave it, and retires it: the
    // rejections still count it, under its new label.
    setClock('2026-11-20T09:00:00.000Z');
    await ok(200, 'PUT', `/api/admin/rejection-reasons/${addendum.code}`, rita, {
      label: `Unsigned addendum ${RUN}`,
      active: false,
    });

    setClock(NOW);
    // The setup did what it says: X1 closed with an item awaiting review; the review queue
    // holds the 7 entries listed in the queue test.
    const closed = await ok<Transaction>(200, 'GET', `/api/admin/transactions/individual/${x1._id}`, rita);
    expect(closed).toMatchObject({ status: 'closed', progress: { awaitingReview: 1 } });
    const queue = await ok<{ totalItems: number }>(200, 'GET', '/api/admin/review-queue?limit=100', rita);
    expect(queue.totalItems).toBe(7);
  });

  /**
   * What waits now (2026-11-21T12:00), in seconds:
   *   C4 Inspection upload   2026-11-14T12:00   7 days  = 604,800
   *   A8 Inspection waiver   2026-11-19T12:00   2 days  = 172,800
   *   A0 Inspection upload   2026-11-20T12:00   1 day   =  86,400
   *   A3 Listing Agreement   2026-11-21T06:00   6 h     =  21,600
   *   A3 Disclosure          2026-11-21T08:00   4 h     =  14,400
   *   A3 Inspection          2026-11-21T11:00   1 h     =   3,600
   *   A8 Listing Agreement   2026-11-21T11:30   30 min  =   1,800
   * Not X1's item (closed) nor D1's upload of 2026-11-01 (deleted).
   * 7 entries (odd): the median is the 4th of 1,800 3,600 14,400 [21,600] 86,400 172,800 604,800.
   */
  const QUEUE = { size: 7, oldestWaitingSeconds: 604_800, medianWaitingSeconds: 21_600 };

  /**
   * Open, undeleted, closing 2026-11-21 to 2026-11-27 and not compliant, soonest first:
   * A0 today (1 missing, 1 rejected, 1 waiting), A3 in 3 days (3 waiting), A6 in 6 days
   * (2 missing). Not A7 (in 7 days: the 8th day counting today), A8 (8 days), K1 (compliant),
   * X1 (closed), D1 (deleted), C4 (its closing day past).
   */
  function atRisk() {
    const row = (t: Transaction, owner: Named) => ({
      _id: t._id,
      streetAddress: t.streetAddress,
      city: 'Portland',
      state: 'ME',
      zip: '04101',
      type: TYPE,
      role: 'Seller',
      user: personOf(owner),
    });
    return [
      { transaction: row(a0, alice), closingDate: '2026-11-21', missing: 1, rejected: 1, awaitingReview: 1 },
      { transaction: row(a3, bob), closingDate: '2026-11-24', missing: 0, rejected: 0, awaitingReview: 3 },
      { transaction: row(a6, bob), closingDate: '2026-11-27', missing: 2, rejected: 0, awaitingReview: 0 },
    ];
  }

  /**
   * Range S, 2026-09-01 to 2026-09-30: E1 M1 M2 M3 M4 M5 M6 E2 (not E0, 1 ms before; not E3,
   * 1 ms after).
   */
  function septemberAnswer() {
    return {
      from: '2026-09-01',
      to: '2026-09-30',
      queue: QUEUE,
      turnaround: {
        // E1 7,200 M1 3,600 M2 18,000 M3 1,800 M4 5,400 M5 36,000 M6 2,700 E2 14,400
        reviewed: 8,
        // Sorted: 1,800 2,700 3,600 5,400 | 7,200 14,400 18,000 36,000.
        // percentile_cont(0.5) of 8: position 0.5 x 7 = 3.5: (5,400 + 7,200) / 2 = 6,300.
        medianSeconds: 6_300,
        // percentile_cont(0.9): position 0.9 x 7 = 6.3: 18,000 + 0.3 x (36,000 - 18,000) = 23,400.
        p90Seconds: 23_400,
        byReviewer: [
          // Rita: E1 7,200 M1 3,600 M2 18,000 M5 36,000 M6 2,700 -> 2,700 3,600 [7,200] 18,000 36,000.
          { user: personOf(rita), reviewed: 5, medianSeconds: 7_200 },
          // Sam: M3 1,800 M4 5,400 E2 14,400 -> the middle one, 5,400.
          { user: personOf(sam), reviewed: 3, medianSeconds: 5_400 },
        ],
      },
      rejections: {
        // Rejected: M2 M3 M6 E2 = 4 of 8.
        rate: share(4 / 8),
        // Most rejected first, then most reviewed: Inspection (2 of 3) before Disclosure (2 of 2).
        byDocument: [
          // Inspection: M2 M3 rejected, M4 accepted.
          { label: IN, reviewed: 3, rejected: 2, rate: share(2 / 3) },
          // Disclosure: M6, E2, both rejected.
          { label: DI, reviewed: 2, rejected: 2, rate: share(1) },
          // Listing Agreement: E1 M1 M5, all accepted.
          { label: LA, reviewed: 3, rejected: 0, rate: share(0) },
        ],
        // Both 2 rejected: Alice (5 reviewed) before Bob (3).
        byAgent: [
          // Alice's files: E1 M2 M3 M4 M5, of which M2 M3 rejected.
          { user: personOf(alice), reviewed: 5, rejected: 2, rate: share(2 / 5) },
          // Bob's: M1 M6 E2, of which M6 E2 rejected.
          { user: personOf(bob), reviewed: 3, rejected: 2, rate: share(2 / 3) },
        ],
        topReasons: [
          // addendum: M2, M3, M6 = 3, under the label it has now (reworded and retired after all three).
          { code: addendum.code, label: `Unsigned addendum ${RUN}`, count: 3 },
          // missing-signature: M3, E2 = 2 (each of them a rejection with two reasons).
          { code: 'missing-signature', label: 'Missing signature', count: 2 },
          // illegible: E2 = 1. Not wrong-form (E0, August) nor wrong-property (F_out, October).
          { code: 'illegible', label: 'Illegible or incomplete scan', count: 1 },
        ],
      },
      // Closing in September: P0 (2026-09-30, compliant since August).
      compliance: {
        closed: 1,
        compliantAtClose: 1,
        byMonth: [{ month: '2026-09', closed: 1, compliantAtClose: 1 }],
      },
      atRisk: atRisk(),
      offices: [],
    };
  }

  it('turnaround and rejections over a month: both reviewers, both agents, every reason, both edges in', async () => {
    expect(comparable(await figures({ from: '2026-09-01', to: '2026-09-30' }))).toStrictEqual(
      septemberAnswer(),
    );
  });

  it('a decision 1 ms outside either end of the range is left out; one at either end is in', async () => {
    // 2026-09-01 alone: E1 (00:00:00.000) only; E0 (1 ms before) out.
    const first = await figures({ from: '2026-09-01', to: '2026-09-01' });
    expect(comparable(first)).toStrictEqual({
      from: '2026-09-01',
      to: '2026-09-01',
      queue: QUEUE,
      turnaround: {
        reviewed: 1,
        medianSeconds: 7_200,
        p90Seconds: 7_200,
        byReviewer: [{ user: personOf(rita), reviewed: 1, medianSeconds: 7_200 }],
      },
      rejections: {
        rate: share(0),
        byDocument: [{ label: LA, reviewed: 1, rejected: 0, rate: share(0) }],
        byAgent: [{ user: personOf(alice), reviewed: 1, rejected: 0, rate: share(0) }],
        topReasons: [],
      },
      compliance: { closed: 0, compliantAtClose: 0, byMonth: [] },
      atRisk: atRisk(),
      offices: [],
    });
    // 2026-09-30 alone: E2 (23:59:59.999) only; E3 (1 ms after) out. P0 closes that day.
    const last = comparable(await figures({ from: '2026-09-30', to: '2026-09-30' }));
    expect(last).toStrictEqual({
      from: '2026-09-30',
      to: '2026-09-30',
      queue: QUEUE,
      turnaround: {
        reviewed: 1,
        medianSeconds: 14_400,
        p90Seconds: 14_400,
        byReviewer: [{ user: personOf(sam), reviewed: 1, medianSeconds: 14_400 }],
      },
      rejections: {
        rate: share(1),
        byDocument: [{ label: DI, reviewed: 1, rejected: 1, rate: share(1) }],
        byAgent: [{ user: personOf(bob), reviewed: 1, rejected: 1, rate: share(1) }],
        topReasons: [
          // One rejection, two reasons: each counted once (equal counts: by code here).
          { code: 'illegible', label: 'Illegible or incomplete scan', count: 1 },
          { code: 'missing-signature', label: 'Missing signature', count: 1 },
        ],
      },
      compliance: {
        closed: 1,
        compliantAtClose: 1,
        byMonth: [{ month: '2026-09', closed: 1, compliantAtClose: 1 }],
      },
      atRisk: atRisk(),
      offices: [],
    });
    // August 31 alone: E0 (23:59:59.999) is in, E1 (1 ms later) is not; the August acceptances of
    // that day: none (the setup's August days are the 3rd to the 14th).
    const before = await figures({ from: '2026-08-31', to: '2026-08-31' });
    expect(before.turnaround).toStrictEqual({
      // 20:00 -> 23:59:59.999 = 14,399.999 s, rounded to whole seconds: 14,400.
      reviewed: 1,
      medianSeconds: 14_400,
      p90Seconds: 14_400,
      byReviewer: [{ user: personOf(sam), reviewed: 1, medianSeconds: 14_400 }],
    });
    expect(before.rejections.topReasons).toStrictEqual([
      { code: 'wrong-form', label: 'Wrong form or outdated version', count: 1 },
    ]);
  });

  it('compliance over two months: closings in the range and not after today, compliant by the end of the closing day', async () => {
    expect(comparable(await figures({ from: '2026-10-01', to: '2026-11-15' }))).toStrictEqual({
      from: '2026-10-01',
      to: '2026-11-15',
      queue: QUEUE,
      turnaround: {
        // E3 7,200 (Rita), C2's Inspection 21,600 (Sam), F_out 14,400 (Sam), F_in 7,200 (Rita).
        reviewed: 4,
        // Sorted 7,200 7,200 14,400 21,600: position 1.5: (7,200 + 14,400) / 2 = 10,800.
        medianSeconds: 10_800,
        // Position 0.9 x 3 = 2.7: 14,400 + 0.7 x (21,600 - 14,400) = 14,400 + 5,040 = 19,440.
        p90Seconds: 19_440,
        // 2 each: a tie the contract leaves open.
        byReviewer: [
          // Rita: 7,200 and 7,200.
          { user: personOf(rita), reviewed: 2, medianSeconds: 7_200 },
          // Sam: (14,400 + 21,600) / 2 = 18,000.
          { user: personOf(sam), reviewed: 2, medianSeconds: 18_000 },
        ],
      },
      rejections: {
        // F_out alone rejected: 1 of 4.
        rate: share(1 / 4),
        // Inspection, the one rejected, first; Disclosure and Listing Agreement tie (0 of 1).
        byDocument: [
          { label: IN, reviewed: 2, rejected: 1, rate: share(1 / 2) }, // C2's, F_out
          { label: DI, reviewed: 1, rejected: 0, rate: share(0) }, // E3
          { label: LA, reviewed: 1, rejected: 0, rate: share(0) }, // F_in
        ],
        byAgent: [
          { user: personOf(bob), reviewed: 2, rejected: 1, rate: share(1 / 2) }, // C2's, F_out
          { user: personOf(alice), reviewed: 2, rejected: 0, rate: share(0) }, // E3, F_in
        ],
        topReasons: [{ code: 'wrong-property', label: 'Wrong property or parties', count: 1 }],
      },
      compliance: {
        // C1 (10-01, yes: August), C2 (10-20, no: last acceptance 10-21T00:00:00.000),
        // C3 (11-05, yes: waived at 23:59:59.999 that day), C4 (11-12, no: still waiting),
        // C5 (11-15, yes). Not P0 (09-30) nor Q0 (11-16). C1 being closed changes nothing.
        closed: 5,
        compliantAtClose: 3,
        byMonth: [
          { month: '2026-10', closed: 2, compliantAtClose: 1 }, // C1, C2
          { month: '2026-11', closed: 3, compliantAtClose: 2 }, // C3, C4, C5
        ],
      },
      atRisk: atRisk(),
      offices: [],
    });
  });

  it('a version counts once, by its latest decision; a deleted file keeps its decisions, not its closing', async () => {
    expect(comparable(await figures({ from: '2026-07-01', to: '2026-07-31' }))).toStrictEqual({
      from: '2026-07-01',
      to: '2026-07-31',
      queue: QUEUE,
      turnaround: {
        // T4's Listing Agreement 86,400 (Sam; Rita's acceptance was replaced), D2's 1,200 (Rita).
        reviewed: 2,
        // (1,200 + 86,400) / 2 = 43,800.
        medianSeconds: 43_800,
        // Position 0.9 x 1 = 0.9: 1,200 + 0.9 x (86,400 - 1,200) = 1,200 + 76,680 = 77,880.
        p90Seconds: 77_880,
        // 1 each: a tie.
        byReviewer: [
          { user: personOf(rita), reviewed: 1, medianSeconds: 1_200 },
          { user: personOf(sam), reviewed: 1, medianSeconds: 86_400 },
        ],
      },
      rejections: {
        // Both rejected.
        rate: share(1),
        byDocument: [{ label: LA, reviewed: 2, rejected: 2, rate: share(1) }],
        byAgent: [
          { user: personOf(alice), reviewed: 1, rejected: 1, rate: share(1) },
          { user: personOf(bob), reviewed: 1, rejected: 1, rate: share(1) },
        ],
        topReasons: [
          { code: 'illegible', label: 'Illegible or incomplete scan', count: 1 },
          { code: 'wrong-form', label: 'Wrong form or outdated version', count: 1 },
        ],
      },
      // T4 (07-31, not compliant); not D2 (07-15, deleted).
      compliance: {
        closed: 1,
        compliantAtClose: 0,
        byMonth: [{ month: '2026-07', closed: 1, compliantAtClose: 0 }],
      },
      atRisk: atRisk(),
      offices: [],
    });
  });

  it('medians are rounded to whole seconds half up, as the progress percentage rounds', async () => {
    expect(comparable(await figures({ from: '2026-05-01', to: '2026-05-31' }))).toStrictEqual({
      from: '2026-05-01',
      to: '2026-05-31',
      queue: QUEUE,
      turnaround: {
        reviewed: 2,
        // (2 + 3) / 2 = 2.5: 3 rounded half up (round-half-even would say 2).
        medianSeconds: 3,
        // 2 + 0.9 x (3 - 2) = 2.9: 3.
        p90Seconds: 3,
        byReviewer: [{ user: personOf(sam), reviewed: 2, medianSeconds: 3 }],
      },
      rejections: {
        rate: share(0),
        // 0 of 1 each: a tie.
        byDocument: [
          { label: DI, reviewed: 1, rejected: 0, rate: share(0) },
          { label: IN, reviewed: 1, rejected: 0, rate: share(0) },
        ],
        byAgent: [{ user: personOf(bob), reviewed: 2, rejected: 0, rate: share(0) }],
        topReasons: [],
      },
      compliance: { closed: 0, compliantAtClose: 0, byMonth: [] },
      atRisk: atRisk(),
      offices: [],
    });
  });

  it('closings after today are not counted, even inside the range', async () => {
    expect(comparable(await figures({ from: '2026-11-01', to: '2026-11-30' }))).toStrictEqual({
      from: '2026-11-01',
      to: '2026-11-30',
      queue: QUEUE,
      // No file decision in November (C3's waiver approval is none).
      turnaround: { reviewed: 0, medianSeconds: null, p90Seconds: null, byReviewer: [] },
      rejections: { rate: null, byDocument: [], byAgent: [], topReasons: [] },
      compliance: {
        // C3 (yes), C4 (no), C5 (yes), Q0 (yes), A0 (today, not compliant). Not K1 (11-23,
        // compliant), X1, D1 (11-22), A3 (11-24), A6 (11-27), A7 (11-28), A8 (11-29): after today.
        closed: 5,
        compliantAtClose: 3,
        byMonth: [{ month: '2026-11', closed: 5, compliantAtClose: 3 }],
      },
      atRisk: atRisk(),
      offices: [],
    });
  });

  it('the default range is the last 30 days, today included, in UTC', async () => {
    const expected = {
      from: '2026-10-23',
      to: '2026-11-21',
      queue: QUEUE,
      // F_in (2026-10-23T00:00:00.000, 7,200 s, Rita, Alice's Listing Agreement) alone;
      // F_out (1 ms earlier) and C2's Inspection (10-21) are out.
      turnaround: {
        reviewed: 1,
        medianSeconds: 7_200,
        p90Seconds: 7_200,
        byReviewer: [{ user: personOf(rita), reviewed: 1, medianSeconds: 7_200 }],
      },
      rejections: {
        rate: share(0),
        byDocument: [{ label: LA, reviewed: 1, rejected: 0, rate: share(0) }],
        byAgent: [{ user: personOf(alice), reviewed: 1, rejected: 0, rate: share(0) }],
        topReasons: [],
      },
      // C3 (yes), C4 (no), C5 (yes), Q0 (yes), A0 (today, no).
      compliance: {
        closed: 5,
        compliantAtClose: 3,
        byMonth: [{ month: '2026-11', closed: 5, compliantAtClose: 3 }],
      },
      atRisk: atRisk(),
      offices: [],
    };
    expect(comparable(await figures())).toStrictEqual(expected);
    expect(comparable(await figures({ from: '2026-10-23', to: '2026-11-21' }))).toStrictEqual(expected);

    // The last millisecond of the day: still 2026-10-23 to 2026-11-21.
    setClock('2026-11-21T23:59:59.999Z');
    try {
      const late = await figures();
      expect([late.from, late.to, late.turnaround.reviewed]).toEqual(['2026-10-23', '2026-11-21', 1]);
      expect(late.atRisk.map((row) => row.transaction._id)).toEqual([a0._id, a3._id, a6._id]);
      // Midnight UTC: a new day, 2026-10-24 to 2026-11-22, and F_in has left the range; A0's
      // closing day is past and A7 (2026-11-28) is now within 7 days, today included.
      setClock('2026-11-22T00:00:00.000Z');
      const next = await figures();
      expect([next.from, next.to, next.turnaround.reviewed]).toEqual(['2026-10-24', '2026-11-22', 0]);
      expect(next.atRisk.map((row) => row.transaction._id)).toEqual([a3._id, a6._id, a7._id]);
    } finally {
      setClock(NOW);
    }
  });

  it('half a range: a missing `to` is today, a missing `from` the 30 days ending `to`', async () => {
    const fromOnly = await figures({ from: '2026-09-01' });
    expect([fromOnly.from, fromOnly.to]).toEqual(['2026-09-01', '2026-11-21']);
    // 2026-09-30 less 29 days is 2026-09-01: range S exactly.
    expect(comparable(await figures({ to: '2026-09-30' }))).toStrictEqual(septemberAnswer());
    // A `from` after today is a reversed range; one too far back a range too long:
    // 2025-10-18 to 2026-11-21 is 365 + 31 + 3 = 399 days apart (400 days: allowed),
    // 2025-10-17 one more.
    await refused(400, keyDateMessages.rangeReversed, 'GET', '/api/admin/dashboard?from=2026-11-22', rita);
    await refused(
      400,
      keyDateMessages.rangeTooLong(MAX_DASHBOARD_DAYS),
      'GET',
      '/api/admin/dashboard?from=2025-10-17',
      rita,
    );
    const longest = await ok<DashboardAnswer>(200, 'GET', '/api/admin/dashboard?from=2025-10-18', rita);
    expect([longest.from, longest.to]).toEqual(['2025-10-18', '2026-11-21']);
  });

  it('a range with nothing in it: zeros, nulls and empty lists (the queue and the files at risk are now)', async () => {
    for (const [from, to] of [
      ['2026-06-01', '2026-06-30'],
      // D2's closing day (deleted since).
      ['2026-07-15', '2026-07-15'],
      ['2027-01-01', '2027-01-31'],
    ] as const) {
      expect(await figures({ from, to })).toStrictEqual({
        from,
        to,
        queue: QUEUE,
        ...EMPTY_RANGE_FIGURES,
        atRisk: atRisk(),
        offices: [],
      });
    }
  });

  it('GET /api/admin/dashboard answers the same figures; an agent gets 403, nobody 401', async () => {
    const url = '/api/admin/dashboard?from=2026-09-01&to=2026-09-30';
    const viaRest = await ok<DashboardAnswer>(200, 'GET', url, sam);
    expect(comparable(withoutMoney(viaRest))).toStrictEqual(septemberAnswer());
    expect(withoutMoney(viaRest)).toStrictEqual(await figures({ from: '2026-09-01', to: '2026-09-30' }, sam));
    // Without a range: the default one.
    const byDefault = await ok<DashboardAnswer>(200, 'GET', '/api/admin/dashboard', rita);
    expect([byDefault.from, byDefault.to]).toEqual(['2026-10-23', '2026-11-21']);

    for (const agent of [alice, bob]) {
      expect((await call('GET', url, agent)).statusCode).toBe(403);
      await expect(figures({ from: '2026-09-01', to: '2026-09-30' }, agent)).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    }
    expect((await call('GET', url)).statusCode).toBe(401);
  });

  it('refuses a bad range with its message (400), never 500', async () => {
    const cases: [string, string][] = [
      ['from=2026-11-15&to=2026-11-14', keyDateMessages.rangeReversed],
      // 2026-01-01 to 2027-02-05 is 365 + 35 = 400 days apart: 401 days, one too many.
      ['from=2026-01-01&to=2027-02-05', keyDateMessages.rangeTooLong(MAX_DASHBOARD_DAYS)],
      ['from=2025-01-01&to=2026-11-21', keyDateMessages.rangeTooLong(MAX_DASHBOARD_DAYS)],
      ['from=2026-02-30&to=2026-03-01', keyDateMessages.dateInvalid],
      ['from=2026-11-01&to=tomorrow', keyDateMessages.dateInvalid],
      ['from=2026-1-5&to=2026-11-21', keyDateMessages.dateInvalid],
      ['from=21%2F11%2F2026', keyDateMessages.dateInvalid],
      ['to=2026-13-01', keyDateMessages.dateInvalid],
      ['from=2026-11-01T00:00:00Z&to=2026-11-21', keyDateMessages.dateInvalid],
    ];
    for (const [query, message] of cases) {
      await refused(400, message, 'GET', `/api/admin/dashboard?${query}`, rita);
    }
    await expect(figures({ from: '2026-11-15', to: '2026-11-14' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(figures({ from: '2026-02-30', to: '2026-03-01' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });

    // 2026-01-01 to 2027-02-04: 400 days, today included: the longest range there is.
    const longest = await ok<DashboardAnswer>(
      200,
      'GET',
      '/api/admin/dashboard?from=2026-01-01&to=2027-02-04',
      rita,
    );
    expect([longest.from, longest.to]).toEqual(['2026-01-01', '2027-02-04']);
    // A single day is a range.
    expect((await call('GET', '/api/admin/dashboard?from=2026-11-21&to=2026-11-21', rita)).statusCode).toBe(
      200,
    );

    // Odd queries: answered 200 or 400, never a server error.
    for (const query of [
      'from=&to=',
      'from=2026-11-01&from=2026-11-02',
      'from[]=2026-11-01',
      'from=%00&to=%FF',
      `from=${'9'.repeat(5000)}`,
      'from=0000-00-00&to=9999-99-99',
      'from=1899-12-31&to=1900-01-01',
      'unknown=1',
    ]) {
      const res = await call('GET', `/api/admin/dashboard?${query}`, rita);
      expect([200, 400], `${query}: ${res.body}`).toContain(res.statusCode);
    }
  });

  it('an even queue: its median is the mean of the two middle waits', async () => {
    // Alice uploads A8's optional HOA Documents now: an 8th entry, waiting 0 s. A8 closes in 8
    // days, so no file at risk changes.
    await attach(alice, a8, HOA);
    // 0 1,800 3,600 [14,400 21,600] 86,400 172,800 604,800: (14,400 + 21,600) / 2 = 18,000.
    const answer = await figures({ from: '2026-06-01', to: '2026-06-30' });
    expect(answer).toStrictEqual({
      from: '2026-06-01',
      to: '2026-06-30',
      queue: { size: 8, oldestWaitingSeconds: 604_800, medianWaitingSeconds: 18_000 },
      ...EMPTY_RANGE_FIGURES,
      atRisk: atRisk(),
      offices: [],
    });
    // An hour later every entry has waited 3,600 s more: 608,400 oldest, 21,600 median.
    setClock('2026-11-21T13:00:00.000Z');
    try {
      expect((await figures({ from: '2026-06-01', to: '2026-06-30' })).queue).toStrictEqual({
        size: 8,
        oldestWaitingSeconds: 608_400,
        medianWaitingSeconds: 21_600,
      });
      // 999 ms short of the next second the oldest still reads 608,400 s: whole seconds, rounded
      // down as the review queue shows each wait.
      setClock('2026-11-21T13:00:00.999Z');
      const { queue } = await figures({ from: '2026-06-01', to: '2026-06-30' });
      expect([queue.size, queue.oldestWaitingSeconds]).toEqual([8, 608_400]);
    } finally {
      setClock(NOW);
    }
  });
});
