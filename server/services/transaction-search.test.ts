import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../shared/messages';
import { accessTokenFor, createAdmin, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../test/harness';

/**
 * Transaction search on its hand-written statement (server/services/transactions/pages.ts).
 *
 * docs/PERFORMANCE.md, goal c: a transaction search runs under statement_timeout (SEARCH_TIMEOUT_MS), so a
 * search the database cannot answer in time is cut off with a 503 that says what to do, never a
 * 500 and never a request left scanning. On a test database every search is fast, so the slow
 * one is made deterministic: another session holds an exclusive lock on `transactions` and the
 * search waits for it, which statement_timeout counts like any other time.
 */

const database = setupTestDatabase();
const TIMEOUT_MS = 300;
let app: FastifyInstance;
let agent: { id: string; token: string };
let admin: { token: string };

beforeAll(async () => {
  const clock = new TestClock();
  app = buildTestApp(testDeps(database.db, { clock, config: testConfig({ searchTimeoutMs: TIMEOUT_MS }) }));
  const agentRow = await createUser(database.db);
  agent = { id: agentRow.id, token: await accessTokenFor(agentRow, { now: clock.now() }) };
  admin = { token: await accessTokenFor(await createAdmin(database.db), { now: clock.now() }) };
  await createTransaction(database.db, { userId: agent.id, streetAddress: '7 Quarry Lane' });
});
afterAll(() => app.close());

const get = (url: string, token: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

/** Runs `work` while another session holds ACCESS EXCLUSIVE on transactions (no read gets through). */
async function whileTransactionsLocked<T>(work: () => Promise<T>): Promise<T> {
  const blocker = new pg.Client({ connectionString: database.url });
  await blocker.connect();
  try {
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE');
    return await work();
  } finally {
    await blocker.query('ROLLBACK');
    await blocker.end();
  }
}

describe('a search that cannot finish within SEARCH_TIMEOUT_MS', () => {
  it('is cut off with 503 and a message saying what to do, over REST and tRPC, for admins and agents', async () => {
    const [adminRest, agentRest, adminTrpc] = await whileTransactionsLocked(() =>
      Promise.all([
        get('/api/admin/transactions/search/quarry', admin.token),
        get(`/api/transactions/search/${agent.id}/quarry`, agent.token),
        get(
          `/trpc/adminTransactions.search?input=${encodeURIComponent(JSON.stringify({ term: 'quarry' }))}`,
          admin.token,
        ),
      ]),
    );
    for (const answer of [adminRest, agentRest]) {
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({
        message: apiMessages.searchTooSlow,
        code: 'SERVICE_UNAVAILABLE',
        error: 'service-unavailable',
      });
    }
    expect(adminTrpc.statusCode).toBe(503);
    expect(adminTrpc.json().error).toMatchObject({
      message: apiMessages.searchTooSlow,
      data: { httpStatus: 503, appCode: 'SERVICE_UNAVAILABLE' },
    });
  });

  it('leaves the pool healthy: the same searches answer once the database can', async () => {
    const found = await get('/api/admin/transactions/search/quarry', admin.token);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({
      totalTransactions: 1,
      transactions: [{ streetAddress: '7 Quarry Lane' }],
    });
    const own = await get(`/api/transactions/search/${agent.id}/QUARRY`, agent.token);
    expect(own.json()).toMatchObject({ totalTransactions: 1 });
  });

  it('applies to searches only: the timeout is not left on the pooled connections', async () => {
    // Every connection of the pool has served a search by now; a statement longer than the
    // search timeout must still run to its end on each of them.
    const slow = await Promise.all(
      Array.from(
        { length: 5 },
        () => database.db.$queryRaw`SELECT 1 AS slept FROM pg_sleep(${(TIMEOUT_MS * 2) / 1000})`,
      ),
    );
    expect(slow).toHaveLength(5);
  });
});

describe('the search index and the fields it joins', () => {
  it('matches within one field only, even for a term that holds the separator the index joins them with', async () => {
    const search = async (term: string) =>
      (await get(`/api/admin/transactions/search/${encodeURIComponent(term)}`, admin.token)).json();
    expect((await search('Lane')).totalTransactions).toBe(1);
    expect((await search('Springfield')).totalTransactions).toBe(1);
    // "7 Quarry Lane" + U+001F + "Springfield" is how the index sees the row: not a match.
    expect((await search('Lane\u001fSpring')).totalTransactions).toBe(0);
  });
});

describe('terms no index can serve', () => {
  it('are answered like any other term on a small table: wildcards literal, long terms fine', async () => {
    for (const term of ['%%%', 'a', 'x'.repeat(200)]) {
      const answer = await get(`/api/admin/transactions/search/${encodeURIComponent(term)}`, admin.token);
      expect(answer.statusCode).toBe(200);
      expect(answer.json().totalTransactions).toBe(term === 'a' ? 1 : 0);
    }
  });
});
