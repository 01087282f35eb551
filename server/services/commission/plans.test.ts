import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commissionMessages } from '../../../shared/commission-messages';
import { bearer } from '../../test/api-calls';
import { accessTokenFor, createAdmin, createOwner, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';

/**
 * Commission plans and a user's plan, through the REST paths on a real PostgreSQL: who reads and
 * who changes plans, names unique in any case, money kept as whole cents, every change audited,
 * and a plan given to a user within the reach of the admin giving it.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let app: FastifyInstance;

type Actor = { id: string; role: 'user' | 'admin'; tokenVersion: number; officeId?: string | null };
let agent: Actor;
let owner: Actor;
let admin: Actor;
let northAdmin: Actor;
let northAgent: Actor;
let southAgent: Actor;

type Plan = {
  _id: string;
  name: string;
  agentSplit: number;
  capCents: number | null;
  transactionFeeCents: number;
};

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  const north = await database.db.office.create({ data: { name: 'Plans North' } });
  const south = await database.db.office.create({ data: { name: 'Plans South' } });
  agent = await createUser(database.db);
  owner = await createOwner(database.db);
  admin = await createAdmin(database.db);
  northAdmin = await createAdmin(database.db, { office: { connect: { id: north.id } } });
  northAgent = await createUser(database.db, { office: { connect: { id: north.id } } });
  southAgent = await createUser(database.db, { office: { connect: { id: south.id } } });
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

const capped = { name: 'Capped 70/30', agentSplit: 70, capCents: 1_800_000, transactionFeeCents: 39_500 };

async function createPlan(body: object, who: Actor = admin): Promise<Plan> {
  const res = await call('POST', '/api/admin/commission-plans', who, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('commission plans', () => {
  it('are made and changed by brokerage-wide admins, in whole cents, and audited', async () => {
    const plan = await createPlan(capped);
    expect(plan).toMatchObject(capped);
    const changed = await call('PUT', `/api/admin/commission-plans/${plan._id}`, owner, {
      name: 'Capped 75/25',
      agentSplit: 75,
      capCents: null,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // Every field is given again: an omitted fee is back to 0, a null cap is no cap.
    expect(changed.json()).toMatchObject({
      name: 'Capped 75/25',
      agentSplit: 75,
      capCents: null,
      transactionFeeCents: 0,
    });

    const row = await database.db.commissionPlan.findUniqueOrThrow({ where: { id: plan._id } });
    expect(row.capCents).toBeNull();
    expect(row.transactionFeeCents).toBe(0n);
    const audit = await database.db.auditEvent.findMany({
      where: { entity: 'CommissionPlan', entityId: plan._id },
      orderBy: { createdAt: 'asc' },
      select: { action: true, actorId: true, before: true, after: true },
    });
    expect(audit.map((event) => [event.action, event.actorId])).toEqual([
      ['commissionPlan.create', admin.id],
      ['commissionPlan.update', owner.id],
    ]);
    expect(audit[1]?.before).toMatchObject({ name: 'Capped 70/30', capCents: 1_800_000 });
  });

  it('are listed by name for every admin, office admins included; agents are refused', async () => {
    await createPlan({ name: 'Alpha 90/10', agentSplit: 90, capCents: null });
    const listed = await call('GET', '/api/admin/commission-plans', northAdmin);
    expect(listed.statusCode, listed.body).toBe(200);
    const names = (listed.json() as Plan[]).map((plan) => plan.name);
    expect(names).toContain('Alpha 90/10');
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect((await call('GET', '/api/admin/commission-plans', agent)).statusCode).toBe(403);
  });

  it('are not made or changed by office admins (403) and an unknown plan is 404', async () => {
    const plan = await createPlan({ name: 'Office-proof', agentSplit: 60, capCents: 500_000 });
    expect(
      (await call('POST', '/api/admin/commission-plans', northAdmin, { ...capped, name: 'Nope' })).statusCode,
    ).toBe(403);
    const put = await call('PUT', `/api/admin/commission-plans/${plan._id}`, northAdmin, {
      ...capped,
      name: 'Nope',
    });
    expect(put.statusCode).toBe(403);
    const unknown = await call(
      'PUT',
      '/api/admin/commission-plans/00000000-0000-4000-8000-000000000000',
      admin,
      capped,
    );
    expect(unknown.statusCode).toBe(404);
    expect(await database.db.commissionPlan.count({ where: { name: 'Nope' } })).toBe(0);
  });

  it('have names unique in any case: 409 on create and on rename', async () => {
    await createPlan({ name: 'Team Plan', agentSplit: 50, capCents: null });
    const twin = await call('POST', '/api/admin/commission-plans', admin, {
      ...capped,
      name: '  team PLAN ',
    });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().message).toBe(commissionMessages.nameTaken);
    const other = await createPlan({ name: 'Solo Plan', agentSplit: 50, capCents: null });
    const rename = await call('PUT', `/api/admin/commission-plans/${other._id}`, admin, {
      ...capped,
      name: 'TEAM plan',
    });
    expect(rename.statusCode).toBe(409);
    // Its own name in another case is no conflict.
    const recase = await call('PUT', `/api/admin/commission-plans/${other._id}`, admin, {
      ...capped,
      name: 'SOLO PLAN',
    });
    expect(recase.statusCode, recase.body).toBe(200);
  });

  it('refuse splits, caps and fees that are not whole, in range and given', async () => {
    for (const body of [
      { ...capped, agentSplit: 101 },
      { ...capped, agentSplit: 70.5 },
      { ...capped, capCents: -1 },
      { ...capped, capCents: 10.5 },
      { ...capped, transactionFeeCents: -5 },
      { name: 'No cap given', agentSplit: 70 },
      { ...capped, name: '   ' },
    ]) {
      const res = await call('POST', '/api/admin/commission-plans', admin, { ...body, name: body.name });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("a user's commission plan", () => {
  it('is set and cleared by an admin, shown in the user answers and audited', async () => {
    const plan = await createPlan({ name: 'For agents', agentSplit: 80, capCents: 1_200_000 });
    const set = await call('PUT', `/api/users/${agent.id}`, admin, { commissionPlanId: plan._id });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().commissionPlanId).toBe(plan._id);
    const listed = await call('GET', '/api/users?page=1&limit=100', admin);
    const shown = (listed.json().users as Array<{ _id: string; commissionPlanId: string | null }>).find(
      (user) => user._id === agent.id,
    );
    expect(shown?.commissionPlanId).toBe(plan._id);
    const audit = await database.db.auditEvent.findFirstOrThrow({
      where: { entity: 'User', entityId: agent.id, action: 'user.update' },
      orderBy: { createdAt: 'desc' },
    });
    expect(audit.before).toMatchObject({ commissionPlanId: null });
    expect(audit.after).toMatchObject({ commissionPlanId: plan._id });

    // Changing the office alone leaves the plan; null clears it.
    const moved = await call('PUT', `/api/users/${agent.id}`, admin, { coordinatesFor: [] });
    expect(moved.json().commissionPlanId).toBe(plan._id);
    const cleared = await call('PUT', `/api/users/${agent.id}`, admin, { commissionPlanId: null });
    expect(cleared.json().commissionPlanId).toBeNull();
  });

  it('names an existing plan: an unknown id is a 400 naming commissionPlanId, and nothing changes', async () => {
    const res = await call('PUT', `/api/users/${agent.id}`, admin, {
      commissionPlanId: '00000000-0000-4000-8000-000000000000',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('commissionPlanId');
    expect(res.json().message).toBe(commissionMessages.unknownPlan);
    const bad = await call('PUT', `/api/users/${agent.id}`, admin, { commissionPlanId: 'standard' });
    expect(bad.statusCode).toBe(400);
  });

  it('is set by an office admin on its own office users only (another office: 404), never by agents', async () => {
    const plan = await createPlan({ name: 'North plan', agentSplit: 85, capCents: null });
    const own = await call('PUT', `/api/users/${northAgent.id}`, northAdmin, { commissionPlanId: plan._id });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().commissionPlanId).toBe(plan._id);
    const other = await call('PUT', `/api/users/${southAgent.id}`, northAdmin, {
      commissionPlanId: plan._id,
    });
    expect(other.statusCode).toBe(404);
    const self = await call('PUT', `/api/users/${agent.id}`, agent, { commissionPlanId: plan._id });
    expect(self.statusCode).toBe(403);
    const rows = await database.db.user.findMany({
      where: { id: { in: [southAgent.id, agent.id] } },
      select: { commissionPlanId: true },
    });
    expect(rows.every((row) => row.commissionPlanId === null)).toBe(true);
  });
});
