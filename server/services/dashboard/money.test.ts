import { beforeAll, describe, expect, it } from 'vitest';
import type { DashboardInput } from '../../../shared/schemas/dashboard';
import type { AppDeps } from '../../deps';
import { insertCda } from '../../test/cda-rows';
import { createAdmin, createTransaction, createUser } from '../../test/factories';
import { serviceContext, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import type { Caller } from '../context';
import { dashboardFigures } from './index';
import { monthsOf } from './money';

/**
 * The dashboard's money (shared/schemas/dashboard.ts): the current CDA of each transaction
 * reached, dated by its payment or, unpaid, by its undeleted transaction's closing. Each
 * expected figure is worked out by hand next to it.
 *
 * Now is 2026-11-21T12:00:00Z. North's agent has, in cents (gross = referral + brokerage + agent + fee):
 * - P: paid 2026-11-05, gross 1,000,000: referral 250,000, brokerage 200,000, agent 545,000, fee 5,000;
 *   its version 1 (gross 900,000) superseded;
 * - Q: paid 2026-10-31T23:59:59.999Z, gross 300,000: brokerage 90,000, agent 210,000;
 * - R: issued, unpaid, its file closed 2026-11-10, gross 200,000: brokerage 60,000, agent 140,000;
 * - S: issued, unpaid, its file open, gross 50,000 (never counted: no date);
 * - T: paid 2026-11-06 on a file deleted since, gross 70,000: brokerage 21,000, agent 49,000
 *   (counted: the money went out);
 * - W: issued, unpaid, its file closed 2026-11-12 then deleted, gross 80,000 (never counted);
 * - U: paid 2026-12-01T00:00:00Z, gross 40,000 (the day after November).
 * South's agent has V: paid 2026-11-07, gross 110,000: brokerage 11,000, agent 99,000.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-21T12:00:00.000Z'));
let deps: AppDeps;
let wide: Caller;
let northAdmin: Caller;
let southId: string;

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  const db = database.db;
  const north = await db.office.create({ data: { name: 'Money North' } });
  const south = await db.office.create({ data: { name: 'Money South' } });
  southId = south.id;
  const admin = await createAdmin(db);
  const officeAdmin = await createAdmin(db, { office: { connect: { id: north.id } } });
  wide = { id: admin.id, role: 'admin', isOwner: false, officeId: null };
  northAdmin = { id: officeAdmin.id, role: 'admin', isOwner: false, officeId: north.id };
  const ann = await createUser(db, { office: { connect: { id: north.id } } });
  const sid = await createUser(db, { office: { connect: { id: south.id } } });
  const file = async (userId: string, extra: { closedAt?: Date; deletedAt?: Date } = {}) =>
    (await createTransaction(db, { userId, ...extra })).id;
  const cda = (
    transactionId: string,
    agentId: string,
    row: Omit<Parameters<typeof insertCda>[1], 'transactionId' | 'agentId' | 'issuedBy'>,
  ) => insertCda(db, { transactionId, agentId, issuedBy: admin.id, ...row });

  const p = await file(ann.id);
  await cda(p, ann.id, { status: 'superseded', grossCents: 900_000, brokerageCents: 300_000 });
  await cda(p, ann.id, {
    version: 2,
    grossCents: 1_000_000,
    referral: { name: 'Referrer', cents: 250_000 },
    brokerageCents: 200_000,
    feeCents: 5_000,
    paidAt: new Date('2026-11-05T10:00:00.000Z'),
  });
  await cda(await file(ann.id), ann.id, {
    grossCents: 300_000,
    brokerageCents: 90_000,
    paidAt: new Date('2026-10-31T23:59:59.999Z'),
  });
  await cda(await file(ann.id, { closedAt: new Date('2026-11-10T09:00:00.000Z') }), ann.id, {
    grossCents: 200_000,
    brokerageCents: 60_000,
  });
  await cda(await file(ann.id), ann.id, { grossCents: 50_000, brokerageCents: 15_000 });
  await cda(await file(ann.id, { deletedAt: new Date('2026-11-08T00:00:00.000Z') }), ann.id, {
    grossCents: 70_000,
    brokerageCents: 21_000,
    paidAt: new Date('2026-11-06T00:00:00.000Z'),
  });
  await cda(
    await file(ann.id, {
      closedAt: new Date('2026-11-12T09:00:00.000Z'),
      deletedAt: new Date('2026-11-13T00:00:00.000Z'),
    }),
    ann.id,
    { grossCents: 80_000, brokerageCents: 24_000 },
  );
  await cda(await file(ann.id), ann.id, {
    grossCents: 40_000,
    brokerageCents: 12_000,
    paidAt: new Date('2026-12-01T00:00:00.000Z'),
  });
  await cda(await file(sid.id), sid.id, {
    grossCents: 110_000,
    brokerageCents: 11_000,
    paidAt: new Date('2026-11-07T00:00:00.000Z'),
  });
});

const money = async (input: DashboardInput, who: Caller = wide) =>
  (await dashboardFigures(serviceContext(deps, who), input)).money;

describe("the dashboard's money", () => {
  it('counts each current CDA once, by its payment or its closing, never a superseded version', async () => {
    // November: P (1,000,000), R (200,000, pending), T (70,000), V (110,000); Q is October, U
    // December, W never.
    expect(await money({ from: '2026-11-01', to: '2026-11-30' })).toStrictEqual({
      grossCents: 1_380_000,
      // Brokerage and fee lines: P 200,000 + 5,000, R 60,000, T 21,000, V 11,000.
      brokerageCents: 297_000,
      // Agent lines: P 545,000, R 140,000, T 49,000, V 99,000.
      agentCents: 833_000,
      pendingCents: 200_000,
      byMonth: [{ month: '2026-11', grossCents: 1_380_000 }],
    });
  });

  it('lists every month the range touches, zero-filled, and holds both ends to the millisecond', async () => {
    expect(await money({ from: '2026-09-15', to: '2026-12-01' })).toStrictEqual({
      // Q 300,000, then November's 1,380,000, then U 40,000.
      grossCents: 1_720_000,
      brokerageCents: 90_000 + 297_000 + 12_000,
      agentCents: 210_000 + 833_000 + 28_000,
      pendingCents: 200_000,
      byMonth: [
        { month: '2026-09', grossCents: 0 },
        { month: '2026-10', grossCents: 300_000 },
        { month: '2026-11', grossCents: 1_380_000 },
        { month: '2026-12', grossCents: 40_000 },
      ],
    });
    // Q's last millisecond of October is October's; U's first of December is December's.
    expect((await money({ from: '2026-10-31', to: '2026-10-31' })).grossCents).toBe(300_000);
    expect((await money({ from: '2026-11-01', to: '2026-11-04' })).grossCents).toBe(0);
    expect((await money({ from: '2026-12-01', to: '2026-12-01' })).grossCents).toBe(40_000);
  });

  it('counts an unpaid CDA by its closing, and a paid one by its payment alone', async () => {
    // R's file closed on 10 November: in a range holding that day only, it is all pending.
    expect(await money({ from: '2026-11-10', to: '2026-11-10' })).toMatchObject({
      grossCents: 200_000,
      pendingCents: 200_000,
    });
  });

  it('dates an unpaid CDA by its file closing after it was issued, and forgets the date when the file reopens', async () => {
    const db = database.db;
    const agent = await createUser(db);
    const deal = (await createTransaction(db, { userId: agent.id })).id;
    await insertCda(db, {
      transactionId: deal,
      agentId: agent.id,
      issuedBy: wide.id,
      grossCents: 123_000,
      brokerageCents: 0,
    });
    const day = { from: '2026-11-20', to: '2026-11-20' };
    expect((await money(day)).grossCents).toBe(0);
    await db.transaction.update({
      where: { id: deal },
      data: { closedAt: new Date('2026-11-20T15:00:00.000Z') },
    });
    expect(await money(day)).toMatchObject({ grossCents: 123_000, pendingCents: 123_000 });
    await db.transaction.update({ where: { id: deal }, data: { closedAt: null } });
    expect((await money(day)).grossCents).toBe(0);
  });

  it("holds an office admin to its office, and a brokerage-wide admin's officeId to that office", async () => {
    // North's November: P, R and T.
    const north = {
      grossCents: 1_270_000,
      brokerageCents: 286_000,
      agentCents: 734_000,
      pendingCents: 200_000,
    };
    expect(await money({ from: '2026-11-01', to: '2026-11-30' }, northAdmin)).toMatchObject(north);
    expect(
      await money({ from: '2026-11-01', to: '2026-11-30', officeId: southId }, northAdmin),
    ).toMatchObject(north);
    expect(await money({ from: '2026-11-01', to: '2026-11-30', officeId: southId })).toStrictEqual({
      grossCents: 110_000,
      brokerageCents: 11_000,
      agentCents: 99_000,
      pendingCents: 0,
      byMonth: [{ month: '2026-11', grossCents: 110_000 }],
    });
  });

  it('answers zeros for each month of a range without CDAs (the default one: 30 days ending today)', async () => {
    expect(await money({ from: '2025-12-20', to: '2026-02-03' })).toStrictEqual({
      grossCents: 0,
      brokerageCents: 0,
      agentCents: 0,
      pendingCents: 0,
      byMonth: [
        { month: '2025-12', grossCents: 0 },
        { month: '2026-01', grossCents: 0 },
        { month: '2026-02', grossCents: 0 },
      ],
    });
    // 2026-10-23 to 2026-11-21: Q (October 31), P, R, T and V.
    expect((await money({})).byMonth).toStrictEqual([
      { month: '2026-10', grossCents: 300_000 },
      { month: '2026-11', grossCents: 1_380_000 },
    ]);
  });
});

describe('monthsOf', () => {
  it('names each month from the first day to the last, across a year', () => {
    expect(monthsOf('2026-11-30', '2027-02-01')).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
    expect(monthsOf('2026-05-01', '2026-05-31')).toEqual(['2026-05']);
  });
});
