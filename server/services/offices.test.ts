import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, officeMessages } from '../../shared/messages';
import type { Office } from '../../shared/schemas/offices';
import type { PublicUser, UsersListAnswer } from '../../shared/schemas/users';
import { createAdmin, createOwner, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { type Actor, restCalls } from '../test/rest-calls';

/**
 * Offices through the REST paths: brokerage-wide admins keep them, an office admin reads its own
 * and nothing of another office exists for it; users' offices and the agents a coordinator works
 * for, with who may set what.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-12-01T12:00:00.000Z'));
const RUN = Date.now().toString(36);
let app: FastifyInstance;
let wide: Actor;
let owner: Actor;

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  wide = await createAdmin(database.db);
  owner = await createOwner(database.db);
});
afterAll(() => app?.close());

const { ok, refused, call } = restCalls(() => app, clock);

const newOffice = (name: string, extra: object = {}) =>
  ok<Office>(201, 'POST', '/api/admin/offices', wide, { name: `${name} ${RUN}`, ...extra });

async function officeAdminOf(office: Office) {
  return createAdmin(database.db, { office: { connect: { id: office._id } } });
}

describe('offices', () => {
  it('are made with their defaults, listed by name with their active agents, renamed and removed', async () => {
    const made = await newOffice('Alpha', { reviewTargetHours: 8 });
    expect(made).toMatchObject({ name: `Alpha ${RUN}`, reviewTargetHours: 8, retentionYears: 7 });
    await createUser(database.db, { office: { connect: { id: made._id } } });
    await createUser(database.db, { office: { connect: { id: made._id } }, isAdminApproved: false });
    const listed = await ok<Array<Office & { agentCount: number }>>(200, 'GET', '/api/admin/offices', wide);
    expect(listed.find((o) => o._id === made._id)?.agentCount).toBe(1);
    const names = listed.map((o) => o.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    const renamed = await ok<Office>(200, 'PUT', `/api/admin/offices/${made._id}`, wide, {
      name: `Alpha West ${RUN}`,
      retentionYears: 10,
    });
    expect(renamed).toMatchObject({ name: `Alpha West ${RUN}`, reviewTargetHours: 8, retentionYears: 10 });

    await refused(409, officeMessages.stillHasUsers, 'DELETE', `/api/admin/offices/${made._id}`, wide);
    await database.db.user.updateMany({ where: { officeId: made._id }, data: { officeId: null } });
    expect(await ok(200, 'DELETE', `/api/admin/offices/${made._id}`, wide)).toEqual({
      message: officeMessages.deleted,
    });
    await refused(404, apiMessages.notFound, 'PUT', `/api/admin/offices/${made._id}`, wide, { name: 'Gone' });
  });

  it('refuses a second office of the same name in any case, and bad values, changing nothing', async () => {
    await newOffice('Beta');
    await refused(409, officeMessages.nameTaken, 'POST', '/api/admin/offices', wide, { name: `BETA ${RUN}` });
    const res = await call('POST', '/api/admin/offices', wide, { name: '  ', reviewTargetHours: 0 });
    expect(res.statusCode).toBe(400);
    expect(await database.db.office.count({ where: { name: `beta ${RUN}` } })).toBe(1);
  });

  it('an office admin reads its own office only, cannot make or change offices, and another office is not found', async () => {
    const north = await newOffice('North');
    const south = await newOffice('South');
    const northAdmin = await officeAdminOf(north);
    expect((await ok<Office[]>(200, 'GET', '/api/admin/offices', northAdmin)).map((o) => o._id)).toEqual([
      north._id,
    ]);
    await refused(403, apiMessages.forbidden, 'POST', '/api/admin/offices', northAdmin, {
      name: `Mine ${RUN}`,
    });
    await refused(403, apiMessages.forbidden, 'PUT', `/api/admin/offices/${north._id}`, northAdmin, {
      reviewTargetHours: 1,
    });
    await refused(404, apiMessages.notFound, 'PUT', `/api/admin/offices/${south._id}`, northAdmin, {
      reviewTargetHours: 1,
    });
    await refused(404, apiMessages.notFound, 'DELETE', `/api/admin/offices/${south._id}`, northAdmin);
  });

  it('the owner is brokerage-wide even with an office', async () => {
    const office = await newOffice('Owner home');
    await database.db.user.update({ where: { id: owner.id }, data: { officeId: office._id } });
    const listed = await ok<Office[]>(200, 'GET', '/api/admin/offices', owner);
    expect(listed.length).toBeGreaterThan(1);
    await database.db.user.update({ where: { id: owner.id }, data: { officeId: null } });
  });
});

describe("users' offices and coordinators", () => {
  it('moving an agent moves its transactions, and shows in its answer', async () => {
    const office = await newOffice('Gamma');
    const agent = await createUser(database.db);
    const deal = await createTransaction(database.db, { userId: agent.id });
    const moved = await ok<PublicUser>(200, 'PUT', `/api/users/${agent.id}`, wide, { officeId: office._id });
    expect(moved).toMatchObject({ officeId: office._id, coordinatesFor: [], isCoordinator: false });
    expect((await database.db.transaction.findUniqueOrThrow({ where: { id: deal.id } })).officeId).toBe(
      office._id,
    );
    const later = await createTransaction(database.db, { userId: agent.id });
    expect(later.officeId).toBe(office._id);
    // The copy cannot be set apart from the agent's office.
    await database.db.transaction.update({ where: { id: later.id }, data: { officeId: null } });
    expect((await database.db.transaction.findUniqueOrThrow({ where: { id: later.id } })).officeId).toBe(
      office._id,
    );
  });

  it('a coordinator works for active agents only, never for itself; an admin coordinates for no one', async () => {
    const agent = await createUser(database.db);
    const other = await createUser(database.db);
    const inactive = await createUser(database.db, { isAdminApproved: false });
    const coordinator = await createUser(database.db);
    const set = await ok<PublicUser>(200, 'PUT', `/api/users/${coordinator.id}`, wide, {
      coordinatesFor: [agent.id, other.id, agent.id],
    });
    expect(set).toMatchObject({ isCoordinator: true, coordinatesFor: [agent.id, other.id].sort() });
    for (const coordinatesFor of [[inactive.id], [coordinator.id], [wide.id], [crypto.randomUUID()]]) {
      await refused(
        400,
        officeMessages.onlyActiveAgentsCoordinated,
        'PUT',
        `/api/users/${coordinator.id}`,
        wide,
        {
          coordinatesFor,
        },
      );
    }
    await refused(400, officeMessages.onlyAgentsCoordinate, 'PUT', `/api/users/${wide.id}`, wide, {
      coordinatesFor: [agent.id],
    });
    // Nothing of the refused changes landed.
    expect(
      (await database.db.coordination.findMany({ where: { coordinatorId: coordinator.id } })).length,
    ).toBe(2);
    const cleared = await ok<PublicUser>(200, 'PUT', `/api/users/${coordinator.id}`, wide, {
      coordinatesFor: [],
    });
    expect(cleared).toMatchObject({ isCoordinator: false, coordinatesFor: [] });
  });

  it('an office admin sees and changes the users of its office only, and keeps them there', async () => {
    const north = await newOffice('Delta');
    const south = await newOffice('Epsilon');
    const northAdmin = await officeAdminOf(north);
    const northAgent = await createUser(database.db, { office: { connect: { id: north._id } } });
    const southAgent = await createUser(database.db, { office: { connect: { id: south._id } } });
    const listed = await ok<UsersListAnswer>(200, 'GET', '/api/users?page=1&limit=100', northAdmin);
    expect(listed.users.every((u) => u.officeId === north._id)).toBe(true);
    expect(listed.users.map((u) => u._id)).toContain(northAgent.id);

    await refused(404, apiMessages.notFound, 'PUT', `/api/users/${southAgent.id}`, northAdmin, {
      officeId: north._id,
    });
    await refused(404, apiMessages.notFound, 'GET', `/api/users/deactivated/${southAgent.id}`, northAdmin);
    await refused(
      403,
      officeMessages.officeAdminStaysInOffice,
      'PUT',
      `/api/users/${northAgent.id}`,
      northAdmin,
      {
        officeId: south._id,
      },
    );
    // Nor can it make a brokerage-wide admin of one of its admins.
    const colleague = await officeAdminOf(north);
    await refused(
      403,
      officeMessages.officeAdminStaysInOffice,
      'PUT',
      `/api/users/${colleague.id}`,
      northAdmin,
      {
        officeId: null,
      },
    );
    // Coordinating for an agent of another office is as if it did not exist.
    const tc = await createUser(database.db, { office: { connect: { id: north._id } } });
    await refused(400, officeMessages.onlyActiveAgentsCoordinated, 'PUT', `/api/users/${tc.id}`, northAdmin, {
      coordinatesFor: [southAgent.id],
    });
    // A user it adds joins its office.
    const added = await ok<PublicUser>(201, 'POST', '/api/users', northAdmin, {
      firstName: 'Nora',
      lastName: 'North',
      email: `nora.${RUN}@example.com`,
      phoneNumber: '555-010-0009',
      company: 'Acme Realty',
      password: 'Password-123',
      role: 'user',
      coordinatesFor: [northAgent.id],
    });
    expect(added).toMatchObject({
      officeId: north._id,
      isCoordinator: true,
      coordinatesFor: [northAgent.id],
    });
    // The brokerage-wide admin filters by office.
    const filtered = await ok<UsersListAnswer>(
      200,
      'GET',
      `/api/users?page=1&limit=100&officeId=${south._id}`,
      wide,
    );
    expect(filtered.users.map((u) => u._id)).toEqual([southAgent.id]);
  });
});
