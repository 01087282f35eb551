import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon, { type RequestContext, type RequestParams } from 'autocannon';
import { afterAll, beforeAll, expect, onTestFailed, test } from 'vitest';
import { type PortalStack, startPortalStack, summariseServerLog } from '../test/built-server';
import { runSql, withAdminClient } from '../test/databases';
import { writePerformanceSection } from '../test/performance-doc';
import { createAgents, openTransaction, type SignedIn, signIn } from '../test/rest-client';

/**
 * 60 s at 100 connections of mixed reads and writes through the REST API,
 * against the built server in a process of its own. Zero 5xx (zero non-2xx at all: nothing here
 * should be refused), and zero lost writes: every transaction and comment answered 201 is a row
 * afterwards. Latency percentiles and throughput are recorded in docs/PERFORMANCE.md, never
 * asserted: this machine is small and shared.
 */

const CONNECTIONS = 100;
const DURATION_SECONDS = 60;
const AGENTS = 10;
const TRANSACTIONS_PER_AGENT_BEFORE = 3;
const COMMAND = 'npm run test:resilience';
const COMMAND_ALONE =
  'npx vitest run --config vitest.resilience.config.ts server/resilience/load.resilience.ts';

type LoadOp = 'list' | 'search' | 'detail' | 'notifications' | 'templates' | 'create' | 'comment';
const WRITES: ReadonlySet<LoadOp> = new Set(['create', 'comment']);
/** Relative weights: two thirds reads, one third writes. */
const MIX: ReadonlyArray<readonly [LoadOp, number]> = [
  ['list', 15],
  ['search', 10],
  ['detail', 20],
  ['notifications', 10],
  ['templates', 10],
  ['create', 15],
  ['comment', 20],
];
const CITIES = ['Portland', 'Oakland', 'Fresno', 'Eugene', 'Boise'];

type Agent = SignedIn & { transactions: Array<{ id: string; formIds: string[] }> };

let stack: PortalStack | undefined;
beforeAll(async () => {
  // No per-IP limit: 100 connections from one machine would otherwise be answered 429 at once.
  stack = await startPortalStack({ RATE_LIMIT_PER_MIN: '0' });
});
afterAll(async () => {
  await stack?.close();
});

function pickOne<T>(items: readonly T[]): T {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error('picked from an empty list');
  return item;
}

const TOTAL_WEIGHT = MIX.reduce((sum, [, weight]) => sum + weight, 0);
function pickOp(): LoadOp {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const [op, weight] of MIX) {
    roll -= weight;
    if (roll < 0) return op;
  }
  return 'list';
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

type LatencyRow = { name: string; count: number; p50: number; p95: number; p99: number; max: number };
function latencyRow(name: string, samples: number[]): LatencyRow {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    name,
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
}

type LoadReport = {
  date: Date;
  postgres: string;
  durationSeconds: number;
  requests: number;
  throughput: number;
  statusCounts: Record<string, number>;
  connectionErrors: number;
  timeouts: number;
  transactions: { answered: number; rows: number };
  comments: { answered: number; rows: number };
  latencies: LatencyRow[];
};

/** The docs/PERFORMANCE.md section: what was measured, where, how, and the figures. */
function loadReport(report: LoadReport): string {
  const cpus = os.cpus();
  const mix = MIX.map(([op, weight]) => `${op} ${Math.round((weight / TOTAL_WEIGHT) * 100)}%`).join(', ');
  const statuses = Object.entries(report.statusCounts)
    .map(([status, count]) => `${count} x ${status}`)
    .join(', ');
  return [
    '## Load run: mixed REST traffic',
    '',
    `Measured ${report.date.toISOString().replace('T', ' ').slice(0, 16)} UTC by \`${COMMAND}\``,
    `(server/resilience/load.resilience.ts; alone: \`${COMMAND_ALONE}\`).`,
    '',
    `- Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}, PostgreSQL ${report.postgres}.`,
    '  The load generator, the server and PostgreSQL share these cores; other test runs may have been running beside them.',
    `- Load: autocannon 9, ${CONNECTIONS} connections, ${DURATION_SECONDS} s, no pipelining, 10 s timeout. Each request picks one of ${AGENTS} agents (created through POST /api/users, ${TRANSACTIONS_PER_AGENT_BEFORE} transactions each to start with) and one of: ${mix}.`,
    '  Writes: POST /api/transactions (Purchase/Buyer, a checklist of 9 forms) and POST /api/transactions/:id/forms/:formId/comments.',
    "  Reads: the agent's transaction list and search, a transaction's detail, the notifications of an agent or of the owner (whom every agent write notifies), the templates.",
    '- Server: the built bundle (`node dist/server/main.js`), one process, NODE_ENV=production, LOG_LEVEL=warn, its default pool of 10 database connections.',
    '  RATE_LIMIT_PER_MIN=0: the per-IP limit (1200 a minute by default) would otherwise answer nearly all of this one-machine load with 429.',
    '- Database: an embedded PostgreSQL started by the test with fsync and synchronous_commit off (a throw-away cluster), so the figures are not disk-bound.',
    '',
    `Results: ${report.requests} requests in ${report.durationSeconds} s, **${report.throughput} requests/s**; ${statuses}; **0 5xx**, ${report.connectionErrors} connection errors, ${report.timeouts} timeouts.`,
    `Writes answered 201: ${report.transactions.answered} transactions (${report.transactions.rows} rows added) and ${report.comments.answered} comments (${report.comments.rows} rows added): **0 lost**.`,
    'Rows beyond the 201s are requests the run cut off when it ended, whose answers were never read.',
    '',
    `Latency as the client saw it, from sending a request to the end of its answer. With ${CONNECTIONS} connections always waiting, most of it is queueing: ${CONNECTIONS} / ${report.throughput} requests/s = ${Math.round((CONNECTIONS / report.throughput) * 1000)} ms on average.`,
    '',
    '| Requests | count | p50 ms | p95 ms | p99 ms | max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...report.latencies.map(
      (r) =>
        `| ${r.name} | ${r.count} | ${[r.p50, r.p95, r.p99, r.max].map((ms) => ms.toFixed(1)).join(' | ')} |`,
    ),
  ].join('\n');
}

/** Counts rows until two readings half a second apart agree: requests cut off when the run
 * ended may still be finishing on the server. */
async function settledCount(url: string, table: 'transactions' | 'comments'): Promise<number> {
  let previous = -1;
  for (let attempt = 0; attempt < 20; attempt++) {
    const [row] = await runSql<{ count: number }>(url, `SELECT count(*)::int AS count FROM ${table}`);
    if (row?.count === previous) return previous;
    previous = row?.count ?? -1;
    await sleep(500);
  }
  throw new Error(`${table} kept changing after the run ended`);
}

test(`${DURATION_SECONDS} s at ${CONNECTIONS} connections of mixed reads and writes: no 5xx, no lost write`, {
  timeout: 180_000,
}, async () => {
  if (!stack) throw new Error('the stack did not start');
  const started = stack;
  onTestFailed(() =>
    console.warn(`Server log of the failed run:\n${summariseServerLog(started.server.output())}`),
  );
  const { baseUrl } = stack.server;
  const owner = await signIn(baseUrl, stack.owner.email, stack.owner.password);
  const agents: Agent[] = (await createAgents(baseUrl, owner, AGENTS, 'load')).map((agent) => ({
    ...agent,
    transactions: [],
  }));
  for (const agent of agents) {
    for (let i = 1; i <= TRANSACTIONS_PER_AGENT_BEFORE; i++) {
      const created = await openTransaction(baseUrl, agent.token, {
        streetAddress: `${i} Warmup Way`,
        city: pickOne(CITIES),
      });
      agent.transactions.push({ id: created._id, formIds: created.forms.map((form) => form._id) });
    }
  }
  const transactionsBefore = await settledCount(stack.databaseUrl, 'transactions');
  const commentsBefore = await settledCount(stack.databaseUrl, 'comments');

  const latencies = new Map<LoadOp, number[]>(MIX.map(([op]) => [op, []]));
  const statuses = new Map<number, number>();
  const confirmed = { create: [] as string[], comment: [] as string[] };
  const actors: SignedIn[] = [...agents, owner];

  function setupRequest(request: RequestParams, context: RequestContext): RequestParams {
    const op = pickOp();
    const agent = pickOne(agents);
    const target = pickOne(agent.transactions);
    const headers: Record<string, string> = { authorization: `Bearer ${agent.token}` };
    const json = (body: unknown) => {
      headers['content-type'] = 'application/json';
      return JSON.stringify(body);
    };
    let next: RequestParams;
    if (op === 'list') {
      next = { method: 'GET', path: `/api/transactions/${agent.id}?page=1&limit=10` };
    } else if (op === 'search') {
      next = { method: 'GET', path: `/api/transactions/search/${agent.id}/${pickOne(CITIES).slice(0, 4)}` };
    } else if (op === 'detail') {
      next = { method: 'GET', path: `/api/transactions/individual/${target.id}/${agent.id}` };
    } else if (op === 'notifications') {
      // The owner too: every agent's write notifies the admins, so theirs is the long list.
      const reader = pickOne(actors);
      headers.authorization = `Bearer ${reader.token}`;
      next = { method: 'GET', path: `/api/notifications/${reader.id}` };
    } else if (op === 'templates') {
      next = { method: 'GET', path: '/api/admin/forms/transactions/view/all' };
    } else if (op === 'create') {
      const body = json({
        streetAddress: `${Math.floor(Math.random() * 9999)} Load Street`,
        city: pickOne(CITIES),
        state: 'OR',
        zip: '97201',
        type: 'Purchase',
        role: 'Buyer',
      });
      next = { method: 'POST', path: '/api/transactions', body };
    } else {
      const body = json({ text: `Load comment ${Math.random().toString(36).slice(2)}` });
      next = {
        method: 'POST',
        path: `/api/transactions/${target.id}/forms/${pickOne(target.formIds)}/comments`,
        body,
      };
    }
    context.op = op;
    context.agent = agent;
    context.sentAt = performance.now();
    return { ...request, ...next, headers };
  }

  function onResponse(status: number, body: string, context: RequestContext): void {
    const op = context.op as LoadOp;
    latencies.get(op)?.push(performance.now() - (context.sentAt as number));
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status !== 201 || !WRITES.has(op)) return;
    const answer = JSON.parse(body) as { _id: string; forms?: Array<{ _id: string }> };
    if (op === 'create') {
      confirmed.create.push(answer._id);
      // Later requests read and comment on it too, as a busy portal would.
      (context.agent as Agent).transactions.push({
        id: answer._id,
        formIds: (answer.forms ?? []).map((form) => form._id),
      });
    } else {
      confirmed.comment.push(answer._id);
    }
  }

  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    timeout: 10,
    requests: [{ setupRequest, onResponse }],
  });

  // Nothing refused, nothing failed, nothing dropped; the process is still up.
  const statusCounts = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
  const serverErrors = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
  expect(serverErrors).toBe(0);
  expect({ statusCounts, errors: result.errors, timeouts: result.timeouts }).toEqual({
    statusCounts: { 200: expect.any(Number), 201: expect.any(Number) },
    errors: 0,
    timeouts: 0,
  });
  expect(stack.server.isRunning()).toBe(true);

  // Zero lost writes: every id answered 201 is a row. Rows beyond those are requests the run cut
  // off when it ended (at most one per connection), whose answers were never read.
  const transactionsAfter = await settledCount(stack.databaseUrl, 'transactions');
  const commentsAfter = await settledCount(stack.databaseUrl, 'comments');
  const lost = await withAdminClient(stack.databaseUrl, async (client) => ({
    transactions: (
      await client.query('SELECT unnest($1::uuid[]) AS id EXCEPT SELECT id FROM transactions', [
        confirmed.create,
      ])
    ).rows,
    comments: (
      await client.query('SELECT unnest($1::uuid[]) AS id EXCEPT SELECT id FROM comments', [
        confirmed.comment,
      ])
    ).rows,
  }));
  expect(lost).toEqual({ transactions: [], comments: [] });
  expect(new Set(confirmed.create).size).toBe(confirmed.create.length);
  expect(new Set(confirmed.comment).size).toBe(confirmed.comment.length);
  const unanswered = {
    transactions: transactionsAfter - transactionsBefore - confirmed.create.length,
    comments: commentsAfter - commentsBefore - confirmed.comment.length,
  };
  expect(unanswered.transactions).toBeGreaterThanOrEqual(0);
  expect(unanswered.comments).toBeGreaterThanOrEqual(0);
  expect(unanswered.transactions + unanswered.comments).toBeLessThanOrEqual(CONNECTIONS);
  expect(confirmed.create.length).toBeGreaterThan(0);
  expect(confirmed.comment.length).toBeGreaterThan(0);

  const everything = [...latencies.values()].flat();
  const rows = [
    latencyRow('all requests', everything),
    ...MIX.map(([op]) => latencyRow(op, latencies.get(op) ?? [])),
  ];
  const throughput = Math.round((everything.length / result.duration) * 10) / 10;
  const [postgres] = await runSql<{ version: string }>(
    stack.databaseUrl,
    "SELECT current_setting('server_version') AS version",
  );
  const figures = {
    requests: everything.length,
    throughputPerSecond: throughput,
    statusCounts,
    serverErrors,
    latencyMs: Object.fromEntries(rows.map(({ name, ...row }) => [name, row])),
    writes: {
      transactionsAnswered201: confirmed.create.length,
      transactionRowsAdded: transactionsAfter - transactionsBefore,
      commentsAnswered201: confirmed.comment.length,
      commentRowsAdded: commentsAfter - commentsBefore,
      lost: 0,
    },
  };
  process.stdout.write(`\nLoad run: ${JSON.stringify(figures, null, 2)}\n`);

  await writePerformanceSection(
    'resilience',
    loadReport({
      date: result.start,
      postgres: postgres?.version ?? 'unknown',
      durationSeconds: result.duration,
      requests: everything.length,
      throughput,
      statusCounts,
      connectionErrors: result.errors,
      timeouts: result.timeouts,
      transactions: { answered: confirmed.create.length, rows: transactionsAfter - transactionsBefore },
      comments: { answered: confirmed.comment.length, rows: commentsAfter - commentsBefore },
      latencies: rows,
    }),
  );
});
