import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complianceMessages } from '../../../shared/messages';
import { bearer } from '../../test/api-calls';
import { accessTokenFor, createAdmin, createTransaction, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';

/**
 * A transaction's commission through PUT /api/transactions/{id}/commission on a real PostgreSQL:
 * a gross amount or a rate of the sale price (whose gross follows the sale price), a referral,
 * who may set it, a closed file kept as it is, and the audit trail.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let app: FastifyInstance;

type Actor = { id: string; role: 'user' | 'admin'; tokenVersion: number; officeId?: string | null };
let agent: Actor;
let coordinator: Actor;
let other: Actor;
let admin: Actor;
let northAdmin: Actor;
let southAdmin: Actor;

type Commission = {
  grossCents: number | null;
  ratePercent: number | null;
  referral: { name: string; percent: number } | null;
};

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  const north = await database.db.office.create({ data: { name: 'Commission North' } });
  const south = await database.db.office.create({ data: { name: 'Commission South' } });
  agent = await createUser(database.db, { office: { connect: { id: north.id } } });
  coordinator = await createUser(database.db);
  other = await createUser(database.db);
  admin = await createAdmin(database.db);
  northAdmin = await createAdmin(database.db, { office: { connect: { id: north.id } } });
  southAdmin = await createAdmin(database.db, { office: { connect: { id: south.id } } });
  await database.db.coordination.create({ data: { coordinatorId: coordinator.id, agentId: agent.id } });
});
afterAll(() => app.close());

async function call(method: 'GET' | 'PUT', url: string, who: Actor, payload?: unknown) {
  return app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: bearer(await accessTokenFor(who, { now: clock.now() })),
  });
}

async function deal(salePriceCents: number | null = null) {
  const row = await createTransaction(database.db, {
    userId: agent.id,
    ...(salePriceCents === null ? {} : { salePriceCents: BigInt(salePriceCents) }),
  });
  return row.id;
}

const setCommission = (id: string, who: Actor, body: object) =>
  call('PUT', `/api/transactions/${id}/commission`, who, body);
const commissionOf = async (id: string): Promise<Commission | null> =>
  (await call('GET', `/api/admin/transactions/individual/${id}`, admin)).json().commission;

describe("a transaction's commission", () => {
  it('is null until set, then the gross amount given, with its referral, in the detail answer', async () => {
    const id = await deal();
    expect(await commissionOf(id)).toBeNull();
    const res = await setCommission(id, agent, {
      grossCommissionCents: 1_250_000,
      referral: { name: 'Harbor Referrals LLC', percent: 25 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      grossCents: 1_250_000,
      ratePercent: null,
      referral: { name: 'Harbor Referrals LLC', percent: 25 },
    };
    expect(res.json().commission).toEqual(expected);
    expect(await commissionOf(id)).toEqual(expected);
    const own = await call('GET', `/api/transactions/individual/${id}/${agent.id}`, agent);
    expect(own.json().commission).toEqual(expected);
  });

  it('with a rate needs the sale price, and its gross follows the sale price, rounded down', async () => {
    const id = await deal();
    const refused = await setCommission(id, agent, { ratePercent: 2.5 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Set the sale price first');
    expect(await commissionOf(id)).toBeNull();

    await database.db.transaction.update({ where: { id }, data: { salePriceCents: 33_333_333n } });
    const set = await setCommission(id, agent, {
      ratePercent: 2.5,
      referral: { name: 'Relo Co', percent: 12.125 },
    });
    expect(set.statusCode, set.body).toBe(200);
    // 33,333,333 x 2.5% = 833,333.325 cents.
    expect(set.json().commission).toEqual({
      grossCents: 833_333,
      ratePercent: 2.5,
      referral: { name: 'Relo Co', percent: 12.125 },
    });

    const address = { streetAddress: '1 Bay Road', city: 'Portland', state: 'ME', zip: '04101' };
    const repriced = await call('PUT', `/api/transactions/${id}/${agent.id}`, agent, {
      ...address,
      facts: { salePriceCents: 50_000_000 },
    });
    expect(repriced.statusCode, repriced.body).toBe(200);
    expect(repriced.json().commission).toMatchObject({ grossCents: 1_250_000, ratePercent: 2.5 });
    // The sale price cleared: the rate stays, its gross is unknown until a price is set again.
    await call('PUT', `/api/transactions/${id}/${agent.id}`, agent, {
      ...address,
      facts: { salePriceCents: null },
    });
    expect(await commissionOf(id)).toMatchObject({ grossCents: null, ratePercent: 2.5 });
  });

  it('replaces what was given: a gross after a rate, and no referral when none is named', async () => {
    const id = await deal(40_000_000);
    await setCommission(id, agent, { ratePercent: 3.125, referral: { name: 'Relo Co', percent: 10 } });
    expect(await commissionOf(id)).toEqual({
      grossCents: 1_250_000,
      ratePercent: 3.125,
      referral: { name: 'Relo Co', percent: 10 },
    });
    const res = await setCommission(id, agent, { grossCommissionCents: 900_000 });
    expect(res.json().commission).toEqual({ grossCents: 900_000, ratePercent: null, referral: null });
    const row = await database.db.transaction.findUniqueOrThrow({ where: { id } });
    expect(row.commissionRateThousandths).toBeNull();
    expect(row.commissionGrossCents).toBe(900_000n);
  });

  it('takes exactly one of a gross amount and a rate, each in range, and a referral below 100%', async () => {
    const id = await deal(40_000_000);
    for (const body of [
      {},
      { grossCommissionCents: 1_000, ratePercent: 2 },
      { grossCommissionCents: 0 },
      { grossCommissionCents: 10.5 },
      { ratePercent: 0 },
      { ratePercent: 100.5 },
      { ratePercent: 2.1234 },
      { grossCommissionCents: 1_000, referral: { name: 'Relo Co', percent: 100 } },
      { grossCommissionCents: 1_000, referral: { name: 'Relo Co', percent: 0 } },
      // Below the least percent three decimals hold: it would be stored as 0.
      { grossCommissionCents: 1_000, referral: { name: 'Relo Co', percent: 5e-324 } },
      { ratePercent: 1e-10 },
      { grossCommissionCents: 1_000, referral: { name: '', percent: 10 } },
      { grossCommissionCents: 1_000, referral: { name: 'Relo Co' } },
    ]) {
      const res = await setCommission(id, agent, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await setCommission(id, agent, { ratePercent: 100 })).json().commission.grossCents).toBe(
      40_000_000,
    );
  });

  it("is set by the agent's coordinator and admins reaching it; anyone else finds nothing (404)", async () => {
    const id = await deal();
    for (const who of [coordinator, admin, northAdmin]) {
      const res = await setCommission(id, who, { grossCommissionCents: 500_000 });
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const who of [other, southAdmin]) {
      const res = await setCommission(id, who, { grossCommissionCents: 1 });
      expect(res.statusCode).toBe(404);
    }
    expect((await commissionOf(id))?.grossCents).toBe(500_000);
  });

  it('is kept as it is on a closed transaction (409) until it is reopened', async () => {
    const id = await deal();
    await setCommission(id, agent, { grossCommissionCents: 700_000 });
    await database.db.transaction.update({ where: { id }, data: { closedAt: clock.now() } });
    for (const who of [agent, admin]) {
      const res = await setCommission(id, who, { grossCommissionCents: 800_000 });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(complianceMessages.transactionClosed);
    }
    expect((await commissionOf(id))?.grossCents).toBe(700_000);
  });

  it('is audited as transaction.commission, before and after, on behalf of the agent', async () => {
    const id = await deal(20_000_000);
    await setCommission(id, agent, { grossCommissionCents: 600_000 });
    await setCommission(id, coordinator, { ratePercent: 2, referral: { name: 'Relo Co', percent: 20 } });
    const events = await database.db.auditEvent.findMany({
      where: { transactionId: id, action: 'transaction.commission' },
      orderBy: { createdAt: 'asc' },
      select: { actorId: true, onBehalfOf: true, before: true, after: true },
    });
    expect(events).toEqual([
      {
        actorId: agent.id,
        onBehalfOf: null,
        before: { commission: null },
        after: { commission: { grossCents: 600_000, ratePercent: null, referral: null } },
      },
      {
        actorId: coordinator.id,
        onBehalfOf: agent.id,
        before: { commission: { grossCents: 600_000, ratePercent: null, referral: null } },
        after: {
          commission: { grossCents: 400_000, ratePercent: 2, referral: { name: 'Relo Co', percent: 20 } },
        },
      },
    ]);
    const history = await call('GET', `/api/admin/transactions/${id}/history`, admin);
    expect((history.json() as Array<{ action: string }>).map((entry) => entry.action)).toContain(
      'transaction.commission',
    );
  });
});
