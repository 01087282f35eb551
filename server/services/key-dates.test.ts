import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complianceMessages, keyDateMessages } from '../../shared/messages';
import { KEY_DATE_LABELS, type KeyDatesAnswer } from '../../shared/schemas/key-dates';
import type { Transaction, TransactionsPage } from '../../shared/schemas/transactions';
import { createAdmin, createTemplate, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { type Actor, restCalls } from '../test/rest-calls';

/**
 * Key dates of a transaction through the REST paths: the answer's shape and
 * labels, validation messages, who may read and replace them, the closed file, ids kept across
 * edits, the audit trail, closingDate / nextDeadline / overdue on every transaction answer (in
 * the agent's timezone) and the template's suggested kinds.
 */

const database = setupTestDatabase();
// 03:00 UTC on Nov 21: still Nov 20 in New York, already Nov 21 (noon) in Tokyo.
const clock = new TestClock(new Date('2026-11-21T03:00:00.000Z'));
let app: FastifyInstance;
let agent: Actor;
let other: Actor;
let admin: Actor;
const RUN = Date.now().toString(36);
const TYPE = `KeyDates-${RUN}`;

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  agent = await createUser(database.db);
  other = await createUser(database.db);
  admin = await createAdmin(database.db);
  await createTemplate(database.db, {
    type: TYPE,
    role: 'Seller',
    documents: ['Disclosure'],
    keyDateKinds: ['inspection', 'closing', 'appraisal'],
  });
});
afterAll(() => app?.close());

const { call, ok, refused } = restCalls(() => app, clock);
const datesUrl = (id: string) => `/api/transactions/${id}/dates`;
const put = (who: Actor, id: string, dates: unknown[]) =>
  ok<KeyDatesAnswer>(200, 'PUT', datesUrl(id), who, { dates });

let streets = 0;
const deal = (userId = agent.id, overrides: Parameters<typeof createTransaction>[1] = { userId }) =>
  createTransaction(database.db, { streetAddress: `${++streets} Key Date Rd ${RUN}`, ...overrides, userId });

describe('GET and PUT /api/transactions/:id/dates', () => {
  it('answers {dates, suggestedKinds}; every kind gets its label, earliest date first', async () => {
    const t = await deal();
    expect(await ok(200, 'GET', datesUrl(t.id), agent)).toStrictEqual({ dates: [], suggestedKinds: [] });
    const kinds = Object.keys(KEY_DATE_LABELS);
    const answer = await put(
      agent,
      t.id,
      kinds.map((kind, index) => ({ kind, date: `2027-01-${String(20 - index).padStart(2, '0')}` })),
    );
    expect(answer.dates).toHaveLength(kinds.length);
    // Earliest first: the input ran from the 20th downwards.
    expect(answer.dates.map((date) => date.date)).toEqual(
      kinds.map((_, index) => `2027-01-${String(20 - index).padStart(2, '0')}`).reverse(),
    );
    for (const date of answer.dates) {
      expect(Object.keys(date).sort()).toEqual(['_id', 'date', 'done', 'kind', 'label']);
      expect(date.label).toBe(KEY_DATE_LABELS[date.kind as keyof typeof KEY_DATE_LABELS]);
      expect(date.done).toBe(false);
      expect(date._id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(await ok(200, 'GET', datesUrl(t.id), agent)).toStrictEqual(answer);
  });

  it('a custom date keeps its label and needs one', async () => {
    const t = await deal();
    const answer = await put(agent, t.id, [
      { kind: 'custom', label: 'Final walkthrough', date: '2027-02-01' },
    ]);
    expect(answer.dates).toEqual([
      {
        _id: expect.any(String),
        kind: 'custom',
        label: 'Final walkthrough',
        date: '2027-02-01',
        done: false,
      },
    ]);
    for (const dates of [
      [{ kind: 'custom', date: '2027-02-01' }],
      [{ kind: 'custom', label: '   ', date: '2027-02-01' }],
    ]) {
      await refused(400, keyDateMessages.customLabelRequired, 'PUT', datesUrl(t.id), agent, { dates });
    }
    expect((await ok<KeyDatesAnswer>(200, 'GET', datesUrl(t.id), agent)).dates).toEqual(answer.dates);
  });

  it('refuses invalid days, unknown kinds and duplicates with their messages, changing nothing', async () => {
    const t = await deal();
    const kept = await put(agent, t.id, [{ kind: 'closing', date: '2027-03-01' }]);
    for (const date of ['2026-02-30', '2027-13-01', '2027-1-5', '01/05/2027', '', '2027-02-29']) {
      await refused(400, keyDateMessages.dateInvalid, 'PUT', datesUrl(t.id), agent, {
        dates: [{ kind: 'inspection', date }],
      });
    }
    await refused(400, keyDateMessages.kindInvalid, 'PUT', datesUrl(t.id), agent, {
      dates: [{ kind: 'birthday', date: '2027-03-01' }],
    });
    await refused(400, keyDateMessages.duplicate('Inspection deadline'), 'PUT', datesUrl(t.id), agent, {
      dates: [
        { kind: 'inspection', date: '2027-03-01' },
        { kind: 'inspection', date: '2027-03-05' },
      ],
    });
    await refused(400, keyDateMessages.duplicate('walkthrough'), 'PUT', datesUrl(t.id), agent, {
      dates: [
        { kind: 'custom', label: 'Walkthrough', date: '2027-03-01' },
        { kind: 'custom', label: 'walkthrough', date: '2027-03-05' },
      ],
    });
    expect(await ok(200, 'GET', datesUrl(t.id), agent)).toStrictEqual(kept);
    // A leap day is a real day.
    expect((await put(agent, t.id, [{ kind: 'closing', date: '2028-02-29' }])).dates[0]?.date).toBe(
      '2028-02-29',
    );
  });

  it('takes at most 30 dates; an unknown transaction is 404', async () => {
    const t = await deal();
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ kind: 'custom', label: `Step ${i}`, date: '2027-03-01' }));
    expect((await put(agent, t.id, many(30))).dates).toHaveLength(30);
    await refused(400, keyDateMessages.tooMany(30), 'PUT', datesUrl(t.id), agent, { dates: many(31) });
    expect((await ok<KeyDatesAnswer>(200, 'GET', datesUrl(t.id), agent)).dates).toHaveLength(30);
    expect((await put(agent, t.id, [])).dates).toEqual([]);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('GET', datesUrl(unknown), admin)).statusCode).toBe(404);
    expect((await call('PUT', datesUrl(unknown), admin, { dates: [] })).statusCode).toBe(404);
  });

  it("is the owner agent's or an admin's: another agent 404, anonymous 401", async () => {
    const t = await deal();
    const dates = [{ kind: 'inspection', date: '2027-04-01' }];
    expect((await call('GET', datesUrl(t.id), other)).statusCode).toBe(404);
    expect((await call('PUT', datesUrl(t.id), other, { dates })).statusCode).toBe(404);
    expect((await call('GET', datesUrl(t.id))).statusCode).toBe(401);
    expect((await call('PUT', datesUrl(t.id), undefined, { dates })).statusCode).toBe(401);
    expect((await ok<KeyDatesAnswer>(200, 'GET', datesUrl(t.id), agent)).dates).toEqual([]);

    const byAdmin = await put(admin, t.id, dates);
    expect(byAdmin.dates.map((date) => date.kind)).toEqual(['inspection']);
    expect(await ok(200, 'GET', datesUrl(t.id), admin)).toStrictEqual(byAdmin);
    // A deleted transaction is gone for everyone.
    const gone = await deal(agent.id, { userId: agent.id, deletedAt: new Date() });
    expect((await call('GET', datesUrl(gone.id), agent)).statusCode).toBe(404);
    expect((await call('PUT', datesUrl(gone.id), admin, { dates })).statusCode).toBe(404);
  });

  it("409 'This transaction is closed' while closed, for the agent and an admin; still readable", async () => {
    const t = await deal();
    await put(agent, t.id, [{ kind: 'closing', date: '2027-05-01' }]);
    await database.db.transaction.update({ where: { id: t.id }, data: { closedAt: new Date() } });
    for (const who of [agent, admin]) {
      await refused(409, complianceMessages.transactionClosed, 'PUT', datesUrl(t.id), who, {
        dates: [{ kind: 'closing', date: '2027-06-01' }],
      });
    }
    const answer = await ok<KeyDatesAnswer>(200, 'GET', datesUrl(t.id), agent);
    expect(answer.dates.map((date) => date.date)).toEqual(['2027-05-01']);
  });

  it("keeps each date's id across edits (matched by kind, custom by label), removes the ones left out", async () => {
    const t = await deal();
    const first = await put(agent, t.id, [
      { kind: 'inspection', date: '2027-01-05' },
      { kind: 'custom', label: 'Survey', date: '2027-01-07' },
      { kind: 'closing', date: '2027-01-30' },
    ]);
    const idOf = (answer: KeyDatesAnswer, label: string) => answer.dates.find((d) => d.label === label)?._id;
    const second = await put(agent, t.id, [
      { kind: 'closing', date: '2027-02-02' },
      { kind: 'custom', label: 'survey', date: '2027-01-08', done: true },
      { kind: 'inspection', date: '2027-01-06', done: true },
    ]);
    expect(idOf(second, 'Inspection deadline')).toBe(idOf(first, 'Inspection deadline'));
    expect(idOf(second, 'Closing')).toBe(idOf(first, 'Closing'));
    expect(idOf(second, 'survey')).toBe(idOf(first, 'Survey'));
    expect(second.dates.map((d) => [d.label, d.date, d.done])).toEqual([
      ['Inspection deadline', '2027-01-06', true],
      ['survey', '2027-01-08', true],
      ['Closing', '2027-02-02', false],
    ]);
    const third = await put(agent, t.id, [{ kind: 'closing', date: '2027-02-02' }]);
    expect(third.dates.map((d) => d._id)).toEqual([idOf(first, 'Closing')]);
    expect(await database.db.keyDate.count({ where: { transactionId: t.id } })).toBe(1);
  });

  it('writes an audit event with the dates before and after', async () => {
    const t = await deal();
    const first = await put(agent, t.id, [{ kind: 'inspection', date: '2027-01-05' }]);
    const second = await put(admin, t.id, [{ kind: 'inspection', date: '2027-01-09' }]);
    const events = await database.db.auditEvent.findMany({
      where: { transactionId: t.id, action: 'transaction.key-dates' },
      orderBy: { createdAt: 'asc' },
    });
    expect(events).toHaveLength(2);
    expect(events[0]?.actorId).toBe(agent.id);
    expect(events[0]?.before).toEqual([]);
    expect(events[0]?.after).toEqual(first.dates);
    expect(events[1]?.actorId).toBe(admin.id);
    expect(events[1]?.before).toEqual(first.dates);
    expect(events[1]?.after).toEqual(second.dates);
  });

  it("offers the template's key date kinds that have no date yet as suggestedKinds", async () => {
    const t = await deal(agent.id, { userId: agent.id, type: TYPE, role: 'Seller' });
    expect((await ok<KeyDatesAnswer>(200, 'GET', datesUrl(t.id), agent)).suggestedKinds).toEqual([
      'inspection',
      'closing',
      'appraisal',
    ]);
    const answer = await put(agent, t.id, [{ kind: 'closing', date: '2027-01-05' }]);
    expect(answer.suggestedKinds).toEqual(['inspection', 'appraisal']);
  });
});

describe('closingDate, nextDeadline and overdue on transaction answers', () => {
  type Deadlines = Pick<Transaction, 'closingDate' | 'nextDeadline' | 'overdue'>;
  const deadlinesOf = (t: Deadlines) => ({
    closingDate: t.closingDate,
    nextDeadline: t.nextDeadline,
    overdue: t.overdue,
  });

  /** The deadlines as the detail pages and both lists (agent's and admin's) answer them. */
  async function everyAnswer(owner: Actor, t: { id: string; streetAddress: string }) {
    const detail = await ok<Transaction>(
      200,
      'GET',
      `/api/transactions/individual/${t.id}/${owner.id}`,
      owner,
    );
    const adminDetail = await ok<Transaction>(
      200,
      'GET',
      `/api/admin/transactions/individual/${t.id}`,
      admin,
    );
    const list = await ok<TransactionsPage>(200, 'GET', `/api/transactions/${owner.id}?limit=100`, owner);
    const adminList = await ok<TransactionsPage>(200, 'GET', '/api/admin/transactions?limit=100', admin);
    const search = await ok<TransactionsPage>(
      200,
      'GET',
      `/api/admin/transactions/search/${encodeURIComponent(t.streetAddress)}`,
      admin,
    );
    const row = (page: TransactionsPage) => page.transactions.find((x) => x._id === t.id);
    return [detail, adminDetail, row(list), row(adminList), row(search)].map((answer) => {
      if (!answer) throw new Error('the transaction is missing from a list');
      return deadlinesOf(answer);
    });
  }

  it('are null without dates', async () => {
    const t = await deal();
    for (const answer of await everyAnswer(agent, t)) {
      expect(answer).toEqual({ closingDate: null, nextDeadline: null, overdue: null });
    }
  });

  it("take 'today' in the agent's timezone: a date of Nov 20 is due in New York and overdue in Tokyo", async () => {
    const newYork = await createUser(database.db);
    const tokyo = await createUser(database.db, { timezone: 'Asia/Tokyo' });
    const dates = [
      { kind: 'inspection', date: '2026-11-20' },
      { kind: 'appraisal', date: '2026-11-19', done: true },
      { kind: 'financing', date: '2026-11-18' },
      { kind: 'closing', date: '2026-12-12' },
    ];
    const inNewYork = await deal(newYork.id);
    await put(newYork, inNewYork.id, dates);
    const inTokyo = await deal(tokyo.id);
    await put(tokyo, inTokyo.id, dates);

    for (const answer of await everyAnswer(newYork, inNewYork)) {
      expect(answer).toEqual({
        closingDate: '2026-12-12',
        nextDeadline: { kind: 'inspection', label: 'Inspection deadline', date: '2026-11-20' },
        overdue: { kind: 'financing', label: 'Financing contingency', date: '2026-11-18' },
      });
    }
    for (const answer of await everyAnswer(tokyo, inTokyo)) {
      expect(answer).toEqual({
        closingDate: '2026-12-12',
        nextDeadline: { kind: 'closing', label: 'Closing', date: '2026-12-12' },
        overdue: { kind: 'financing', label: 'Financing contingency', date: '2026-11-18' },
      });
    }
    // Done dates are neither next nor overdue; the closing date stays even when done.
    await put(
      tokyo,
      inTokyo.id,
      dates.map((date) => ({ ...date, done: true })),
    );
    for (const answer of await everyAnswer(tokyo, inTokyo)) {
      expect(answer).toEqual({ closingDate: '2026-12-12', nextDeadline: null, overdue: null });
    }
  });

  it('create with closingDate stores a closing date; without it none', async () => {
    const created = await ok<Transaction>(201, 'POST', '/api/transactions', agent, {
      type: TYPE,
      role: 'Seller',
      streetAddress: `1 Closing Ct ${RUN}`,
      city: 'Portland',
      state: 'ME',
      zip: '04101',
      closingDate: '2027-01-15',
    });
    expect(deadlinesOf(created)).toEqual({
      closingDate: '2027-01-15',
      nextDeadline: { kind: 'closing', label: 'Closing', date: '2027-01-15' },
      overdue: null,
    });
    const dates = await ok<KeyDatesAnswer>(200, 'GET', datesUrl(created._id), agent);
    expect(dates.dates.map(({ kind, label, date, done }) => ({ kind, label, date, done }))).toEqual([
      { kind: 'closing', label: 'Closing', date: '2027-01-15', done: false },
    ]);
    expect(dates.suggestedKinds).toEqual(['inspection', 'appraisal']);

    const plain = await ok<Transaction>(201, 'POST', '/api/transactions', agent, {
      type: TYPE,
      role: 'Seller',
      streetAddress: `2 Closing Ct ${RUN}`,
      city: 'Portland',
      state: 'ME',
      zip: '04101',
    });
    expect(plain.closingDate).toBeNull();
    await refused(400, keyDateMessages.dateInvalid, 'POST', '/api/transactions', agent, {
      type: TYPE,
      role: 'Seller',
      streetAddress: `3 Closing Ct ${RUN}`,
      city: 'Portland',
      state: 'ME',
      zip: '04101',
      closingDate: '2027-02-30',
    });
  });
});
