import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, createAdmin, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../test/harness';

/**
 * server/plugins/trpc-queries.ts answers plain tRPC GET queries itself (issue 9, goal b). It must
 * answer exactly what tRPC's own adapter answers: every request below goes to an app with the
 * fast path and to one without it, and status, body and the headers a client reads must match.
 * The cases the fast path claims must really be answered by it (it sets content-length; the
 * adapter streams its Response), or the comparison would prove nothing.
 */

const database = setupTestDatabase();
let fast: FastifyInstance;
let adapterOnly: FastifyInstance;
let agent: { id: string; token: string };
let admin: { id: string; token: string };
let transactionId: string;

beforeAll(async () => {
  const clock = new TestClock();
  const deps = testDeps(database.db, { clock });
  fast = buildTestApp(deps);
  adapterOnly = buildTestApp(deps, { trpcQueriesFastPath: false });
  const agentRow = await createUser(database.db);
  const adminRow = await createAdmin(database.db);
  agent = { id: agentRow.id, token: await accessTokenFor(agentRow, { now: clock.now() }) };
  admin = { id: adminRow.id, token: await accessTokenFor(adminRow, { now: clock.now() }) };
  transactionId = (await createTransaction(database.db, { userId: agent.id, streetAddress: '9 Elm Row' })).id;
});
afterAll(async () => {
  await fast.close();
  await adapterOnly.close();
});

const batchOf = (paths: string[], inputs: unknown[]) =>
  `/trpc/${paths.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify({ ...inputs }))}`;
const single = (path: string, input: unknown) =>
  `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;

type Case = { name: string; url: () => string; token?: () => string; headers?: Record<string, string> };

/** Plain GET queries: the fast path answers these. */
const claimed: Case[] = [
  {
    name: 'a batch of one, as the client sends it',
    url: () => batchOf(['transactions.list'], [{ userId: agent.id, page: 1 }]),
    token: () => agent.token,
  },
  {
    name: 'a batch of two queries',
    url: () =>
      batchOf(['settings.getUser', 'notifications.list'], [{ userId: agent.id }, { userId: agent.id }]),
    token: () => agent.token,
  },
  {
    name: 'a batch of mixed outcomes (207)',
    url: () => batchOf(['transactions.list', 'adminTransactions.list'], [{ userId: agent.id }, {}]),
    token: () => agent.token,
  },
  {
    name: 'not a batch',
    url: () => single('transactions.get', { id: transactionId, userId: agent.id }),
    token: () => agent.token,
  },
  { name: 'no input at all', url: () => '/trpc/templates.all?batch=1', token: () => agent.token },
  {
    name: 'invalid input (400 with issues)',
    url: () => batchOf(['transactions.list'], [{ userId: 'not-a-uuid', page: 0 }]),
    token: () => agent.token,
  },
  { name: 'anonymous (401)', url: () => batchOf(['transactions.list'], [{ userId: agent.id }]) },
  {
    name: 'a token that is not valid (401)',
    url: () => batchOf(['transactions.list'], [{ userId: agent.id }]),
    token: () => `${agent.token}x`,
  },
  {
    name: "another agent's path (403)",
    url: () => batchOf(['transactions.list'], [{ userId: admin.id }]),
    token: () => agent.token,
  },
  {
    name: 'a transaction that is not there (404)',
    url: () => single('transactions.get', { id: randomUUID(), userId: agent.id }),
    token: () => agent.token,
  },
  {
    name: 'an admin search',
    url: () => batchOf(['adminTransactions.search'], [{ term: 'elm row' }]),
    token: () => admin.token,
  },
];

/** Everything else stays with tRPC's adapter; compared all the same. */
const leftToTheAdapter: Case[] = [
  { name: 'a mutation sent as GET', url: () => batchOf(['auth.logout'], [{}]), token: () => agent.token },
  { name: 'an unknown procedure', url: () => batchOf(['transactions.nope'], [{}]), token: () => agent.token },
  {
    name: 'input that is not JSON',
    url: () => '/trpc/transactions.list?batch=1&input=%7Bnope',
    token: () => agent.token,
  },
  {
    name: 'a batch whose input is not an object',
    url: () => `/trpc/transactions.list?batch=1&input=${encodeURIComponent('[1]')}`,
    token: () => agent.token,
  },
  {
    name: 'a streaming request',
    url: () => batchOf(['transactions.list'], [{ userId: agent.id }]),
    token: () => agent.token,
    headers: { 'trpc-accept': 'application/jsonl' },
  },
];

async function both(test: Case) {
  const request = {
    method: 'GET' as const,
    url: test.url(),
    headers: { ...(test.token ? { authorization: `Bearer ${test.token()}` } : {}), ...test.headers },
  };
  return [await fast.inject(request), await adapterOnly.inject(request)] as const;
}

describe('plain tRPC GET queries', () => {
  it.each(claimed)('$name: answered by the fast path exactly as by the adapter', async (test) => {
    const [mine, theirs] = await both(test);
    expect(mine.statusCode).toBe(theirs.statusCode);
    expect(mine.json()).toEqual(theirs.json());
    expect(mine.headers['content-type']).toBe(theirs.headers['content-type']);
    expect(mine.headers.vary).toBe(theirs.headers.vary);
    expect(mine.headers['content-length']).toBeDefined(); // answered by the fast path
    expect(theirs.headers['content-length']).toBeUndefined(); // streamed by the adapter
  });

  it('covers success, client errors and a mixed batch among the cases above', async () => {
    const statuses = new Set<number>();
    for (const test of claimed) statuses.add((await both(test))[0].statusCode);
    expect([...statuses].sort()).toEqual([200, 207, 400, 401, 403, 404]);
  });
});

describe('everything else', () => {
  it.each(leftToTheAdapter)('$name: left to the adapter', async (test) => {
    const [mine, theirs] = await both(test);
    expect(mine.statusCode).toBe(theirs.statusCode);
    expect(mine.body).toBe(theirs.body);
    expect(mine.headers['content-length']).toBe(theirs.headers['content-length']);
  });
});
