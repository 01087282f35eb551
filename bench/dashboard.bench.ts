import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Prisma } from '../server/db/generated/client';
import { atRiskCountSql, atRiskSql } from '../server/services/dashboard/at-risk';
import { deadlinesSql, missingItemsSql, rejectedItemsSql } from '../server/services/dashboard/attention';
import { officeBucketsSql } from '../server/services/dashboard/by-office';
import { complianceSql } from '../server/services/dashboard/compliance';
import { breakdownSql, topReasonsSql } from '../server/services/dashboard/decisions';
import { moneySql } from '../server/services/dashboard/money';
import { queueSql } from '../server/services/dashboard/queue';
import { addDays, type DayRange, resolveRange } from '../server/services/dashboard/range';
import {
  type BucketRow,
  bucketCountsSql,
  planTurnaround,
  probesSql,
} from '../server/services/dashboard/turnaround';
import { reviewQueueSql } from '../server/services/transactions/review-queue';
import { signIn } from '../server/test/rest-client';
import { DESK_AT_RISK_ITEMS } from '../shared/schemas/dashboard';
import type { Benchmark, Goal } from './lib/benchmark';
import { ensureCdas } from './lib/cda-data';
import { OWNER, openDataset } from './lib/dataset';
import { explainAnalyze, normaliseSql } from './lib/explain';
import { startPortalApp } from './lib/portal-app';
import { datasetLine, gapLines, loadNoteOf, machineLine, thousands } from './lib/report';
import { median, percentile, round } from './lib/stats';

/**
 * The broker dashboard on the 1M dataset (version 4: six reviewers and the owner sharing
 * the decisions, turnarounds of minutes to days, one or two rejection reasons): the whole answer
 * of GET /api/admin/dashboard over HTTP for the last 30 and the last 365 days (the money over
 * about 100,000 paid CDAs added by bench/lib/cda-data.ts), against its
 * statements run by SQL alone on a plain pg pool in the same run, at once as the service runs
 * them (the baseline: what the database itself costs). Plans of the statements follow.
 */

const COMMAND = 'npm run bench -- dashboard';
const GOALS_MS: Record<number, number> = { 30: 200, 365: 500 };
/** An admin's /home asks GET /api/attention with every visit and every live event. */
const DESK_GOAL_MS = 50;

async function timeHttp(url: string, token: string): Promise<number> {
  const began = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  const ms = performance.now() - began;
  if (response.status !== 200)
    throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return ms;
}

const run = (pool: pg.Pool, statement: Prisma.Sql) => pool.query(statement.text, statement.values);

/** The turnaround's probes, as the service plans them from the bucket counts. */
async function probesOf(pool: pg.Pool, range: DayRange): Promise<Prisma.Sql> {
  const { rows } = await pool.query<BucketRow>(bucketCountsSql(range).text, bucketCountsSql(range).values);
  return probesSql(range, planTurnaround(rows).probes);
}

/**
 * The statements at once, as the service sends them on separate connections; the turnaround's
 * two steps (bucket counts, then the probes they locate) one after the other.
 */
async function timeSql(pool: pg.Pool, statements: Prisma.Sql[], turnaround: Prisma.Sql[]): Promise<number> {
  const began = performance.now();
  await Promise.all([
    ...statements.map((statement) => run(pool, statement)),
    (async () => {
      for (const statement of turnaround) await run(pool, statement);
    })(),
  ]);
  return performance.now() - began;
}

/** The totals' percentiles as the dashboard's first version took them: one sort of the range. */
const sortedTotalsSql = (range: DayRange) => Prisma.sql`
  SELECT count(*)::int AS reviewed,
         percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY review_turnaround_seconds(v.uploaded_at, v.decided_at))
    FROM form_versions v
   WHERE v.decided_at IS NOT NULL AND v.decided_at >= ${range.start} AND v.decided_at < ${range.end}`;

/**
 * What keeping the counts costs a decision: the same UPDATE of a version's decision (its time
 * moved by a minute, accepted and rejected swapped), each in its own transaction rolled back so
 * the dataset stays as it is, with the statement trigger that keeps review_turnarounds,
 * review_label_days and review_agent_days, and with the session's triggers off (the baseline;
 * no other trigger fires on an UPDATE of form_versions). Alternating batches of 20, so both see
 * the same machine.
 */
async function timeDecisionWrites(pool: pg.Pool, ids: string[]) {
  const client = await pool.connect();
  const times = { kept: [] as number[], bare: [] as number[] };
  try {
    for (let batch = 0; batch * 20 < ids.length; batch++) {
      const kept = batch % 2 === 0;
      await client.query(`SET session_replication_role = ${kept ? 'origin' : 'replica'}`);
      for (const id of ids.slice(batch * 20, batch * 20 + 20)) {
        await client.query('BEGIN');
        const began = performance.now();
        await client.query(
          `UPDATE form_versions SET decided_at = decided_at + interval '1 minute',
                  decision_status = CASE WHEN decision_status = 'accepted' THEN 'rejected'::form_status
                                         ELSE 'accepted'::form_status END
            WHERE id = $1`,
          [id],
        );
        (kept ? times.kept : times.bare).push(performance.now() - began);
        await client.query('ROLLBACK');
      }
    }
  } finally {
    await client.query('RESET session_replication_role').catch(() => {});
    client.release();
  }
  return times;
}

/** `withoutMoney`: the same statements less the money's, alternated with them: what the money adds. */
type Row = {
  days: number;
  sql: number[];
  withoutMoney: number[];
  http: number[];
  reviewed: number;
  closed: number;
};
const ms = (value: number) => round(value, 1);

const benchmark: Benchmark = {
  name: 'dashboard',
  async run({ log, quick }) {
    const loadBefore = os.loadavg()[0] ?? 0;
    const dataset = await openDataset(log);
    // The money reads the CDAs: about 117,000 of them, 100,000 paid (bench/lib/cda-data.ts).
    await ensureCdas(dataset.url, OWNER.email, log);
    const pool = new pg.Pool({ connectionString: dataset.url, max: 8 });
    pool.on('error', () => {});
    const portal = await startPortalApp(dataset.url);
    try {
      const owner = await signIn(portal.baseUrl, OWNER.email, OWNER.password);
      const n = quick ? 10 : 40;
      const rows: Row[] = [];
      const plans: string[] = [];
      const now = new Date();
      const today = now.toISOString().slice(0, 10);
      for (const days of [30, 365]) {
        const from = addDays(today, -(days - 1));
        const range = resolveRange(now, { from, to: today });
        const statements = [
          queueSql(now),
          breakdownSql(range),
          topReasonsSql(range),
          complianceSql(range),
          atRiskSql(range.today),
          // The offices' breakdown: every office's decisions by turnaround bucket (its median
          // probes, a few per office, are left out).
          officeBucketsSql(range, null),
          moneySql(range),
        ];
        const url = `${portal.baseUrl}/api/admin/dashboard?from=${from}&to=${today}`;
        const first = (await (
          await fetch(url, { headers: { authorization: `Bearer ${owner.token}` } })
        ).json()) as { turnaround: { reviewed: number }; compliance: { closed: number } };
        const row: Row = {
          days,
          sql: [],
          withoutMoney: [],
          http: [],
          reviewed: first.turnaround.reviewed,
          closed: first.compliance.closed,
        };
        const probes = await probesOf(pool, range);
        const turnaround = [bucketCountsSql(range), probes];
        for (let i = 0; i < 3; i++) {
          await timeHttp(url, owner.token);
          await timeSql(pool, statements, turnaround);
        }
        for (let i = 0; i < n; i++) {
          row.sql.push(await timeSql(pool, statements, turnaround));
          row.withoutMoney.push(await timeSql(pool, statements.slice(0, -1), turnaround));
          row.http.push(await timeHttp(url, owner.token));
        }
        log(
          `${days} days: SQL p95 ${ms(percentile(row.sql, 95))} ms, HTTP p95 ${ms(percentile(row.http, 95))} ms`,
        );
        rows.push(row);
        if (days === 365) {
          for (const [name, statement] of [
            ['Turnaround, step 1: the decisions by reviewer and turnaround bucket', bucketCountsSql(range)],
            [
              'Turnaround, step 2: the value at each rank the percentiles need, one probe of one bucket each',
              probes,
            ],
            [
              'For comparison, not run by the service: the totals by one sort of the range (the first version)',
              sortedTotalsSql(range),
            ],
            ['By checklist label and by agent (sums of the daily counts)', breakdownSql(range)],
            ['The top reasons', topReasonsSql(range)],
            ['Compliance at close by month', complianceSql(range)],
            ['Files at risk', atRiskSql(range.today)],
            ['The offices: decisions by office and turnaround bucket', officeBucketsSql(range, null)],
            ['The money: current CDAs paid, or closed unpaid, in the range', moneySql(range)],
            ['The queue (from indexes alone)', queueSql(now)],
          ] as const) {
            const plan = await explainAnalyze(dataset.url, statement, 45);
            plans.push(
              `**${name}** (365 days):`,
              '',
              '```sql',
              normaliseSql(statement.text),
              '```',
              '',
              '```',
              plan,
              '```',
              '',
            );
          }
        }
      }

      // An admin's /home: the owner's own strip and what waits for the desk, against the same
      // statements by SQL alone (the owner's zone read first, as the service does).
      const desk = { sql: [] as number[], http: [] as number[] };
      const attentionUrl = `${portal.baseUrl}/api/attention`;
      const deskStatements = [
        rejectedItemsSql(owner.id),
        missingItemsSql(owner.id),
        deadlinesSql(owner.id, addDays(today, 7)),
        reviewQueueSql({ page: 1, limit: 1 }),
        atRiskSql(today, DESK_AT_RISK_ITEMS),
        atRiskCountSql(today),
      ];
      const timeDeskSql = async () => {
        const began = performance.now();
        await pool.query('SELECT timezone FROM users WHERE id = $1', [owner.id]);
        await Promise.all(deskStatements.map((statement) => run(pool, statement)));
        return performance.now() - began;
      };
      const deskAnswer = (await (
        await fetch(attentionUrl, { headers: { authorization: `Bearer ${owner.token}` } })
      ).json()) as { desk: { queue: { size: number }; atRisk: { total: number } } };
      for (let i = 0; i < 3; i++) {
        await timeHttp(attentionUrl, owner.token);
        await timeDeskSql();
      }
      for (let i = 0; i < n; i++) {
        desk.sql.push(await timeDeskSql());
        desk.http.push(await timeHttp(attentionUrl, owner.token));
      }
      log(
        `admin's /home: SQL p95 ${ms(percentile(desk.sql, 95))} ms, HTTP p95 ${ms(percentile(desk.http, 95))} ms`,
      );

      const { rows: decided } = await pool.query<{ id: string }>(
        `SELECT id::text FROM form_versions
          WHERE decided_at >= now() - interval '30 days' AND decision_status IN ('accepted', 'rejected')
          ORDER BY id LIMIT ${quick ? 80 : 400}`,
      );
      const writes = await timeDecisionWrites(
        pool,
        decided.map((row) => row.id),
      );
      log(
        `a decision's UPDATE: p50 ${ms(median(writes.kept))} ms with the counts kept, ${ms(median(writes.bare))} ms without`,
      );
      const loadNote = loadNoteOf(loadBefore, os.loadavg()[0] ?? 0);
      const goals: Goal[] = rows.map((r) => {
        const goal = GOALS_MS[r.days] ?? 0;
        const http = percentile(r.http, 95);
        const sql = percentile(r.sql, 95);
        return {
          name: `GET /api/admin/dashboard, the last ${r.days} days: HTTP p95`,
          goal: `<= ${goal} ms`,
          baseline: `its statements by SQL alone, at once on a plain pool: p95 ${ms(sql)} ms`,
          measured: `p95 ${ms(http)} ms (ratio to SQL ${round(http / sql, 2)})`,
          met: http <= goal,
          figures: [{ value: http, threshold: goal, unit: 'ms', better: 'lower' }],
          ...(http <= goal
            ? {}
            : {
                gap: `the database's own work (the baseline) is most of it (the plans below), on 2 shared cores (${loadNote}); without the money the same statements take p95 ${ms(percentile(r.withoutMoney, 95))} ms (p50 ${ms(median(r.withoutMoney))} against ${ms(median(r.sql))} with it).`,
              }),
        };
      });
      const deskHttp = percentile(desk.http, 95);
      const deskSql = percentile(desk.sql, 95);
      goals.push({
        name: "An admin's /home: GET /api/attention with what waits for the desk, HTTP p95",
        goal: `<= ${DESK_GOAL_MS} ms`,
        baseline: `its statements by SQL alone, at once on a plain pool: p95 ${ms(deskSql)} ms`,
        measured: `p95 ${ms(deskHttp)} ms (ratio to SQL ${round(deskHttp / deskSql, 2)})`,
        met: deskHttp <= DESK_GOAL_MS,
        figures: [{ value: deskHttp, threshold: DESK_GOAL_MS, unit: 'ms', better: 'lower' }],
      });
      const deskGoal = goals.at(-1);
      if (deskGoal && !deskGoal.met)
        deskGoal.gap = `the database's own work (the baseline) is most of it (the plans below), on 2 shared cores (${loadNote}).`;
      const markdown = [
        '## The broker dashboard, on the 1M dataset',
        '',
        `Command: \`${COMMAND}\` (bench/dashboard.bench.ts).`,
        '',
        `${datasetLine(dataset.info)}`,
        '',
        `The whole answer of GET /api/admin/dashboard (the portal in the benchmark process, owner's token, ${n} requests per range after 3 to warm up) against its statements run by SQL alone on a plain pg pool, in the same run: eight at once (the offices' breakdown by bucket among them, without its few median probes, and the money over the dataset's CDAs of bench/lib/cda-data.ts), the turnaround's two steps one after the other beside them.`,
        '',
        '| Range | Decisions | Closings | SQL p50 ms | SQL p95 ms | SQL without the money p50 ms | p95 ms | HTTP p50 ms | HTTP p95 ms | ratio of p95s |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        ...rows.map(
          (r) =>
            `| last ${r.days} days | ${thousands(r.reviewed)} | ${thousands(r.closed)} | ${ms(median(r.sql))} | ${ms(percentile(r.sql, 95))} | ${ms(median(r.withoutMoney))} | ${ms(percentile(r.withoutMoney, 95))} | ${ms(median(r.http))} | ${ms(percentile(r.http, 95))} | ${round(percentile(r.http, 95) / percentile(r.sql, 95), 2)} |`,
        ),
        '',
        "SQL without the money: the same statements less the money, alternated with them in the same run: what the money adds to the database's work.",
        '',
        machineLine(loadNote),
        ...gapLines(goals),
        '',
        "### An admin's /home",
        '',
        `GET /api/attention as the owner, ${n} requests after 3 to warm up: the owner's own strip (rejected, missing, deadlines) and \`desk\`, the review queue's size and oldest wait (${thousands(deskAnswer.desk.queue.size)} items) and the files at risk (${thousands(deskAnswer.desk.atRisk.total)}, the first ${DESK_AT_RISK_ITEMS} named), against the same statements by SQL alone on a plain pool, alternated.`,
        '',
        '| | p50 ms | p95 ms |',
        '| --- | ---: | ---: |',
        `| SQL alone (baseline) | ${ms(median(desk.sql))} | ${ms(deskSql)} |`,
        `| HTTP | ${ms(median(desk.http))} | ${ms(deskHttp)} |`,
        '',
        '### What the database keeps for the dashboard (migrations 20261129090000 and 20261130090000)',
        '',
        '- **Turnaround** (exact medians and 90th percentiles, as `percentile_cont` computes them): a year is about',
        '  640,000 decided file versions. Sorting them at every view took 1.9 s at p95 (the first version; its totals',
        '  statement is planned below for comparison). Now:',
        '  - `review_turnarounds` counts the decisions per UTC day, per reviewer and per turnaround bucket (quarter',
        '    octaves of minutes, `review_turnaround_bucket`: each bucket 19% wider than the one before), with the',
        '    rejections. Statement-level triggers on form_versions (transition tables) keep it in the transaction of',
        '    every decision, change, undo, version deletion and reviewer deletion; a property test compares it with a',
        '    count from scratch and the figures with `percentile_cont` over the whole range',
        '    (server/services/dashboard/turnaround.test.ts). A year is a few thousand rows, summed into one histogram',
        '    per reviewer and one for all.',
        '  - The histogram places each rank a percentile needs (one, or the two it interpolates between) in a bucket, at',
        '    an offset. `form_versions_turnaround_idx` holds the decisions by (bucket, decided_at), with the upload time',
        "    and the reviewer: each rank is one index-only range scan of that bucket's decisions within the range, cut",
        '    to the offset by a bounded sort, all ranks in one statement (step 2 below).',
        '  - Both steps read one snapshot (REPEATABLE READ, read only), so a decision made in between cannot shift a rank.',
        '  A histogram alone was set aside: it gives approximate percentiles; a materialized view would be stale between',
        '  refreshes.',
        "- **Rejections**: each version carries its transaction's agent and its item's label (`form_versions.agent_id`,",
        '  `label`, filled by a BEFORE INSERT trigger, backfilled); `review_label_days` and `review_agent_days` count the',
        '  decisions and rejections per day by them, kept by the same triggers, so a year by label and by agent is a sum',
        '  of daily rows (the first version scanned every decision of the range: 443 ms for a year). The rejections with',
        '  their reasons have a partial index of their own.',
        '- **Months** (migration 20261207090000): the counts by reviewer and bucket, by agent and bucket (the offices) and',
        '  by agent are kept per UTC calendar month too, by the same triggers. A range reads its whole months from the',
        '  monthly rows and the days before and after them from the daily ones (services/dashboard/rollups.ts): a year by',
        '  office is about 300,000 monthly rows and a month of days instead of 600,000 daily rows, by agent 11,000 and',
        '  22,000 instead of 365,000.',
        '- **Compliance at close**: `transactions.closing_date` (the earliest closing key date, kept by statement triggers',
        '  on key_dates with transition tables) and `compliant_at` (when the last required item was accepted or waived, by',
        "  the application's recorded decision times, kept by the progress recount `refresh_transaction_progress`, which",
        "  also runs when a version's decision time changes); `transactions_closing_date_idx` includes `compliant_at`, so a",
        '  year of closings is read from the index alone.',
        '- **Files at risk**: `transactions_at_risk_idx` holds only open, undeleted, non-compliant transactions by closing',
        '  date, so the soonest 100 of the week are the first 100 entries.',
        "- **The queue**: the review queue's partial indexes now include `transaction_id`, and `transactions_queued_idx`",
        '  holds the open transactions with an entry by id: its 16,000 entries and their transactions are read from',
        '  indexes alone (the first plan visited every item and hashed the transactions table: about 2 s under load).',
        '',
        '### What keeping the counts costs a decision',
        '',
        `The same UPDATE of a decided version (its decision's time moved by a minute, accepted and rejected swapped), ${writes.kept.length + writes.bare.length} times, each in a transaction rolled back, in alternating batches of 20: with the statement trigger that keeps the three tables of counts, and with the session's triggers off (no other trigger fires on an UPDATE of form_versions).`,
        '',
        '| | p50 ms | p95 ms |',
        '| --- | ---: | ---: |',
        `| with the counts kept | ${ms(median(writes.kept))} | ${ms(percentile(writes.kept, 95))} |`,
        `| triggers off (baseline) | ${ms(median(writes.bare))} | ${ms(percentile(writes.bare, 95))} |`,
        `| ratio | ${round(median(writes.kept) / median(writes.bare), 2)} | ${round(percentile(writes.kept, 95) / percentile(writes.bare, 95), 2)} |`,
        '',
        '### Plans (EXPLAIN ANALYZE, BUFFERS) of the statements, last 365 days',
        '',
        ...plans,
      ].join('\n');
      return { markdown, goals };
    } finally {
      await portal.close();
      await pool.end();
      await dataset.close();
    }
  },
};

export default benchmark;
