import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Prisma } from '../server/db/generated/client';
import { preparedName } from '../server/db/sql';
import { calendarSql } from '../server/services/calendar';
import { transactionPageSql } from '../server/services/transactions/pages';
import { signIn } from '../server/test/rest-client';
import { PAGE_SIZE } from '../shared/constants';
import type { Benchmark, Goal } from './lib/benchmark';
import { AGENT_PASSWORD, agentEmail, OWNER, openDataset } from './lib/dataset';
import { explainAnalyze } from './lib/explain';
import { startPortalApp } from './lib/portal-app';
import { datasetLine, gapLines, loadNoteOf, machineLine, thousands } from './lib/report';
import { median, percentile, round } from './lib/stats';

/**
 * The transaction lists carry closingDate, nextDeadline and overdue on every row
 * (server/services/transactions/pages.ts deadlinesSql, one pass over each row's key dates), and
 * GET /api/calendar reads a month of key dates. On the 1M dataset (version 3: 3.4M key dates,
 * 2 to 4 a transaction, some overdue): the list statements with the deadlines against the same
 * statements as they were before the deadlines were added, alternated on one pg pool; the
 * product's own answers over HTTP; and the calendar of a month, an admin's (everyone's) and the
 * busiest agent's, over HTTP with the same SQL run directly as its baseline.
 */

const COMMAND = 'npm run bench -- deadlines';
/** The list may cost at most this much more with its deadlines (ratio of p95s, statement alone). */
const LIST_RATIO_GOAL = 1.5;
const BUSY_AGENT = 0;

/** transactionPageSql as it was before the deadlines (commit f72c6e7): the same page, no deadlines. */
function listWithoutDeadlines(filter: Prisma.Sql, page: number): Prisma.Sql {
  return Prisma.sql`
    WITH matched AS NOT MATERIALIZED (SELECT t.id, t.created_at FROM transactions t WHERE ${filter})
    SELECT c.total, p.*
      FROM (SELECT count(*)::int AS total FROM matched) AS c
      LEFT JOIN LATERAL (
        SELECT t.id, t.street_address, t.city, t.state, t.zip, t.type, t.role,
               t.is_transaction_coordinator, t.is_title_report, t.is_natural_hazard_disclosure,
               t.created_at, u.id AS user_id, u.first_name, u.last_name,
               t.required_count, t.accepted_count, t.waived_count, t.awaiting_review_count,
               t.rejected_count, t.missing_count, t.compliance_state::text AS compliance_state,
               t.closed_at
          FROM (SELECT id, created_at FROM matched
                 ORDER BY created_at DESC, id DESC
                 LIMIT ${PAGE_SIZE} OFFSET ${(page - 1) * PAGE_SIZE}) AS k
          JOIN transactions t ON t.id = k.id
          JOIN users u ON u.id = t.user_id) AS p ON true
     ORDER BY p.created_at DESC, p.id DESC`;
}

async function timeSql(pool: pg.Pool, statement: Prisma.Sql, prepared: boolean): Promise<number> {
  const began = performance.now();
  await pool.query(
    prepared
      ? { name: preparedName(statement.text), text: statement.text, values: statement.values }
      : { text: statement.text, values: statement.values },
  );
  return performance.now() - began;
}

async function timeHttp(url: string, token: string): Promise<number> {
  const began = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  const ms = performance.now() - began;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return ms;
}

type Row = { what: string; before: number[]; after: number[]; http: number[]; plan: string };

const ms = (value: number) => round(value, 1);

const benchmark: Benchmark = {
  name: 'deadlines',
  async run({ log, quick }) {
    const loadBefore = os.loadavg()[0] ?? 0;
    const dataset = await openDataset(log);
    const pool = new pg.Pool({ connectionString: dataset.url, max: 2 });
    // An idle client cut off when the run ends is no failure of the benchmark.
    pool.on('error', () => {});
    const portal = await startPortalApp(dataset.url);
    try {
      const owner = await signIn(portal.baseUrl, OWNER.email, OWNER.password);
      const agent = await signIn(portal.baseUrl, agentEmail(BUSY_AGENT), AGENT_PASSWORD);
      const now = new Date();
      const month = (offset: number) => {
        const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
        const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset + 1, 0));
        return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
      };
      // This month (dates of open transactions, some due, some overdue) and one a year back (closed ones).
      const months = [
        { name: 'this month', ...month(0) },
        { name: 'a year ago', ...month(-12) },
      ];
      const agentFilter = Prisma.sql`t.user_id = ${agent.id}::uuid AND t.deleted_at IS NULL`;
      const adminFilter = Prisma.sql`t.deleted_at IS NULL`;
      const lists = [
        {
          what: 'agent list (busiest agent), page 1',
          filter: agentFilter,
          page: 1,
          path: `/api/transactions/${agent.id}`,
          token: agent.token,
        },
        {
          what: 'agent list, page 20',
          filter: agentFilter,
          page: 20,
          path: `/api/transactions/${agent.id}?page=20`,
          token: agent.token,
        },
        {
          what: 'admin list, page 1',
          filter: adminFilter,
          page: 1,
          path: '/api/admin/transactions',
          token: owner.token,
        },
        {
          what: 'admin list, page 50',
          filter: adminFilter,
          page: 50,
          path: '/api/admin/transactions?page=50',
          token: owner.token,
        },
      ];
      const rounds = quick ? 3 : 5;
      const perRound = quick ? 30 : 60;
      const rows: Row[] = [];
      for (const list of lists) {
        const before = listWithoutDeadlines(list.filter, list.page);
        const after = transactionPageSql(
          list.filter,
          { page: list.page, limit: PAGE_SIZE },
          'per-use',
          new Date(),
        );
        const row: Row = { what: list.what, before: [], after: [], http: [], plan: '' };
        for (let i = 0; i < 20; i++) {
          await timeSql(pool, before, true);
          await timeSql(pool, after, true);
          await timeHttp(`${portal.baseUrl}${list.path}`, list.token);
        }
        for (let r = 0; r < rounds; r++) {
          for (let i = 0; i < perRound; i++) {
            if ((r + i) % 2 === 0) {
              row.before.push(await timeSql(pool, before, true));
              row.after.push(await timeSql(pool, after, true));
            } else {
              row.after.push(await timeSql(pool, after, true));
              row.before.push(await timeSql(pool, before, true));
            }
            row.http.push(await timeHttp(`${portal.baseUrl}${list.path}`, list.token));
          }
        }
        row.plan = await explainAnalyze(dataset.url, after).catch(
          (error: Error) => `EXPLAIN failed: ${error.message}`,
        );
        log(
          `${list.what}: p95 before ${ms(percentile(row.before, 95))} ms, after ${ms(percentile(row.after, 95))} ms, HTTP ${ms(percentile(row.http, 95))} ms`,
        );
        rows.push(row);
      }
      const calendars: Row[] = [];
      for (const m of months) {
        for (const who of [
          { label: 'admin (everyone)', agentId: null, token: owner.token, query: '' },
          { label: 'busiest agent', agentId: agent.id, token: agent.token, query: '' },
        ]) {
          const statement = calendarSql({ from: m.from, to: m.to, agentId: who.agentId });
          const path = `/api/calendar?from=${m.from}&to=${m.to}`;
          const row: Row = {
            what: `${who.label}, ${m.name} (${m.from} to ${m.to})`,
            before: [],
            after: [],
            http: [],
            plan: '',
          };
          for (let i = 0; i < 5; i++) {
            await timeSql(pool, statement, false);
            await timeHttp(`${portal.baseUrl}${path}`, who.token);
          }
          const n = quick ? 20 : 60;
          for (let i = 0; i < n; i++) {
            row.after.push(await timeSql(pool, statement, false));
            row.http.push(await timeHttp(`${portal.baseUrl}${path}`, who.token));
          }
          const { rows: counted } = await pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM (${statement.text}) AS s`,
            statement.values as unknown[],
          );
          row.before = [counted[0]?.n ?? 0];
          row.plan = await explainAnalyze(dataset.url, statement).catch(
            (error: Error) => `EXPLAIN failed: ${error.message}`,
          );
          log(
            `calendar ${row.what}: ${row.before[0]} events, p95 SQL ${ms(percentile(row.after, 95))} ms, HTTP ${ms(percentile(row.http, 95))} ms`,
          );
          calendars.push(row);
        }
      }
      const loadNote = loadNoteOf(loadBefore, os.loadavg()[0] ?? 0);

      const worstRatio = Math.max(...rows.map((r) => percentile(r.after, 95) / percentile(r.before, 95)));
      // No figure is set for these: the goal is that the deadlines cost little on top of
      // the lists as they were (ratio of p95s); the calendar's figures are reported, not judged.
      const goals: Goal[] = [
        {
          name: 'Lists with closingDate/nextDeadline/overdue vs before',
          goal: `p95 ratio <= ${LIST_RATIO_GOAL} (statement alone)`,
          baseline: 'the list statements without the deadline columns, alternated on one pool',
          measured: `worst ratio ${round(worstRatio, 2)}; HTTP p95 ${rows.map((r) => ms(percentile(r.http, 95))).join(', ')} ms`,
          met: worstRatio <= LIST_RATIO_GOAL,
          figures: [{ value: worstRatio, threshold: LIST_RATIO_GOAL, unit: 'x', better: 'lower' }],
        },
      ];
      for (const goal of goals) if (!goal.met) goal.gap = `see the plans in the section (${loadNote}).`;

      const markdown = [
        '## Deadlines on the lists, and the calendar, on the 1M dataset',
        '',
        `Command: \`${COMMAND}\` (bench/deadlines.bench.ts).`,
        '',
        `${datasetLine(dataset.info)} Key dates (dataset version 3): ${thousands(dataset.info.counts.keyDates ?? 0)}, 2 to 4 a transaction (contract acceptance, some of inspection, appraisal, financing, and a closing 30 to 45 days in); dates past the close or past today done 95% of the time, the rest overdue.`,
        '',
        '### Transaction lists: with the deadlines vs without',
        '',
        'Each list statement is run directly on a pg pool (prepared, as the product prepares it), the current statement',
        `(\`transactionPageSql\` with \`deadlinesSql\`) and the same statement without it (as of commit f72c6e7) one after`,
        `the other, in ${rounds} rounds of ${perRound}; then the product's own answer over HTTP (GET, the portal in the benchmark process).`,
        '',
        '| List | before p50 ms | before p95 ms | with deadlines p50 ms | with deadlines p95 ms | ratio of p95s | HTTP p95 ms |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
        ...rows.map(
          (r) =>
            `| ${r.what} | ${ms(median(r.before))} | ${ms(percentile(r.before, 95))} | ${ms(median(r.after))} | ${ms(percentile(r.after, 95))} | ${round(percentile(r.after, 95) / percentile(r.before, 95), 2)} | ${ms(percentile(r.http, 95))} |`,
        ),
        '',
        '### Calendar of a month',
        '',
        "GET /api/calendar?from&to for a whole month, the admin's (everyone's) and the busiest agent's; the baseline is the",
        `same statement (server/services/calendar.ts) run directly on pg. ${quick ? 20 : 60} requests each.`,
        '',
        '| Calendar | events | SQL p50 ms | SQL p95 ms | HTTP p50 ms | HTTP p95 ms |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
        ...calendars.map(
          (c) =>
            `| ${c.what} | ${thousands(c.before[0] ?? 0)} | ${ms(median(c.after))} | ${ms(percentile(c.after, 95))} | ${ms(median(c.http))} | ${ms(percentile(c.http, 95))} |`,
        ),
        '',
        '<details><summary>Plans (EXPLAIN ANALYZE, one run each)</summary>',
        '',
        ...[...rows, ...calendars].flatMap((r) => [`${r.what}:`, '', '```', r.plan.trim(), '```', '']),
        '</details>',
        '',
        machineLine(loadNote),
        ...gapLines(goals),
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
