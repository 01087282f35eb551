import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { attachTestFile, createTransaction, createUser } from '../test/factories';
import { serviceContext, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import type { Caller, CallerContext } from './context';
import { sessionUser } from './sessions';
import { findVisible } from './transactions/access';
import { listAll, listForUser, searchAll } from './transactions/pages';
import { reviewQueue } from './transactions/review-queue';
import { listUsers } from './users';

/**
 * What a caller reaches, as properties. fast-check generates brokerages of 0 to 3 offices, agents
 * in an office or none, coordinators working for random agents, office admins, brokerage-wide
 * admins and perhaps the owner (in an office or not: the owner is brokerage-wide all the same),
 * and transactions of random agents, some deleted, some with a document awaiting review. Every
 * user is then the caller in turn, loaded as a session loads it, and each answer (the admin list
 * and search, the review queue, the users list, the agent's own list, and the lookup of every
 * transaction by id) is compared with the rule worked out here from the generated rows alone:
 * an office admin reaches its office's users and the transactions of its office's agents; a
 * brokerage-wide admin and the owner everything; an agent its own transactions and those of the
 * agents it coordinates for. Each run starts from an empty brokerage, so "everything" is exactly
 * what the run made.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let deps: AppDeps;
/** Per property: enough to meet empty offices, crowded ones and coordinators of several agents. */
const RUNS = 25;
const stats = { worlds: 0, callers: 0, lookups: 0 };

beforeAll(() => {
  deps = testDeps(database.db, { clock });
});
afterAll(() => {
  // Printed for the record of what was covered (noConsole allows warn, not log).
  console.warn(
    `reach properties: ${stats.worlds} worlds, ${stats.callers} callers, ${stats.lookups} lookups`,
  );
});

// --- Worlds ---

const MAX_OFFICES = 3;
const officePick = fc.option(fc.nat(MAX_OFFICES - 1), { nil: null });
const person = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('agent' as const),
      office: officePick,
      /** Indexes into the world's agents, itself excepted. */
      coordinatesFor: fc.uniqueArray(fc.nat(7), { maxLength: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('officeAdmin' as const), office: fc.nat(MAX_OFFICES - 1) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wideAdmin' as const) }) },
);
const worldArb = fc.record({
  offices: fc.integer({ min: 0, max: MAX_OFFICES }),
  people: fc.array(person, { minLength: 1, maxLength: 7 }),
  owner: fc.option(fc.record({ office: officePick }), { nil: null }),
  transactions: fc.array(fc.record({ agent: fc.nat(7), deleted: fc.boolean(), awaiting: fc.boolean() }), {
    maxLength: 8,
  }),
});
type WorldSpec = typeof worldArb extends fc.Arbitrary<infer T> ? T : never;

/** A user as made, with what the rule needs to know of it. */
type Made = {
  id: string;
  role: 'user' | 'admin';
  isOwner: boolean;
  officeId: string | null;
  coordinatesFor: string[];
};
type MadeDeal = { id: string; agentId: string; deleted: boolean; awaiting: boolean };

async function make(spec: WorldSpec): Promise<{ users: Made[]; deals: MadeDeal[] }> {
  // Nothing of an earlier run: offices, users and everything hanging on them go (DELETE: a
  // TRUNCATE of every table that names a user costs six times as much as the whole check).
  await database.db.$executeRawUnsafe('DELETE FROM transactions');
  await database.db.$executeRawUnsafe('DELETE FROM users');
  await database.db.$executeRawUnsafe('DELETE FROM offices');
  const offices: string[] = [];
  for (let i = 0; i < spec.offices; i++)
    offices.push((await database.db.office.create({ data: { name: `Office ${i}` } })).id);
  // An index that points at no office (there are fewer than it asks) means none.
  const officeAt = (index: number | null) => (index === null ? null : (offices[index] ?? null));
  const inOffice = (id: string | null) => (id === null ? {} : { office: { connect: { id } } });

  const users: Made[] = await Promise.all(
    spec.people.map(async (p) => {
      const officeId = p.kind === 'wideAdmin' ? null : officeAt(p.office);
      const role = p.kind === 'agent' ? ('user' as const) : ('admin' as const);
      const row = await createUser(database.db, { role, ...inOffice(officeId) });
      return { id: row.id, role, isOwner: false, officeId, coordinatesFor: [] as string[] };
    }),
  );
  if (spec.owner) {
    const officeId = officeAt(spec.owner.office);
    const row = await createUser(database.db, { role: 'admin', isOwner: true, ...inOffice(officeId) });
    users.push({ id: row.id, role: 'admin', isOwner: true, officeId, coordinatesFor: [] });
  }
  const agents = users.filter((user) => user.role === 'user');
  for (const [i, p] of spec.people.entries()) {
    if (p.kind !== 'agent') continue;
    const coordinator = users[i] as Made;
    const picked = new Set(p.coordinatesFor.map((n) => agents[n % agents.length]?.id ?? ''));
    picked.delete(coordinator.id);
    coordinator.coordinatesFor = [...picked];
    if (picked.size)
      await database.db.coordination.createMany({
        data: [...picked].map((agentId) => ({ coordinatorId: coordinator.id, agentId })),
      });
  }

  if (agents.length === 0) return { users, deals: [] };
  const deals = await Promise.all(
    spec.transactions.map(async (t, n): Promise<MadeDeal> => {
      const agentId = (agents[t.agent % agents.length] as Made).id;
      const deal = await createTransaction(database.db, {
        userId: agentId,
        streetAddress: `${n + 1} Harbor Lane`,
        documents: ['Listing Agreement'],
        ...(t.deleted ? { deletedAt: clock.now() } : {}),
      });
      const form = deal.forms[0];
      if (t.awaiting && form) await attachTestFile(database.db, form, { at: clock.now() });
      return { id: deal.id, agentId, deleted: t.deleted, awaiting: t.awaiting };
    }),
  );
  return { users, deals };
}

// --- The rule, from the generated rows alone ---

function expectedReach(caller: Made, users: Made[], deals: MadeDeal[]) {
  const officeOf = new Map(users.map((user) => [user.id, user.officeId]));
  const heldToOffice = caller.role === 'admin' && !caller.isOwner && caller.officeId !== null;
  const reachesDeal = (deal: MadeDeal) =>
    caller.role === 'admin'
      ? !heldToOffice || officeOf.get(deal.agentId) === caller.officeId
      : deal.agentId === caller.id || caller.coordinatesFor.includes(deal.agentId);
  const reached = deals.filter((deal) => reachesDeal(deal) && !deal.deleted);
  return {
    deals: sorted(reached.map((deal) => deal.id)),
    queue: sorted(reached.filter((deal) => deal.awaiting).map((deal) => deal.id)),
    users: sorted(
      users.filter((user) => !heldToOffice || user.officeId === caller.officeId).map((user) => user.id),
    ),
  };
}

const sorted = (ids: Iterable<string>) => [...ids].sort();
const page = { page: 1, limit: 100 };

async function callerOf(id: string): Promise<CallerContext> {
  const session = await sessionUser(serviceContext(deps), { id });
  if (!session) throw new Error(`no session for ${id}`);
  const caller: Caller = {
    id: session.id,
    role: session.role,
    isOwner: session.isOwner,
    officeId: session.officeId,
    coordinatesFor: session.coordinatesFor,
  };
  return serviceContext(deps, caller);
}

/** Whether findVisible finds the transaction for the caller: true, or false on its 404. */
async function finds(ctx: CallerContext, id: string): Promise<boolean> {
  stats.lookups++;
  try {
    await findVisible(ctx, id);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return false;
    throw error;
  }
}

type Check = (ctx: CallerContext, caller: Made, world: { users: Made[]; deals: MadeDeal[] }) => Promise<void>;

/** Makes random brokerages and runs `check` with every user of each as the caller. */
const everyCaller = (check: Check) =>
  fc.assert(
    fc.asyncProperty(worldArb, async (spec) => {
      stats.worlds++;
      const world = await make(spec);
      for (const user of world.users) {
        stats.callers++;
        await check(await callerOf(user.id), user, world);
      }
    }),
    { numRuns: RUNS },
  );

const ids = (rows: Array<{ _id: string }>) => sorted(rows.map((row) => row._id));

describe('what a caller reaches, in random brokerages', () => {
  it('lists, searches and looks up exactly the transactions the office and coordinator rules give', async () => {
    await everyCaller(async (ctx, caller, { users, deals }) => {
      const want = expectedReach(caller, users, deals).deals;
      const who = { caller, deals, users };
      if (caller.role === 'admin') {
        expect({ ...who, list: ids((await listAll(ctx, page)).transactions) }).toEqual({
          ...who,
          list: want,
        });
        const search = await searchAll(ctx, { ...page, term: 'Harbor' });
        expect({ ...who, search: ids(search.transactions) }).toEqual({ ...who, search: want });
      } else {
        const own = await listForUser(ctx, { ...page, userId: caller.id });
        expect({ ...who, own: ids(own.transactions) }).toEqual({ ...who, own: want });
        // Narrowed to one user, and through the path naming that user: an agent it works for (or
        // itself) gives that agent's deals, any other user nothing (403 on the path naming them).
        for (const other of users) {
          const acts = other.id === caller.id || caller.coordinatesFor.includes(other.id);
          const theirs = acts
            ? sorted(deals.filter((d) => d.agentId === other.id && !d.deleted).map((d) => d.id))
            : [];
          const narrowed = await listForUser(ctx, { ...page, userId: caller.id, agentId: other.id });
          const named = await listForUser(ctx, { ...page, userId: other.id }).then(
            (answer) => ids(answer.transactions),
            (error: unknown) => (error instanceof AppError ? error.code : error),
          );
          expect({ ...who, other: other.id, narrowed: ids(narrowed.transactions), named }).toEqual({
            ...who,
            other: other.id,
            narrowed: theirs,
            // Its own id is its own list: its deals and its agents'.
            named: other.id === caller.id ? want : acts ? theirs : 'FORBIDDEN',
          });
        }
      }
      const found: string[] = [];
      for (const deal of deals) if (await finds(ctx, deal.id)) found.push(deal.id);
      expect({ ...who, found: sorted(found) }).toEqual({ ...who, found: want });
    });
  }, 120_000);

  it("queues for an admin's review exactly the documents of the transactions it reaches", async () => {
    await everyCaller(async (ctx, caller, { users, deals }) => {
      if (caller.role !== 'admin') return;
      const queue = await reviewQueue(ctx, page);
      const got = sorted(queue.items.map((item) => item.transaction._id));
      expect({ caller, deals, users, queue: got }).toEqual({
        caller,
        deals,
        users,
        queue: expectedReach(caller, users, deals).queue,
      });
    });
  }, 120_000);

  it("lists for an admin exactly the users of its office, or everyone's for a brokerage-wide one", async () => {
    await everyCaller(async (ctx, caller, { users, deals }) => {
      if (caller.role !== 'admin') return;
      const got = ids((await listUsers(ctx, page)).users);
      expect({ caller, users, got }).toEqual({
        caller,
        users,
        got: expectedReach(caller, users, deals).users,
      });
    });
  }, 120_000);
});
