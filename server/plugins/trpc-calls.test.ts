import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors';
import { accessTokenFor, createAdmin, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { captureLogs } from '../test/log-capture';
import { protectedProcedure, publicProcedure, router } from '../trpc/init';

/**
 * server/plugins/trpc-calls.ts answers plain tRPC queries (GET) and mutations (POST with a JSON
 * body) through callProcedure, the entry every transport shares. It must answer exactly what
 * tRPC's own adapter answers: every request below goes to an app with the
 * fast path and to one without it, and status, body and the headers a client reads must match.
 * The cases the fast path claims must really be answered by it (it sets content-length; the
 * adapter streams its Response), or the comparison would prove nothing.
 */

const database = setupTestDatabase();
/** What each app logs at warn and above: the failures, which both must log alike. */
const fastLog = captureLogs({ level: 'warn' });
const adapterLog = captureLogs({ level: 'warn' });
let fast: FastifyInstance;
let adapterOnly: FastifyInstance;
let agent: { id: string; token: string };
let admin: { id: string; token: string };
let transactionId: string;

beforeAll(async () => {
  const clock = new TestClock();
  const deps = testDeps(database.db, { clock });
  fast = buildTestApp(deps, { loggerInstance: fastLog.logger });
  adapterOnly = buildTestApp(deps, { trpcAdapterOnly: true, loggerInstance: adapterLog.logger });
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

type Case = {
  name: string;
  url: () => string;
  token?: () => string;
  headers?: Record<string, string>;
  /** A POST with this body (text, sent as it is); a GET without one. */
  body?: () => string;
};

/** A POST of mutations as tRPC's httpBatchLink sends it: a JSON body, `{"0": input, ...}` in a batch. */
const mutation = (name: string, paths: string[], inputs: () => unknown[], token?: () => string): Case => ({
  name,
  url: () => `/trpc/${paths.join(',')}?batch=1`,
  body: () => JSON.stringify({ ...inputs() }),
  headers: { 'content-type': 'application/json' },
  ...(token ? { token } : {}),
});

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
  // How the query string is read: Fastify's parse of it where that reads as URLSearchParams does.
  {
    name: 'repeated names: the first batch and the first input count',
    url: () =>
      `${batchOf(['transactions.list'], [{ userId: agent.id, page: 2 }])}&batch=0&input=${encodeURIComponent(
        JSON.stringify({ 0: { userId: agent.id, page: 3 } }),
      )}`,
    token: () => agent.token,
  },
  {
    name: 'escaped names, and "+" for a space',
    url: () =>
      `/trpc/adminTransactions.search?%62atch=1&%69nput=${encodeURIComponent(
        JSON.stringify({ 0: { term: 'elm row' } }),
      ).replaceAll('%20', '+')}`,
    token: () => admin.token,
  },
  {
    name: 'non-ASCII text in the input',
    url: () => batchOf(['adminTransactions.search'], [{ term: 'élm row ✓' }]),
    token: () => admin.token,
  },
  // Mutations: each runs once on each app, so only those that answer alike when repeated.
  mutation(
    'a mutation, as the client sends it',
    ['notifications.markAllRead'],
    () => [{ userId: agent.id }],
    () => agent.token,
  ),
  mutation(
    'a batch of two mutations, one refused (207)',
    ['notifications.markAllRead', 'notifications.markAllRead'],
    () => [{ userId: agent.id }, { userId: admin.id }],
    () => agent.token,
  ),
  mutation(
    'a mutation refused (403)',
    ['notifications.markAllRead'],
    () => [{ userId: admin.id }],
    () => agent.token,
  ),
  mutation(
    'a mutation with invalid input (400)',
    ['notifications.markAllRead'],
    () => [{ userId: 'nope' }],
    () => agent.token,
  ),
  mutation('an anonymous mutation (401)', ['notifications.markAllRead'], () => [{ userId: agent.id }]),
  {
    name: 'a mutation not in a batch, the media type in capitals with a charset',
    url: () => '/trpc/notifications.markAllRead',
    body: () => JSON.stringify({ userId: agent.id }),
    headers: { 'content-type': 'Application/JSON; charset=utf-8' },
    token: () => agent.token,
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
  mutation(
    'a query sent as POST',
    ['transactions.list'],
    () => [{ userId: agent.id }],
    () => agent.token,
  ),
  {
    ...mutation(
      'a mutation whose body is not JSON',
      ['notifications.markAllRead'],
      () => [],
      () => agent.token,
    ),
    body: () => '{nope',
  },
  {
    ...mutation(
      'a mutation with an empty body',
      ['notifications.markAllRead'],
      () => [],
      () => agent.token,
    ),
    body: () => '',
  },
  {
    ...mutation(
      'a mutation sent as text/plain',
      ['notifications.markAllRead'],
      () => [{ userId: agent.id }],
      () => agent.token,
    ),
    headers: { 'content-type': 'text/plain' },
  },
  {
    ...mutation(
      'a batch whose body is not an object',
      ['notifications.markAllRead'],
      () => [],
      () => agent.token,
    ),
    body: () => '[1]',
  },
];

type LogEntry = Record<string, unknown>;

/** A log line without what differs between any two requests (time, ids, process). */
function comparable(entry: LogEntry): LogEntry {
  const {
    time: _time,
    pid: _pid,
    hostname: _hostname,
    requestId: _requestId,
    reqId: _reqId,
    ...rest
  } = entry;
  return rest;
}

/** The lines `log` received while `work` ran. */
async function logged<T>(log: ReturnType<typeof captureLogs>, work: () => Promise<T>) {
  const start = log.lines.length;
  const result = await work();
  return { result, lines: log.entries().slice(start).map(comparable) };
}

/** One request to the app with the fast path and to the one without; their answers and log lines. */
async function bothWithLogs(
  test: Case,
  apps: readonly [FastifyInstance, FastifyInstance] = [fast, adapterOnly],
) {
  const request = {
    method: test.body ? ('POST' as const) : ('GET' as const),
    url: test.url(),
    headers: { ...(test.token ? { authorization: `Bearer ${test.token()}` } : {}), ...test.headers },
    ...(test.body ? { payload: test.body() } : {}),
  };
  const mine = await logged(fastLog, () => apps[0].inject(request));
  const theirs = await logged(adapterLog, () => apps[1].inject(request));
  return { mine: mine.result, theirs: theirs.result, mineLogged: mine.lines, theirsLogged: theirs.lines };
}

async function both(test: Case) {
  const { mine, theirs, mineLogged, theirsLogged } = await bothWithLogs(test);
  // What one logs, the other logs too: nothing for a client's mistake, the same line for a failure.
  expect(mineLogged).toEqual(theirsLogged);
  return [mine, theirs] as const;
}

describe('plain tRPC queries and mutations', () => {
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

describe('failures on the server side', () => {
  /** Procedures that fail in every way the logs tell apart. */
  const failing = router({
    crash: publicProcedure.output(z.object({ ok: z.boolean() })).query(() => {
      throw new Error('the disk caught fire');
    }),
    /** A 503 that says why (a search cut off, a drain): a decision, not logged as a failure. */
    decided: publicProcedure.output(z.object({ ok: z.boolean() })).query(() => {
      throw new AppError('SERVICE_UNAVAILABLE', 'Try again shortly');
    }),
    /** A 503 standing for a failure (its cause): logged like any failure. */
    failedBelow: publicProcedure.output(z.object({ ok: z.boolean() })).query(() => {
      const error = new AppError('SERVICE_UNAVAILABLE', 'Storage is unavailable');
      error.cause = new Error('socket hang up');
      throw error;
    }),
    refused: protectedProcedure.output(z.object({ ok: z.boolean() })).query(() => ({ ok: true })),
    fine: publicProcedure.output(z.object({ ok: z.boolean() })).query(() => ({ ok: true })),
  });
  let failingFast: FastifyInstance;
  let failingAdapter: FastifyInstance;
  beforeAll(() => {
    const deps = testDeps(database.db);
    const api = { router: failing };
    failingFast = buildTestApp(deps, { api, loggerInstance: fastLog.logger });
    failingAdapter = buildTestApp(deps, {
      api,
      trpcAdapterOnly: true,
      loggerInstance: adapterLog.logger,
    });
  });
  afterAll(async () => {
    await failingFast.close();
    await failingAdapter.close();
  });

  it.each([
    { name: 'an unexpected error (500)', path: 'crash', status: 500, logs: 1 },
    { name: 'a 503 that is a decision', path: 'decided', status: 503, logs: 0 },
    { name: 'a 503 with its cause', path: 'failedBelow', status: 503, logs: 1 },
    { name: 'a batch of a failure and a success (207)', path: 'crash,fine', status: 207, logs: 1 },
    { name: 'a refusal (401)', path: 'refused', status: 401, logs: 0 },
  ])('$name: the same answer and the same log lines, without the cause', async ({ path, status, logs }) => {
    const test: Case = { name: path, url: () => `/trpc/${path}?batch=1&input=${encodeURIComponent('{}')}` };
    const { mine, theirs, mineLogged, theirsLogged } = await bothWithLogs(test, [
      failingFast,
      failingAdapter,
    ]);
    expect(mine.statusCode).toBe(status);
    expect(mine.statusCode).toBe(theirs.statusCode);
    expect(mine.json()).toEqual(theirs.json());
    expect(mine.headers['content-length']).toBeDefined(); // the fast path answered
    expect(mineLogged).toHaveLength(logs);
    expect(mineLogged).toEqual(theirsLogged);
    for (const line of mineLogged) {
      expect(line).toMatchObject({ level: 50, msg: 'procedure failed', path: path.split(',')[0] });
      expect(JSON.stringify(line)).not.toContain('at ');
    }
  });
});
