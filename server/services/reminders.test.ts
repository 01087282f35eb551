import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../db/client';
import type { AppDeps } from '../deps';
import { accessTokenFor, createAdmin, createTransaction, createUser } from '../test/factories';
import {
  buildTestApp,
  serviceContext,
  setupTestDatabase,
  TestClock,
  testContext,
  testDeps,
} from '../test/harness';
import { type Actor, restCalls } from '../test/rest-calls';
import { createCaller } from '../trpc/router';
import { sweepDueReminders, sweepReminders } from './reminders';

/**
 * Key date reminders on a TestClock, no real waiting: rows scheduled at 08:00 in
 * the agent's timezone (DST included), the sweep saying each reminder exactly once at its instant,
 * rescheduling when a date, its done flag, the file's state or the agent's preferences change,
 * two sweeps racing, and mails following the keyDate preference.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-20T12:00:00.000Z'));
let deps: AppDeps;
let app: FastifyInstance;
let admin: Actor;

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  admin = await createAdmin(database.db);
});
afterAll(() => app?.close());

const { ok } = restCalls(() => app, clock);

/** Moves the test clock to an instant (forwards or back). */
const setClock = (iso: string) => clock.advance(Date.parse(iso) - clock.now().getTime());
const sweep = () => sweepReminders(serviceContext(deps));

let streets = 0;
/** An agent (timezone and days as given) with one open file at "<n> Main St". */
async function agentWithDeal(options: { timezone?: string; reminderDays?: number[] } = {}) {
  const agent = await createUser(database.db, {
    ...(options.timezone ? { timezone: options.timezone } : {}),
    ...(options.reminderDays ? { reminderDays: options.reminderDays } : {}),
  });
  const street = `${++streets * 10 + 2} Main St`;
  const deal = await createTransaction(database.db, {
    userId: agent.id,
    streetAddress: street,
    documents: [],
  });
  return { agent, deal, street };
}

const setDates = (who: Actor, dealId: string, dates: { kind: string; date: string; done?: boolean }[]) =>
  ok(200, 'PUT', `/api/transactions/${dealId}/dates`, who, { dates });

type ReminderRow = { days_before: number; for_date: string; due_at: Date; sent: boolean };
const remindersOf = (dealId: string) =>
  database.db.$queryRaw<ReminderRow[]>`
    SELECT r.days_before, to_char(r.for_date, 'YYYY-MM-DD') AS for_date, r.due_at, r.sent_at IS NOT NULL AS sent
      FROM reminders r JOIN key_dates k ON k.id = r.key_date_id
     WHERE k.transaction_id = ${dealId}::uuid
     ORDER BY r.due_at, r.days_before DESC`;
const dueTimes = async (dealId: string) =>
  (await remindersOf(dealId)).map((row) => [row.for_date, row.days_before, row.due_at.toISOString()]);

/** The reminders said to a user (their keyDate notifications), oldest first. */
const messagesOf = async (userId: string) =>
  (
    await database.db.notification.findMany({
      where: { userId, event: 'keyDate' },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { message: true },
    })
  ).map((row) => row.message);

const mailsOf = (userId: string) =>
  database.db.$queryRaw<{ kind: string }[]>`SELECT kind FROM mail_outbox WHERE user_id = ${userId}::uuid`;

describe("scheduling at 08:00 in the agent's timezone", () => {
  it('New York: 3 and 1 days before, the day and the day after, at 13:00 UTC (EST)', async () => {
    setClock('2026-11-20T12:00:00.000Z');
    const { agent, deal } = await agentWithDeal();
    await setDates(agent, deal.id, [{ kind: 'inspection', date: '2026-12-01' }]);
    expect(await dueTimes(deal.id)).toEqual([
      ['2026-12-01', 3, '2026-11-28T13:00:00.000Z'],
      ['2026-12-01', 1, '2026-11-30T13:00:00.000Z'],
      ['2026-12-01', 0, '2026-12-01T13:00:00.000Z'],
      ['2026-12-01', -1, '2026-12-02T13:00:00.000Z'],
    ]);
  });

  it('Tokyo: 08:00 JST is 23:00 UTC the day before', async () => {
    setClock('2026-11-20T12:00:00.000Z');
    const { agent, deal } = await agentWithDeal({ timezone: 'Asia/Tokyo' });
    await setDates(agent, deal.id, [{ kind: 'inspection', date: '2026-12-01' }]);
    expect(await dueTimes(deal.id)).toEqual([
      ['2026-12-01', 3, '2026-11-27T23:00:00.000Z'],
      ['2026-12-01', 1, '2026-11-29T23:00:00.000Z'],
      ['2026-12-01', 0, '2026-11-30T23:00:00.000Z'],
      ['2026-12-01', -1, '2026-12-01T23:00:00.000Z'],
    ]);
  });

  it('across the end of daylight saving time (Nov 1, 2026 in New York): 12:00 UTC before, 13:00 after', async () => {
    setClock('2026-10-20T12:00:00.000Z');
    const { agent, deal } = await agentWithDeal();
    await setDates(agent, deal.id, [{ kind: 'closing', date: '2026-11-03' }]);
    expect(await dueTimes(deal.id)).toEqual([
      ['2026-11-03', 3, '2026-10-31T12:00:00.000Z'],
      ['2026-11-03', 1, '2026-11-02T13:00:00.000Z'],
      ['2026-11-03', 0, '2026-11-03T13:00:00.000Z'],
      ['2026-11-03', -1, '2026-11-04T13:00:00.000Z'],
    ]);
    setClock('2026-10-31T11:59:59.000Z');
    await sweep();
    expect(await messagesOf(agent.id)).toEqual([]);
    setClock('2026-10-31T12:00:00.000Z');
    await sweep();
    expect(await messagesOf(agent.id)).toEqual([`Closing for ${deal.streetAddress} is in 3 days (Nov 3)`]);
  });

  it('and into daylight saving time (Mar 8, 2026): 13:00 UTC before, 12:00 after', async () => {
    setClock('2026-02-20T12:00:00.000Z');
    const { agent, deal } = await agentWithDeal({ reminderDays: [1] });
    await setDates(agent, deal.id, [{ kind: 'appraisal', date: '2026-03-08' }]);
    expect(await dueTimes(deal.id)).toEqual([
      ['2026-03-08', 1, '2026-03-07T13:00:00.000Z'],
      ['2026-03-08', 0, '2026-03-08T12:00:00.000Z'],
      ['2026-03-08', -1, '2026-03-09T12:00:00.000Z'],
    ]);
  });

  it("makes none for days already past in the agent's zone", async () => {
    // Nov 30, 20:00 in New York: the 3-day reminder's day (Nov 28) is gone, the 1-day one is today.
    setClock('2026-12-01T01:00:00.000Z');
    const { agent, deal } = await agentWithDeal();
    await setDates(agent, deal.id, [{ kind: 'inspection', date: '2026-12-01' }]);
    expect((await remindersOf(deal.id)).map((row) => row.days_before)).toEqual([1, 0, -1]);
  });
});

describe('the sweep', () => {
  it("says 'in 3 days', 'in 1 day', 'today' and 'overdue' once each, at their instants", async () => {
    setClock('2026-11-20T12:00:00.000Z');
    const { agent, deal } = await agentWithDeal();
    expect(deal.streetAddress).toMatch(/^\d+2 Main St$/);
    await setDates(agent, deal.id, [{ kind: 'inspection', date: '2026-12-01' }]);
    const said: string[] = [];
    const steps: [string, string | null][] = [
      ['2026-11-28T12:59:59.000Z', null],
      ['2026-11-28T13:00:00.000Z', `Inspection deadline for ${deal.streetAddress} is in 3 days (Dec 1)`],
      ['2026-11-29T13:00:00.000Z', null],
      ['2026-11-30T13:00:00.000Z', `Inspection deadline for ${deal.streetAddress} is in 1 day (Dec 1)`],
      ['2026-12-01T13:00:00.000Z', `Inspection deadline for ${deal.streetAddress} is today (Dec 1)`],
      ['2026-12-02T13:00:00.000Z', `Inspection deadline for ${deal.streetAddress} is overdue (Dec 1)`],
      ['2026-12-03T13:00:00.000Z', null],
      ['2026-12-10T13:00:00.000Z', null],
    ];
    for (const [at, expected] of steps) {
      setClock(at);
      await sweep();
      // Sweeping again at the same instant says nothing more.
      await sweep();
      if (expected) said.push(expected);
      expect(await messagesOf(agent.id), at).toEqual(said);
    }
    expect((await remindersOf(deal.id)).every((row) => row.sent)).toBe(true);
    // keyDate is e-mailed by default: one mail per reminder.
    expect((await mailsOf(agent.id)).map((row) => row.kind)).toEqual(Array(4).fill('notification.keyDate'));
    // The notification opens the transaction.
    const links = await database.db.notification.findMany({
      where: { userId: agent.id },
      select: { link: true },
    });
    expect(new Set(links.map((row) => row.link))).toEqual(new Set([`/home/transactions/${deal.id}`]));
  });

  it('says only the latest reminder of a date when several fell due while nobody swept', async () => {
    setClock('2026-11-20T12:00:00.000Z');
    const { agent, deal } = await agentWithDeal();
    await setDates(agent, deal.id, [{ kind: 'financing', date: '2026-12-01' }]);
    setClock('2026-12-02T13:00:00.000Z');
    await sweep();
    expect(await messagesOf(agent.id)).toEqual([
      `Financing contingency for ${deal.streetAddress} is overdue (Dec 1)`,
    ]);
  });

  it('editing a date reschedules; editing it back sends nothing twice', async () => {
    setClock('2026-11-20T12:00:00.000Z');
    const { agent, deal } = await agentWithDeal();
    await setDates(agent, deal.id, [{ kind: 'inspection', date: '2026-12-01' }]);
    setClock('2026-11-28T14:00:00.000Z');
    await sweep();
    const threeDays = `Inspection deadline for ${deal.streetAddress} is in 3 days (Dec 1)`;
    expect(await messagesOf(agent.id)).toEqual([threeDays]);

    await setDates(agent, deal.id, [{ kind: 'inspection', date: '2026-12-05' }]);
    const moved = await remindersOf(deal.id);
    // The old date's unsent reminders are gone; its sent one stays on record.
    expect(
      moved.filter((row) => row.for_date === '2026-12-01').map((row) => [row.days_before, row.sent]),
    ).toEqual([[3, true]]);
    expect(
      moved.filter((row) => row.for_date === '2026-12-05').map((row) => [row.days_before, row.sent]),
    ).toEqual([
      [3, false],
      [1, false],
      [0, false],
      [-1, false],
    ]);

    await setDates(agent, deal.id, [{ kind: 'inspection', date: '2026-12-01' }]);
    expect((await remindersOf(deal.id)).map((row) => [row.for_date, row.days_before, row.sent])).toEqual([
      ['2026-12-01', 3, true],
      ['2026-12-01', 1, false],
      ['2026-12-01', 0, false],
      ['2026-12-01', -1, false],
    ]);
    await sweep();
    expect(await messagesOf(agent.id)).toEqual([threeDays]);
    setClock('2026-11-30T13:00:00.000Z');
    await sweep();
    expect(await messagesOf(agent.id)).toEqual([
      threeDays,
      `Inspection deadline for ${deal.streetAddress} is in 1 day (Dec 1)`,
    ]);
  });

  it('a date entered late whose reminder was due earlier today is said at once', async () => {
    // 15:00 in New York on Nov 30: the 1-day reminder of Dec 1 was due at 08:00.
    setClock('2026-11-30T20:00:00.000Z');
    const { agent, deal } = await agentWithDeal();
    await setDates(agent, deal.id, [{ kind: 'closing', date: '2026-12-01' }]);
    await sweep();
    expect(await messagesOf(agent.id)).toEqual([`Closing for ${deal.streetAddress} is in 1 day (Dec 1)`]);
  });

  it('a done date gets none, and none is left to send', async () => {
    setClock('2026-11-20T12:00:00.000Z');
    const { agent, deal } = await agentWithDeal();
    await setDates(agent, deal.id, [{ kind: 'inspection', date: '2026-12-01' }]);
    await setDates(agent, deal.id, [{ kind: 'inspection', date: '2026-12-01', done: true }]);
    expect(await remindersOf(deal.id)).toEqual([]);
    const done = await agentWithDeal();
    await setDates(done.agent, done.deal.id, [{ kind: 'inspection', date: '2026-12-01', done: true }]);
    expect(await remindersOf(done.deal.id)).toEqual([]);
    for (const at of ['2026-11-28T13:00:00.000Z', '2026-12-01T13:00:00.000Z', '2026-12-02T13:00:00.000Z']) {
      setClock(at);
      await sweep();
    }
    expect(await messagesOf(agent.id)).toEqual([]);
    expect(await messagesOf(done.agent.id)).toEqual([]);
  });

  it('closed and deleted transactions get none; reopened, the reminders come back', async () => {
    setClock('2026-11-20T12:00:00.000Z');
    const closed = await agentWithDeal();
    await setDates(closed.agent, closed.deal.id, [{ kind: 'closing', date: '2026-12-01' }]);
    await ok(200, 'POST', `/api/admin/transactions/${closed.deal.id}/close`, admin);
    expect(await remindersOf(closed.deal.id)).toEqual([]);

    const deleted = await agentWithDeal();
    await setDates(deleted.agent, deleted.deal.id, [{ kind: 'closing', date: '2026-12-01' }]);
    await ok(200, 'DELETE', `/api/admin/transactions/${deleted.deal.id}`, admin);
    expect(await remindersOf(deleted.deal.id)).toEqual([]);

    // Closed or deleted behind the service's back: the sweep still drops their reminders.
    const quietlyClosed = await agentWithDeal();
    await setDates(quietlyClosed.agent, quietlyClosed.deal.id, [{ kind: 'closing', date: '2026-12-01' }]);
    await database.db.transaction.update({
      where: { id: quietlyClosed.deal.id },
      data: { closedAt: new Date() },
    });
    const quietlyDeleted = await agentWithDeal();
    await setDates(quietlyDeleted.agent, quietlyDeleted.deal.id, [{ kind: 'closing', date: '2026-12-01' }]);
    await database.db.transaction.update({
      where: { id: quietlyDeleted.deal.id },
      data: { deletedAt: new Date() },
    });

    setClock('2026-11-28T13:00:00.000Z');
    await sweep();
    for (const { agent } of [closed, deleted, quietlyClosed, quietlyDeleted]) {
      expect(await messagesOf(agent.id)).toEqual([]);
    }

    await ok(200, 'POST', `/api/admin/transactions/${closed.deal.id}/reopen`, admin);
    // Reopened, it is reminded from the next reminder on.
    setClock('2026-11-30T13:00:00.000Z');
    await sweep();
    expect(await messagesOf(closed.agent.id)).toEqual([
      `Closing for ${closed.deal.streetAddress} is in 1 day (Dec 1)`,
    ]);
  });

  it("changing the agent's reminder days or timezone reschedules the unsent reminders", async () => {
    setClock('2026-11-20T12:00:00.000Z');
    const { agent, deal } = await agentWithDeal();
    await setDates(agent, deal.id, [{ kind: 'inspection', date: '2026-12-10' }]);
    const settings = (body: object) =>
      ok(200, 'PUT', `/api/settings/notifications/${agent.id}`, agent, { events: {}, ...body });

    await settings({ timezone: 'America/New_York', reminderDays: [7, 2] });
    expect(await dueTimes(deal.id)).toEqual([
      ['2026-12-10', 7, '2026-12-03T13:00:00.000Z'],
      ['2026-12-10', 2, '2026-12-08T13:00:00.000Z'],
      ['2026-12-10', 0, '2026-12-10T13:00:00.000Z'],
      ['2026-12-10', -1, '2026-12-11T13:00:00.000Z'],
    ]);
    await settings({ timezone: 'Europe/Paris', reminderDays: [7, 2] });
    expect(await dueTimes(deal.id)).toEqual([
      ['2026-12-10', 7, '2026-12-03T07:00:00.000Z'],
      ['2026-12-10', 2, '2026-12-08T07:00:00.000Z'],
      ['2026-12-10', 0, '2026-12-10T07:00:00.000Z'],
      ['2026-12-10', -1, '2026-12-11T07:00:00.000Z'],
    ]);
    await settings({ timezone: 'Europe/Paris', reminderDays: [] });
    expect((await remindersOf(deal.id)).map((row) => row.days_before)).toEqual([0, -1]);
    setClock('2026-12-10T07:00:00.000Z');
    await sweep();
    expect(await messagesOf(agent.id)).toEqual([
      `Inspection deadline for ${deal.streetAddress} is today (Dec 10)`,
    ]);
  });

  it("the browser's timezone, taken on first sign-in, reschedules too", async () => {
    setClock('2026-11-20T12:00:00.000Z');
    const { agent, deal } = await agentWithDeal();
    await setDates(agent, deal.id, [{ kind: 'closing', date: '2026-12-10' }]);
    expect((await dueTimes(deal.id))[0]).toEqual(['2026-12-10', 3, '2026-12-07T13:00:00.000Z']);
    const caller = createCaller(await testContext(deps, await accessTokenFor(agent, { now: clock.now() })));
    await caller.notificationSettings.detectTimezone({ timezone: 'Asia/Tokyo' });
    expect((await dueTimes(deal.id))[0]).toEqual(['2026-12-10', 3, '2026-12-06T23:00:00.000Z']);
  });

  it('mails follow the keyDate preference: in-app and digest queue no mail at once', async () => {
    setClock('2026-11-20T12:00:00.000Z');
    const inApp = await agentWithDeal();
    const digest = await agentWithDeal();
    for (const [who, delivery] of [
      [inApp, 'in-app'],
      [digest, 'digest'],
    ] as const) {
      await ok(200, 'PUT', `/api/settings/notifications/${who.agent.id}`, who.agent, {
        timezone: 'America/New_York',
        reminderDays: [3, 1],
        events: { keyDate: delivery },
      });
      await setDates(who.agent, who.deal.id, [{ kind: 'possession', date: '2026-12-01' }]);
    }
    setClock('2026-11-28T13:00:00.000Z');
    await sweep();
    for (const who of [inApp, digest]) {
      expect(await messagesOf(who.agent.id)).toEqual([
        `Possession for ${who.deal.streetAddress} is in 3 days (Dec 1)`,
      ]);
      expect(await mailsOf(who.agent.id)).toEqual([]);
    }
  });
});

describe('two sweeps racing', () => {
  let second: Db;
  beforeAll(() => {
    second = createDb(database.url, { poolSize: 5 });
  });
  afterAll(() => second?.$disconnect());

  it('never say one reminder twice', async () => {
    setClock('2026-11-20T12:00:00.000Z');
    const deals = await Promise.all(Array.from({ length: 12 }, () => agentWithDeal()));
    for (const { agent, deal } of deals) {
      await setDates(agent, deal.id, [
        { kind: 'inspection', date: '2026-12-01' },
        { kind: 'closing', date: '2026-12-02' },
      ]);
    }
    const other = { ...deps, db: second };
    const contexts = [
      serviceContext(deps),
      serviceContext(other),
      serviceContext(deps),
      serviceContext(other),
    ];
    for (const at of ['2026-11-28T13:00:00.000Z', '2026-11-29T13:00:00.000Z']) {
      setClock(at);
      const claimed = await Promise.all(contexts.map((ctx) => sweepDueReminders(ctx)));
      expect(claimed.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(deals.length);
    }
    for (const { agent, deal } of deals) {
      expect((await messagesOf(agent.id)).sort()).toEqual(
        [
          `Closing for ${deal.streetAddress} is in 3 days (Dec 2)`,
          `Inspection deadline for ${deal.streetAddress} is in 3 days (Dec 1)`,
        ].sort(),
      );
      expect(await mailsOf(agent.id)).toHaveLength(2);
    }
  });
});
