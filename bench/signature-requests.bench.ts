import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../server/db/generated/client';
import type { CallerContext } from '../server/services/context';
import { listSignatureRequests } from '../server/services/esign/requests';
import { buildServerBundle, startBuiltServer, stopBuiltServer } from '../server/test/built-server';
import { signIn } from '../server/test/rest-client';
import type { Benchmark, Goal } from './lib/benchmark';
import { AGENT_PASSWORD, agentEmail, OWNER, openDataset } from './lib/dataset';
import {
  addSignatureRequests,
  BACKGROUND_SHARE,
  MEASURED,
  REQUESTS_PER_MEASURED,
  removeSignatureRequests,
} from './lib/esign-data';
import { explainAnalyze, normaliseSql, type Statement, usesIndexOn } from './lib/explain';
import { BENCH_RATE_LIMIT_PER_MIN } from './lib/portal-app';
import { datasetLine, gapLines, loadNoteOf, machineLine, thousands } from './lib/report';
import { median, percentile, round } from './lib/stats';

/**
 * GET /api/transactions/:id/signature-requests on the 1M dataset: the list the agent's e-signature
 * screen reads as it opens, for transactions with a handful of requests each, among the requests
 * of 1 transaction in 16 (bench/lib/esign-data.ts, added for the run and removed after it). Over
 * HTTP from the built server, as the transaction's agent, against the list's own statements by
 * SQL alone on a plain connection, alternated with it; p95 <= 50 ms, as for the other reads of one
 * transaction (its CDA versions). The statements are captured from the service itself (Prisma's
 * query events while listSignatureRequests runs), run again under EXPLAIN ANALYZE: no
 * sequential scan, the requests and their signers each read through their index.
 */

const COMMAND = 'npm run bench -- signature-requests';
const LIST_GOAL_MS = 50;
/** The busiest agent of the dataset: the most transactions for a visibility check to read among. */
const AGENT = agentEmail(0);
const INDEXES = {
  signature_requests: 'signature_requests_transaction_id_created_at_idx',
  signature_signers: 'signature_signers_request_id_position_key',
} as const;

/**
 * The statements the list sends for one transaction, in the order Prisma sent them, with their
 * values: the service run on a Prisma client of its own that reports every query.
 */
async function statementsOfList(url: string, caller: CallerContext['user'], id: string) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const db = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
    log: [{ emit: 'event', level: 'query' }],
  });
  const sent: Statement[] = [];
  db.$on('query', (event) => sent.push({ text: event.query, values: JSON.parse(event.params) as unknown[] }));
  try {
    // The list reads nothing of its context but the database and the caller.
    const ctx = { db, user: caller } as unknown as CallerContext;
    const answer = await listSignatureRequests(ctx, { id });
    return { statements: sent, requests: answer.length };
  } finally {
    await db.$disconnect();
  }
}

async function timeHttp(url: string, token: string, expected: number): Promise<number> {
  const began = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = await response.text();
  const ms = performance.now() - began;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${body}`);
  const rows = (JSON.parse(body) as unknown[]).length;
  if (rows !== expected) throw new Error(`${url} listed ${rows} requests, not ${expected}`);
  return ms;
}

/** The statements one after another on one connection: the database's share of an answer. */
async function timeSql(client: pg.Client, statements: Statement[]): Promise<number> {
  const began = performance.now();
  for (const statement of statements) await client.query(statement.text, [...statement.values]);
  return performance.now() - began;
}

/** The table a statement reads (FROM "public"."name"). */
const tableOf = (text: string) => /FROM "public"\."(\w+)"/.exec(text)?.[1] ?? 'unknown';

/** The tables a plan reads by a sequential scan. */
const seqScanned = (plan: string) => [...plan.matchAll(/Seq Scan on (\w+)/g)].map((match) => match[1] ?? '');

async function isEmpty(client: pg.Client, table: string): Promise<boolean> {
  const { rows } = await client.query(`SELECT 1 FROM ${client.escapeIdentifier(table)} LIMIT 1`);
  return rows.length === 0;
}

const ms = (value: number) => round(value, 1);

const benchmark: Benchmark = {
  name: 'signature-requests',
  async run({ log, quick }) {
    const dataset = await openDataset(log);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-signature-requests-'));
    let server: Awaited<ReturnType<typeof startBuiltServer>> | undefined;
    const sql = new pg.Client({ connectionString: dataset.url, application_name: 'bench-sql-alone' });
    await sql.connect();
    try {
      log(`adding signature requests: one on ${BACKGROUND_SHARE}, a handful on ${MEASURED} of ${AGENT}'s`);
      const began = Date.now();
      const rows = await addSignatureRequests(dataset.url, AGENT);
      const seedSeconds = Math.round((Date.now() - began) / 100) / 10;
      log(
        `added in ${seedSeconds} s: ${thousands(rows.requests)} requests, ${thousands(rows.signers)} signers, ${thousands(rows.fields)} fields`,
      );
      await buildServerBundle();
      server = await startBuiltServer(
        {
          DATABASE_URL: dataset.url,
          JWT_SECRET: 'signature-requests-bench-secret-long-enough-0123456789',
          ADMIN_EMAIL: OWNER.email,
          ADMIN_PASSWORD: OWNER.password,
          SEED_DEMO: 'false',
          LOG_LEVEL: 'warn',
          RATE_LIMIT_PER_MIN: BENCH_RATE_LIMIT_PER_MIN,
        },
        dataDir,
      );
      const baseUrl = server.baseUrl;
      const agent = await signIn(baseUrl, AGENT, AGENT_PASSWORD);
      const caller = { id: agent.id, role: 'user' as const, isOwner: false };

      const lists = [];
      for (const id of rows.transactionIds) {
        const captured = await statementsOfList(dataset.url, caller, id);
        if (captured.requests !== REQUESTS_PER_MEASURED)
          throw new Error(`the service listed ${captured.requests} requests of ${id}`);
        lists.push({ id, url: `${baseUrl}/api/transactions/${id}/signature-requests`, ...captured });
      }

      const rounds = quick ? 20 : 100;
      const http: number[] = [];
      const alone: number[] = [];
      log('warming up');
      for (const list of lists) {
        for (let i = 0; i < 5; i++) {
          await timeHttp(list.url, agent.token, REQUESTS_PER_MEASURED);
          await timeSql(sql, list.statements);
        }
      }
      const loadBefore = os.loadavg()[0] ?? 0;
      log(`${rounds} rounds over the ${lists.length} transactions, HTTP and SQL alone alternately first`);
      for (let i = 0; i < rounds; i++) {
        for (const list of lists) {
          if (i % 2 === 0) {
            http.push(await timeHttp(list.url, agent.token, REQUESTS_PER_MEASURED));
            alone.push(await timeSql(sql, list.statements));
          } else {
            alone.push(await timeSql(sql, list.statements));
            http.push(await timeHttp(list.url, agent.token, REQUESTS_PER_MEASURED));
          }
        }
      }
      const loadNote = loadNoteOf(loadBefore, os.loadavg()[0] ?? 0);
      const httpP95 = percentile(http, 95);
      const sqlP95 = percentile(alone, 95);
      log(`HTTP p95 ${ms(httpP95)} ms (p50 ${ms(median(http))}), SQL alone p95 ${ms(sqlP95)} ms`);

      const first = lists[0];
      if (!first) throw new Error('no transaction measured');
      const plans = [];
      for (const statement of first.statements) {
        const table = tableOf(statement.text);
        const plan = await explainAnalyze(dataset.url, statement, 40);
        const index = INDEXES[table as keyof typeof INDEXES];
        // PostgreSQL reads a table with no rows by a sequential scan whatever its indexes: the
        // dataset has no comments, which the visibility check reads with the transaction.
        const scanned = seqScanned(plan);
        const emptyScanned: string[] = [];
        for (const name of scanned) if (await isEmpty(sql, name)) emptyScanned.push(name);
        const indexed =
          scanned.length === emptyScanned.length &&
          (!index || (usesIndexOn(plan, table) && plan.includes(index)));
        plans.push({ table, statement, plan, indexed, emptyScanned });
      }
      const allIndexed = plans.every((p) => p.indexed);

      const goals: Goal[] = [
        {
          name: "GET /api/transactions/:id/signature-requests, a transaction's requests: HTTP p95",
          goal: `<= ${LIST_GOAL_MS} ms`,
          baseline: `its ${first.statements.length} statements by SQL alone, one after another on a plain connection: p95 ${ms(sqlP95)} ms`,
          measured: `p95 ${ms(httpP95)} ms (p50 ${ms(median(http))} ms; ratio to SQL ${round(httpP95 / sqlP95, 2)})`,
          met: httpP95 <= LIST_GOAL_MS,
          figures: [{ value: httpP95, threshold: LIST_GOAL_MS, unit: 'ms', better: 'lower' }],
          ...(httpP95 <= LIST_GOAL_MS
            ? {}
            : { gap: `on 2 shared cores (${loadNote}); the SQL alone is the baseline, see the rounds.` }),
        },
        {
          name: "The list's statements read through indexes",
          goal: `EXPLAIN: no sequential scan of a table with rows; signature_requests through ${INDEXES.signature_requests}, signature_signers through ${INDEXES.signature_signers}`,
          baseline: `${thousands(rows.requests)} requests, ${thousands(rows.signers)} signers in the tables`,
          measured: `${plans.filter((p) => p.indexed).length} of ${plans.length} statements indexed (${plans.map((p) => `${p.table} ${p.emptyScanned.length ? 'empty' : p.indexed ? 'indexed' : 'NOT indexed'}`).join(', ')})`,
          met: allIndexed,
          ...(allIndexed
            ? {}
            : {
                gap: `read without their index: ${plans
                  .filter((p) => !p.indexed)
                  .map((p) => p.table)
                  .join(', ')}; see the plans.`,
              }),
        },
      ];
      const markdown = [
        "## A transaction's signature requests, on the 1M dataset",
        '',
        `Command: \`${COMMAND}\` (bench/signature-requests.bench.ts).`,
        '',
        `${datasetLine(dataset.info)} Added for the run in ${seedSeconds} s, removed after it (bench/lib/esign-data.ts): one request on ${BACKGROUND_SHARE} (2 signers, 3 fields; 70% completed, 15% out, 10% voided, 5% declined), and on ${MEASURED} open transactions of ${AGENT} (the busiest agent) ${REQUESTS_PER_MEASURED} requests each, in every status, of 2 to 4 signers: ${thousands(rows.requests)} requests, ${thousands(rows.signers)} signers, ${thousands(rows.fields)} fields in all.`,
        '',
        `GET /api/transactions/:id/signature-requests as the agent, one request at a time, on the built server (\`node dist/server/main.js\`, NODE_ENV=production, in its own process, its job engine running): the visibility check reads the transaction as its detail page does (findVisible: the transaction, its agent, key dates, items and their comments), then the list reads the requests newest first and their signers. Baseline, alternated with it request by request: the ${first.statements.length} statements the list sends (captured from listSignatureRequests through Prisma's query events, values included) run one after another on a plain node-postgres connection. ${rounds} rounds over the ${lists.length} transactions after 5 warm-up requests each.`,
        '',
        '| What | requests | p50 ms | p95 ms | max ms |',
        '| --- | ---: | ---: | ---: | ---: |',
        `| GET over HTTP | ${http.length} | ${ms(median(http))} | ${ms(httpP95)} | ${ms(Math.max(...http))} |`,
        `| its statements by SQL alone | ${alone.length} | ${ms(median(alone))} | ${ms(sqlP95)} | ${ms(Math.max(...alone))} |`,
        '',
        `HTTP p95 **${ms(httpP95)} ms** (goal <= ${LIST_GOAL_MS} ms), ${round(httpP95 / sqlP95, 2)}x the statements alone.`,
        '',
        machineLine(loadNote),
        ...gapLines(goals),
        '',
        `### Plans of the list's statements (EXPLAIN ANALYZE, BUFFERS), transaction ${first.id}`,
        '',
        ...plans.flatMap((p) => [
          `${p.table} (${p.indexed ? 'indexed' : '**not indexed**'}${p.emptyScanned.length ? `; ${p.emptyScanned.join(', ')} empty in the dataset, read by a sequential scan` : ''}):`,
          '',
          '```sql',
          normaliseSql(p.statement.text),
          '```',
          '',
          '```text',
          p.plan,
          '```',
          '',
        ]),
      ].join('\n');
      return { markdown, goals };
    } finally {
      if (server) await stopBuiltServer(server);
      await sql.end().catch(() => {});
      await removeSignatureRequests(dataset.url).catch((error) =>
        log(`removing the signature requests failed: ${String(error)}`),
      );
      await rm(dataDir, { recursive: true, force: true });
      await dataset.close();
    }
  },
};

export default benchmark;
