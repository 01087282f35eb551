import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { Prisma } from '../server/db/generated/client';
import { preparedName } from '../server/db/sql';
import { atRiskCountSql, atRiskSql } from '../server/services/dashboard/at-risk';
import { officeBucketsSql } from '../server/services/dashboard/by-office';
import { complianceSql } from '../server/services/dashboard/compliance';
import { breakdownSql, topReasonsSql } from '../server/services/dashboard/decisions';
import { queueSql } from '../server/services/dashboard/queue';
import { addDays, resolveRange } from '../server/services/dashboard/range';
import { bucketCountsSql } from '../server/services/dashboard/turnaround';
import { transactionsOfOfficeSql } from '../server/services/reach';
import { activeIn, transactionPageSql } from '../server/services/transactions/pages';
import { reviewQueueSql } from '../server/services/transactions/review-queue';
import { signIn } from '../server/test/rest-client';
import { PAGE_SIZE } from '../shared/constants';
import type { Benchmark, Goal } from './lib/benchmark';
import {
  AGENT_PASSWORD,
  OFFICES,
  officeAdminEmail,
  officeName,
  openDataset,
  reviewerEmail,
} from './lib/dataset';
import { explainAnalyze, explainPrepared, normaliseSql, usesIndexOn } from './lib/explain';
import { type PortalApp, startPortalApp } from './lib/portal-app';
import { datasetLine, gapLines, loadLine, loadNoteOf, machineLine, thousands } from './lib/report';
import { median, percentile, round } from './lib/stats';

/**
 * Office admins on the 1,000,000-transaction dataset (version 5: 20 offices, agents round-robin).
 * An office admin's screens, the transaction list (page 1 and a deep page), the review queue and
 * the dashboard, each over HTTP against the same screen of a brokerage-wide admin (a reviewer)
 * filtered to the same office (`officeId=`): the very same rows, so the ratio is what holding an
 * admin to an office costs. Goal: the office admin's p95 within 1.2 times the brokerage-wide
 * admin's, and within the screen's own goal (the admin list 100 ms, the queue 50 ms, the
 * dashboard 200 ms for 30 days and 500 ms for 365: review-queue and dashboard benchmarks). The
 * brokerage-wide admin's unfiltered screen is measured in the same rounds, for scale. One
 * request at a time, the three callers in turn request by request: identical work timed seconds
 * apart under a load that moves (a first version ran each caller for 3 s under autocannon; the
 * same unscoped queue then scattered to 1.23x between two callers).
 */

const COMMAND = 'npm run bench -- office';
/** The office admin's p95 over the brokerage-wide admin's, filtered to the same office. */
const GOAL_RATIO = 1.2;
/** Office 0: agents 0, 20, 40..., the busiest agent among them, so the largest office. */
const OFFICE = 0;
/** Deep in an office's list: about halfway through the largest office's pages. */
const DEEP_PAGE = 2_500;

type Side = 'office' | 'filtered' | 'whole';
const SIDES: Side[] = ['office', 'filtered', 'whole'];
const SIDE_LABELS: Record<Side, string> = {
  office: 'office admin (its own office)',
  filtered: 'brokerage-wide admin, `officeId=` the same office',
  whole: 'brokerage-wide admin, every office (for scale)',
};

type Screen = 'list' | 'queue' | 'dashboard';

/** One screen with one set of parameters, asked by each side. */
type Scenario = {
  screen: Screen;
  name: string;
  goalMs: number;
  /** The screen's path with its query, without the office filter. */
  path: string;
  /** Requests per caller per round (fewer for the dashboard's long answers). */
  perRound: number;
  /** Whether the office admin's answer is held to the office (checked before measuring). */
  scoped?: boolean;
  /** What the office's answer holds, against the whole brokerage's, for the tables. */
  size?: string;
};

type Samples = Record<Side, { samples: number[]; perRound: number[] }>;

const ms = (value: number) => round(value, 1);

const withQuery = (path: string, extra: Record<string, string>) => {
  const [base, query = ''] = path.split('?');
  const params = new URLSearchParams(query);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return `${base}?${params}`;
};

async function getJson<T>(baseUrl: string, token: string, path: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function timeHttp(url: string, token: string): Promise<number> {
  const began = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  const took = performance.now() - began;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return took;
}

/**
 * An answer without what changes from one second to the next: how long a queue item has waited,
 * whether it is overdue yet, the expiry of a signed link.
 */
function comparable(body: unknown): unknown {
  return JSON.parse(
    JSON.stringify(body, (key, value) => {
      if (key === 'waitingSeconds' || (key === 'overdue' && typeof value === 'boolean')) return undefined;
      return typeof value === 'string' && /[?&]exp=/.test(value) ? value.replace(/[?&].*$/, '') : value;
    }),
  );
}

const bench: Benchmark = {
  name: 'office',
  async run({ log, quick }) {
    const rounds = quick ? 2 : 5;
    // Requests per caller per round: the list's and the queue's, the dashboard's for 30 and 365 days.
    const [short, month, year] = quick ? [10, 3, 2] : [40, 12, 8];
    const dataset = await openDataset(log);
    let portal: PortalApp | undefined;
    const pool = new pg.Pool({ connectionString: dataset.url, max: 2 });
    pool.on('error', () => {});
    try {
      portal = await startPortalApp(dataset.url);
      const baseUrl = portal.baseUrl;
      // A brokerage-wide admin that, like the office admin, is neither the owner nor a coordinator.
      const wide = await signIn(baseUrl, reviewerEmail(0), AGENT_PASSWORD);
      const officeAdmin = await signIn(baseUrl, officeAdminEmail(OFFICE), AGENT_PASSWORD);
      const { rows: offices } = await pool.query<{ id: string; agents: number; transactions: number }>(
        `SELECT o.id::text AS id,
                (SELECT count(*) FROM users u WHERE u.office_id = o.id AND u.role = 'user')::int AS agents,
                (SELECT count(*) FROM transactions t WHERE t.office_id = o.id AND t.deleted_at IS NULL)::int AS transactions
           FROM offices o WHERE o.name = $1`,
        [officeName(OFFICE)],
      );
      const office = offices[0];
      if (!office) throw new Error(`no office ${officeName(OFFICE)} in the dataset (version 5 or later)`);
      const requestOf = (side: Side, path: string) =>
        side === 'office'
          ? { path, token: officeAdmin.token }
          : side === 'filtered'
            ? { path: withQuery(path, { officeId: office.id }), token: wide.token }
            : { path, token: wide.token };

      const today = new Date().toISOString().slice(0, 10);
      const daysBack = (days: number) =>
        new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
      const scenarios: Scenario[] = [
        {
          screen: 'list',
          name: 'transaction list, page 1',
          goalMs: 100,
          path: `/api/admin/transactions?page=1&limit=${PAGE_SIZE}`,
          perRound: short,
        },
        {
          screen: 'list',
          name: `transaction list, page ${thousands(DEEP_PAGE)}`,
          goalMs: 100,
          path: `/api/admin/transactions?page=${DEEP_PAGE}&limit=${PAGE_SIZE}`,
          perRound: short,
        },
        {
          screen: 'queue',
          name: 'review queue, page 1',
          goalMs: 50,
          path: `/api/admin/review-queue?page=1&limit=${PAGE_SIZE}`,
          perRound: short,
        },
        {
          screen: 'dashboard',
          name: 'dashboard, the last 30 days',
          goalMs: 200,
          path: `/api/admin/dashboard?from=${daysBack(30)}&to=${today}`,
          perRound: month,
        },
        {
          screen: 'dashboard',
          name: 'dashboard, the last 365 days',
          goalMs: 500,
          path: `/api/admin/dashboard?from=${daysBack(365)}&to=${today}`,
          perRound: year,
        },
      ];

      // Before measuring: the office admin and the filtered brokerage-wide admin answer the same,
      // and that answer is the office's, not the brokerage's.
      for (const scenario of scenarios) {
        const [mine, filtered, whole] = await Promise.all(
          SIDES.map((side) => {
            const request = requestOf(side, scenario.path);
            return getJson<Record<string, unknown>>(baseUrl, request.token, request.path);
          }),
        );
        if (!isDeepStrictEqual(comparable(mine), comparable(filtered)))
          throw new Error(
            `${scenario.name}: the office admin and the filtered brokerage-wide admin answer differently:\n` +
              `${JSON.stringify(mine).slice(0, 600)}\n${JSON.stringify(filtered).slice(0, 600)}`,
          );
        const total = (body: Record<string, unknown> | undefined) => sizeOf(scenario.screen, body);
        scenario.size = `${total(mine)} of ${total(whole)}`;
        scenario.scoped = !isDeepStrictEqual(comparable(mine), comparable(whole));
        if (
          scenario.screen === 'list' &&
          (mine as { totalTransactions?: number }).totalTransactions !== office.transactions
        )
          throw new Error(
            `${scenario.name}: the office admin's list counts ${total(mine)}, the office has ${office.transactions}`,
          );
        log(`${scenario.name}: ${scenario.size}${scenario.scoped ? '' : ' (NOT held to the office)'}`);
      }

      log('warming up');
      for (const scenario of scenarios) {
        for (const side of SIDES) {
          const request = requestOf(side, scenario.path);
          for (let i = 0; i < 3; i++) await timeHttp(`${baseUrl}${request.path}`, request.token);
        }
      }

      const loadAtStart = os.loadavg()[0] ?? 0;
      const measured = new Map<Scenario, Samples>();
      for (const scenario of scenarios) {
        const samples = Object.fromEntries(
          SIDES.map((side) => [side, { samples: [] as number[], perRound: [] as number[] }]),
        ) as Samples;
        for (let r = 0; r < rounds; r++) {
          const taken: Record<Side, number[]> = { office: [], filtered: [], whole: [] };
          for (let i = 0; i < scenario.perRound; i++) {
            // The office admin and its baseline side by side, which goes first swapped each time,
            // then every office: neighbours in time share the machine's load, which moves within
            // seconds, and each of the pair follows the other and the heavier unfiltered request
            // equally often (rotating all three let the office admin follow the unfiltered
            // request two times in three, which cost it about 0.5 ms at p50 on the list).
            const pair: Side[] = (i + r) % 2 === 0 ? ['office', 'filtered'] : ['filtered', 'office'];
            for (const side of [...pair, 'whole'] as Side[]) {
              const request = requestOf(side, scenario.path);
              taken[side].push(await timeHttp(`${baseUrl}${request.path}`, request.token));
            }
          }
          for (const side of SIDES) {
            samples[side].samples.push(...taken[side]);
            samples[side].perRound.push(percentile(taken[side], 95));
          }
          log(
            `round ${r + 1}/${rounds} ${scenario.name}: p95 ${SIDES.map((side) => `${side} ${ms(samples[side].perRound.at(-1) ?? Number.NaN)}`).join(', ')} ms`,
          );
        }
        measured.set(scenario, samples);
      }
      const loadNote = loadNoteOf(loadAtStart, os.loadavg()[0] ?? Number.NaN);

      // The office's list statement as the product prepares it, page 1 and deep.
      const officeFilter = Prisma.sql`${activeIn(undefined)} AND ${transactionsOfOfficeSql(office.id)}`;
      const listPlans: Array<{ page: number; plan: string; indexed: boolean }> = [];
      for (const page of [1, DEEP_PAGE]) {
        const statement = transactionPageSql(officeFilter, { page, limit: PAGE_SIZE }, 'per-use', new Date());
        const plan = await explainPrepared(dataset.url, preparedName(statement.text), statement, 60);
        listPlans.push({
          page,
          plan,
          indexed: usesIndexOn(plan, 'transactions') && /transactions_office_id_created_at_idx/.test(plan),
        });
      }

      // The queue's and the dashboard's statements, the office's and every office's, each run once
      // under EXPLAIN ANALYZE: where an office's screen spends its database time.
      const now = new Date();
      const lastYear = resolveRange(now, { from: addDays(today, -364), to: today });
      const statements: Array<{ what: string; of: (office: string | null) => Prisma.Sql }> = [
        {
          what: 'review queue, page 1 (reviewQueueSql)',
          of: (o) => reviewQueueSql({ page: 1, limit: PAGE_SIZE }, o),
        },
        { what: 'dashboard: the queue and its waits (queueSql)', of: (o) => queueSql(now, o) },
        {
          what: 'dashboard, 365 days: decisions by label and agent (breakdownSql)',
          of: (o) => breakdownSql(lastYear, o),
        },
        { what: 'dashboard, 365 days: top reasons (topReasonsSql)', of: (o) => topReasonsSql(lastYear, o) },
        {
          what: 'dashboard, 365 days: compliance at close (complianceSql)',
          of: (o) => complianceSql(lastYear, o),
        },
        { what: 'dashboard: files at risk (atRiskSql)', of: (o) => atRiskSql(lastYear.today, undefined, o) },
        {
          what: 'desk: files at risk counted (atRiskCountSql)',
          of: (o) => atRiskCountSql(lastYear.today, o),
        },
        {
          what: 'dashboard, 365 days: turnaround buckets (bucketCountsSql)',
          of: (o) => bucketCountsSql(lastYear, o),
        },
        {
          what: 'dashboard, 365 days: buckets by office (officeBucketsSql)',
          of: (o) => officeBucketsSql(lastYear, o),
        },
      ];
      const executionMs = (plan: string) =>
        Number(/Execution Time: ([0-9.]+) ms/.exec(plan)?.[1] ?? Number.NaN);
      const explained: Array<{ what: string; office: number; whole: number; plan: string }> = [];
      for (const statement of statements) {
        const plan = await explainAnalyze(dataset.url, statement.of(office.id), 80);
        const whole = await explainAnalyze(dataset.url, statement.of(null), 80);
        explained.push({ what: statement.what, office: executionMs(plan), whole: executionMs(whole), plan });
      }

      const goals: Goal[] = [];
      const rows: string[] = [];
      for (const scenario of scenarios) {
        const samples = measured.get(scenario) as Samples;
        const p95 = (side: Side) => percentile(samples[side].samples, 95);
        const ratio = p95('office') / p95('filtered');
        const pairedRatio = median(
          samples.office.perRound.map((value, i) => value / (samples.filtered.perRound[i] ?? Number.NaN)),
        );
        for (const side of SIDES) {
          const s = samples[side].samples;
          rows.push(
            `| ${scenario.name} | ${SIDE_LABELS[side]} | ${thousands(s.length)} | ${ms(percentile(s, 50))} | ` +
              `**${ms(p95(side))}** | ${ms(percentile(s, 99))} | ${samples[side].perRound.map(ms).join(', ')} | ` +
              `${side === 'filtered' ? '1.00' : round(p95(side) / p95('filtered'), 2)} |`,
          );
        }
        const withinRatio = ratio <= GOAL_RATIO;
        const withinScreen = p95('office') <= scenario.goalMs;
        const scoped = scenario.scoped !== false;
        const met = withinRatio && withinScreen && scoped;
        const missed = [
          ...(scoped
            ? []
            : ["the office admin's answer is the whole brokerage's: the screen is not held to the office"]),
          ...(withinRatio ? [] : [`p95 ${round(ratio, 2)} times the filtered brokerage-wide admin's`]),
          ...(withinScreen ? [] : [`p95 ${ms(p95('office'))} ms, over the screen's ${scenario.goalMs} ms`]),
        ];
        goals.push({
          name: `Office admin's ${scenario.name}: p95 vs a brokerage-wide admin's for the same office`,
          goal: `<= ${GOAL_RATIO}x and p95 <= ${scenario.goalMs} ms`,
          baseline: `a brokerage-wide admin's ${scenario.name} with officeId= the same office, alternated: p95 ${ms(p95('filtered'))} ms`,
          measured:
            `p95 ${ms(p95('office'))} ms, ${round(ratio, 2)}x (median of rounds ${round(pairedRatio, 2)}x); ` +
            `every office: p95 ${ms(p95('whole'))} ms`,
          met,
          figures: [
            { value: ratio, threshold: GOAL_RATIO, unit: 'x', better: 'lower' },
            { value: p95('office'), threshold: scenario.goalMs, unit: 'ms', better: 'lower' },
          ],
          ...(met ? {} : { gap: `${missed.join('; ')} (${loadNote}); see the section.` }),
        });
      }
      const allIndexed = listPlans.every((p) => p.indexed);
      goals.push({
        name: "Office admin's list reads its office's index",
        goal: 'EXPLAIN: transactions_office_id_created_at_idx, no sequential scan of transactions',
        baseline: 'transactions_office_id_created_at_idx (office, newest first, deleted_at)',
        measured: listPlans
          .map((p) => `page ${p.page} ${p.indexed ? 'indexed' : 'NOT through the index'}`)
          .join(', '),
        met: allIndexed,
        ...(allIndexed ? {} : { gap: 'see the plans in the section.' }),
      });

      const markdown = [
        "## Office admins: an office's list, review queue and dashboard on 1,000,000 transactions",
        '',
        `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`${COMMAND}\` (bench/office.bench.ts)${quick ? ', **quick mode** (short rounds: indicative only)' : ''}.`,
        '',
        datasetLine(dataset.info),
        '',
        `Offices (dataset version ${dataset.info.version}): ${OFFICES} offices, agent n in office n mod ${OFFICES}, one office admin each. ` +
          `Measured: ${officeName(OFFICE)}, the largest (${thousands(office.agents)} agents, the busiest among them; ` +
          `${thousands(office.transactions)} undeleted transactions), as ${officeAdminEmail(OFFICE)}.`,
        '',
        OFFICE_SEEDING,
        '',
        loadLine(loadAtStart),
        '',
        "- What: each screen over HTTP (the real app in the benchmark process) as three callers: the office's admin; " +
          `${reviewerEmail(0)} (a brokerage-wide admin: no office; like the office admin, neither the owner nor a coordinator) ` +
          'with `officeId=` that office, the same rows, the baseline of the goal; and the same admin unfiltered, every office, for scale. Before measuring, the run checks that the first two ' +
          "answer the same (how long an item has waited aside) and that the office admin's list counts the office's " +
          'transactions.',
        '- One request at a time: the office admin and the filtered brokerage-wide admin side by side (which goes first swapped ' +
          'each time), then the unfiltered one; ' +
          `${rounds} rounds of ${short} requests per caller (the dashboard: ${month} for 30 days, ${year} for 365), after 3 each to warm up. Latency: exact percentiles over ` +
          "every round (pooled), and each round's p95.",
        `- Goals: the office admin's p95 at most ${GOAL_RATIO} times the filtered brokerage-wide admin's, and within ` +
          'the goal of the screen (the admin list 100 ms, the review queue 50 ms: review-queue; the dashboard 200 ms ' +
          'for 30 days and 500 ms for 365: dashboard).',
        '',
        '| Screen | Caller | requests | p50 ms | p95 ms | p99 ms | p95 per round ms | p95 vs filtered |',
        '| --- | --- | ---: | ---: | ---: | ---: | --- | ---: |',
        ...rows,
        '',
        'What each answer holds, the office against every office: ' +
          scenarios
            .map((s) => `${s.name} ${s.size}${s.scoped === false ? ' (**not held to the office**)' : ''}`)
            .join('; ') +
          '.',
        '',
        ...goals.map(
          (g) => `- Goal ${g.name}: ${g.goal}; measured ${g.measured}: **${g.met ? 'met' : 'not met'}**.`,
        ),
        '',
        "### The office's list: statement and plans",
        '',
        'transactionPageSql (server/services/transactions/pages.ts) with `t.deleted_at IS NULL AND t.office_id = $1::uuid` ' +
          '(services/reach.ts, transactionsOfOfficeSql), prepared as the product prepares it:',
        '',
        '```sql',
        normaliseSql(
          transactionPageSql(officeFilter, { page: 1, limit: PAGE_SIZE }, 'per-use', new Date()).text,
        ),
        '```',
        '',
        ...listPlans.flatMap(({ page, plan }) => [
          `Page ${thousands(page)}:`,
          '',
          '```text',
          plan,
          '```',
          '',
        ]),
        "### The queue's and the dashboard's statements, the office's and every office's",
        '',
        "Each run once under EXPLAIN ANALYZE after the measurements (execution time, the database's alone; the " +
          'dashboard runs its statements at once on separate connections, the turnaround probes after their buckets):',
        '',
        '| Statement | office ms | every office ms |',
        '| --- | ---: | ---: |',
        ...explained.map((e) => `| ${e.what} | ${ms(e.office)} | ${ms(e.whole)} |`),
        '',
        "<details><summary>The office's plans</summary>",
        '',
        ...explained.flatMap((e) => [`${e.what}:`, '', '```text', e.plan, '```', '']),
        '</details>',
        '',
        ...gapLines(goals),
        '',
        machineLine(loadNote),
        '',
        `Reproduce: \`${COMMAND}\` (the first run of any dataset benchmark generates the dataset).`,
      ].join('\n');
      return { markdown, goals };
    } finally {
      await pool.end();
      await portal?.close();
      await dataset.close();
    }
  },
};

/** A screen's size in its answer: the list's total, the queue's items, the dashboard's decisions. */
function sizeOf(screen: Screen, body: Record<string, unknown> | undefined): string {
  if (!body) return '?';
  if (screen === 'list') return `${thousands(Number(body.totalTransactions))} transactions`;
  if (screen === 'queue') return `${thousands(Number(body.totalItems))} queue entries`;
  const turnaround = body.turnaround as { reviewed?: number } | undefined;
  return `${thousands(Number(turnaround?.reviewed ?? Number.NaN))} decisions`;
}

/** How the offices were seeded, and what the other ways measured (bench/lib/dataset.ts, version 5). */
const OFFICE_SEEDING = [
  "Seeding the offices: the agents are inserted with their office and the transactions copy their agent's " +
    "office in their own INSERT (what the transactions_office_of_agent trigger would write; the loading session's " +
    'triggers are off), which adds nothing measurable to that step. Measured on 2026-12-02 (load average about 12 ' +
    'on 2 cores): the same INSERT of 1,000,000 rows with the trigger copying the office took 28 to 30 s against 7 to ' +
    "10 s; setting the agents' office afterwards, the users_office_moves_transactions trigger moving each agent's " +
    "transactions, took 55 s for 100 agents' 98,424 transactions on the indexed table (about 9 minutes for all), " +
    'and before the indexes exist each of its 1,000 UPDATEs reads the whole table (0.4 to 1.1 s each).',
].join('\n');

export default bench;
