import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { poolOf } from '../db/client';
import { accessTokenFor, createOwner, createTransaction, createUser } from '../test/factories';
import { setupTestDatabase, TestClock, testContext, testDeps } from '../test/harness';
import { createCallerFactory } from './init';
import { appRouter } from './router';

/**
 * protectedListProcedure (init.ts): a list whose own statement confirms the session. Its answer
 * must always be what the full check (protectedProcedure) would give, in one round trip when the
 * token's claims still hold, and through the full check when they do not.
 */

const database = setupTestDatabase();
const clock = new TestClock();
const createCaller = createCallerFactory(appRouter);
const callerWith = async (token: string) =>
  createCaller(await testContext(testDeps(database.db, { clock }), token));
const tokenOf = (user: { id: string; role: 'user' | 'admin'; tokenVersion: number }) =>
  accessTokenFor(user, { now: clock.now() });

/** How many times a call took a connection from the pool: one per round trip here. */
async function checkoutsDuring<T>(work: () => Promise<T>): Promise<{ result: T; checkouts: number }> {
  const pool = poolOf(database.db);
  if (!pool) throw new Error('the test database has no pool');
  let checkouts = 0;
  const count = () => {
    checkouts += 1;
  };
  pool.on('acquire', count);
  try {
    return { result: await work(), checkouts };
  } finally {
    pool.off('acquire', count);
  }
}

async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'OK';
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
}

let agent: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  agent = await createUser(database.db);
  await createTransaction(database.db, { userId: agent.id, streetAddress: '1 Confirmed Way' });
  await createTransaction(database.db, { userId: agent.id, streetAddress: '2 Confirmed Way' });
});

afterEach(async () => {
  await database.db.user.update({
    where: { id: agent.id },
    data: { role: 'user', isAdminApproved: true, tokenVersion: agent.tokenVersion },
  });
});

describe('a list that confirms the session in its own statement', () => {
  test('current claims: the same page as a search without a term, in one round trip instead of two', async () => {
    const caller = await callerWith(await tokenOf(agent));
    const listed = await checkoutsDuring(() => caller.transactions.list({ userId: agent.id, page: 1 }));
    const searched = await checkoutsDuring(() =>
      caller.transactions.search({ userId: agent.id, page: 1, term: '' }),
    );
    expect(listed.result).toEqual(searched.result);
    expect(listed.result.transactions.map((t) => t.streetAddress).sort()).toEqual([
      '1 Confirmed Way',
      '2 Confirmed Way',
    ]);
    expect(listed.checkouts).toBe(1);
    expect(searched.checkouts).toBe(2);
  });

  test('a page past the end is still confirmed: its total alone', async () => {
    const caller = await callerWith(await tokenOf(agent));
    const { result, checkouts } = await checkoutsDuring(() =>
      caller.transactions.list({ userId: agent.id, page: 9 }),
    );
    expect(result).toMatchObject({ transactions: [], totalTransactions: 2, totalPages: 1 });
    expect(checkouts).toBe(1);
  });

  test('deactivated, or the password changed since the token: UNAUTHORIZED as everywhere', async () => {
    const token = await tokenOf(agent);
    const ownList = async () => (await callerWith(token)).transactions.list({ userId: agent.id, page: 1 });
    expect(await outcome(ownList())).toBe('OK');

    await database.db.user.update({ where: { id: agent.id }, data: { isAdminApproved: false } });
    expect(await outcome(ownList())).toMatch(/^UNAUTHORIZED: /);
    await database.db.user.update({
      where: { id: agent.id },
      data: { isAdminApproved: true, tokenVersion: { increment: 1 } },
    });
    expect(await outcome(ownList())).toMatch(/^UNAUTHORIZED: /);
  });

  test('a demoted admin with an admin token: FORBIDDEN for another agent, as the full check says', async () => {
    const other = await createUser(database.db);
    await database.db.user.update({ where: { id: agent.id }, data: { role: 'admin' } });
    const adminToken = await tokenOf({ ...agent, role: 'admin' });
    expect(
      await outcome((await callerWith(adminToken)).transactions.list({ userId: other.id, page: 1 })),
    ).toBe('OK');

    await database.db.user.update({ where: { id: agent.id }, data: { role: 'user' } });
    const { result } = await checkoutsDuring(async () =>
      outcome((await callerWith(adminToken)).transactions.list({ userId: other.id, page: 1 })),
    );
    expect(result).toMatch(/^FORBIDDEN: /);
    // Their own list still answers, through the full check.
    const own = await (await callerWith(adminToken)).transactions.list({ userId: agent.id, page: 1 });
    expect(own.totalTransactions).toBe(2);
  });

  test("a promoted agent whose token still says agent may list another's transactions at once", async () => {
    const other = await createUser(database.db);
    await createTransaction(database.db, { userId: other.id, streetAddress: '3 Promoted Road' });
    const agentToken = await tokenOf(agent);
    expect(
      await outcome((await callerWith(agentToken)).transactions.list({ userId: other.id, page: 1 })),
    ).toMatch(/^FORBIDDEN: /);

    await database.db.user.update({ where: { id: agent.id }, data: { role: 'admin' } });
    const page = await (await callerWith(agentToken)).transactions.list({ userId: other.id, page: 1 });
    expect(page.transactions.map((t) => t.streetAddress)).toEqual(['3 Promoted Road']);
  });

  test('the owner, whom the claims do not name, is answered through the full check', async () => {
    const owner = await createOwner(database.db);
    await createTransaction(database.db, { userId: owner.id, streetAddress: '4 Owner Lane' });
    const caller = await callerWith(await tokenOf(owner));
    const { result, checkouts } = await checkoutsDuring(() =>
      caller.transactions.list({ userId: owner.id, page: 1 }),
    );
    expect(result.transactions.map((t) => t.streetAddress)).toEqual(['4 Owner Lane']);
    expect(checkouts).toBe(3);
  });

  test("an office member's token names its office: one round trip while it holds, the full check once it moved", async () => {
    const north = await database.db.office.create({ data: { name: `North ${Date.now()}` } });
    const south = await database.db.office.create({ data: { name: `South ${Date.now()}` } });
    const member = await createUser(database.db, { office: { connect: { id: north.id } } });
    await createTransaction(database.db, { userId: member.id, streetAddress: '5 Office Row' });
    const caller = await callerWith(await tokenOf(member));
    const held = await checkoutsDuring(() => caller.transactions.list({ userId: member.id, page: 1 }));
    expect(held.result.transactions.map((t) => t.streetAddress)).toEqual(['5 Office Row']);
    expect(held.checkouts).toBe(1);

    await database.db.user.update({ where: { id: member.id }, data: { officeId: south.id } });
    const moved = await checkoutsDuring(() => caller.transactions.list({ userId: member.id, page: 1 }));
    expect(moved.result).toEqual(held.result);
    expect(moved.checkouts).toBe(3);
  });

  test("a coordinator's list holds its agents' transactions, through the full check", async () => {
    const coordinator = await createUser(database.db);
    await database.db.coordination.create({ data: { coordinatorId: coordinator.id, agentId: agent.id } });
    const caller = await callerWith(await tokenOf(coordinator));
    const { result, checkouts } = await checkoutsDuring(() =>
      caller.transactions.list({ userId: coordinator.id, page: 1 }),
    );
    expect(result.transactions.map((t) => t.streetAddress).sort()).toEqual([
      '1 Confirmed Way',
      '2 Confirmed Way',
    ]);
    expect(result.transactions.every((t) => t.user._id === agent.id)).toBe(true);
    expect(checkouts).toBe(3);
    const narrowed = await caller.transactions.list({
      userId: coordinator.id,
      page: 1,
      agentId: coordinator.id,
    });
    expect(narrowed.totalTransactions).toBe(0);
  });
});
