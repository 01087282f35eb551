import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { inlineSql } from '../server/db/sql';
import { payoutsExportSql } from '../server/services/payouts-export';
import { signIn } from '../server/test/rest-client';
import { alternate } from './lib/ab';
import type { Benchmark, Goal } from './lib/benchmark';
import { ensureCdas, PAID_CDAS } from './lib/cda-data';
import { type Export, exportOnce, type Server, startServer } from './lib/csv-export';
import { OWNER, openDataset } from './lib/dataset';
import { explainAnalyze, normaliseSql } from './lib/explain';
import { mib, rssGrowthGoal } from './lib/process-usage';
import { datasetLine, gapLines, loadNoteOf, machineLine, thousands } from './lib/report';
import { median, round } from './lib/stats';

/**
 * GET /api/admin/payouts.csv of every paid CDA (about 100,000, added to the 1M dataset by
 * bench/lib/cda-data.ts): one row per line, at least 20,000 rows/s, and the server's RSS grows by
 * less than 50 MB during the full export. Baseline, alternated round by round: the export's very
 * COPY statement read on a plain node-postgres client in the benchmark's process.
 */

const COMMAND = 'npm run bench -- payouts';
const ROWS_PER_SECOND_GOAL = 20_000;
const RSS_GROWTH_GOAL_MIB = 50;
const ROUTE = '/api/admin/payouts.csv';

async function rawCopyOnce(url: string): Promise<{ rows: number; ms: number }> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-payouts-baseline' });
  await client.connect();
  try {
    const began = performance.now();
    const stream = client.query(
      copyTo(`COPY (${inlineSql(payoutsExportSql({}))}) TO STDOUT WITH (FORMAT csv)`),
    );
    let rows = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
    }
    return { rows, ms: performance.now() - began };
  } finally {
    await client.end();
  }
}

const bench: Benchmark = {
  name: 'payouts',
  async run({ log }) {
    const rounds = 3;
    const dataset = await openDataset(log);
    let server: Server | undefined;
    try {
      await ensureCdas(dataset.url, OWNER.email, log);
      const counts = new pg.Client({ connectionString: dataset.url });
      await counts.connect();
      const { rows: paid } = await counts.query<{ cdas: number; first: string; warm: string }>(
        `SELECT count(*)::int AS cdas, to_char(min(paid_at), 'YYYY-MM-DD') AS first,
                to_char(percentile_disc(0.01) WITHIN GROUP (ORDER BY paid_at), 'YYYY-MM-DD') AS warm
           FROM cdas WHERE status = 'paid'`,
      );
      await counts.end();
      const paidCdas = paid[0]?.cdas ?? 0;
      server = await startServer(dataset.url);
      const owner = await signIn(server.baseUrl, OWNER.email, OWNER.password);
      const loadBefore = os.loadavg()[0] ?? 0;
      const exports: Export[] = [];
      const raws: Array<{ rows: number; ms: number }> = [];
      const running = server;
      // As the exports benchmark warms up on the users (about 1,000 rows): the first 1% of the payouts.
      log('warm-up: one export of the first 1% of the payouts (the route, the COPY, the stream)');
      await fetch(`${server.baseUrl}${ROUTE}?from=${paid[0]?.first}&to=${paid[0]?.warm}`, {
        headers: { authorization: `Bearer ${owner.token}` },
      }).then((res) => res.text());
      const ab = await alternate(
        rounds,
        async () => {
          const raw = await rawCopyOnce(dataset.url);
          raws.push(raw);
          log(`raw COPY: ${thousands(raw.rows)} rows in ${round(raw.ms / 1000, 1)} s`);
          return raw.rows / (raw.ms / 1000);
        },
        async () => {
          const done = await exportOnce(running, owner.token, ROUTE);
          exports.push(done);
          log(
            `export: ${thousands(done.rows)} rows, ${round(done.bytes / 2 ** 20, 0)} MiB in ${round(done.ms / 1000, 1)} s, RSS +${round(mib(done.rssPeak - done.rssBefore), 1)} MiB`,
          );
          return done.rows / (done.ms / 1000);
        },
      );
      const loadNote = loadNoteOf(loadBefore, os.loadavg()[0] ?? 0);
      const expected = raws[0]?.rows ?? 0;
      if (!exports.every((done) => done.rows === expected) || !raws.every((raw) => raw.rows === expected))
        throw new Error(`rows differ: raw ${raws.map((r) => r.rows)}, export ${exports.map((e) => e.rows)}`);
      const rss = rssGrowthGoal(
        `Payouts CSV of ${thousands(paidCdas)} paid CDAs: server RSS growth`,
        RSS_GROWTH_GOAL_MIB,
        exports,
        'export',
      );
      const rowsMet = ab.candidateMedian >= ROWS_PER_SECOND_GOAL;
      const seconds = median(exports.map((e) => e.ms)) / 1000;
      const goals: Goal[] = [
        {
          name: `Payouts CSV of ${thousands(paidCdas)} paid CDAs: rows/s`,
          goal: `>= ${thousands(ROWS_PER_SECOND_GOAL)} rows/s`,
          baseline: `the same COPY on a plain pg client: ${thousands(ab.baselineMedian)} rows/s`,
          measured: `${thousands(ab.candidateMedian)} rows/s over HTTP (ratio ${round(ab.ratio, 2)} of the raw COPY; ${thousands(expected)} lines of ${thousands(paidCdas)} CDAs in ${round(seconds, 1)} s)`,
          met: rowsMet,
          figures: [
            { value: ab.candidateMedian, threshold: ROWS_PER_SECOND_GOAL, unit: 'rows/s', better: 'higher' },
          ],
          ...(rowsMet
            ? {}
            : { gap: `the export is CPU-bound on the shared cores (${loadNote}); see the table per round.` }),
        },
        rss.goal,
      ];
      const statement = payoutsExportSql({ from: '2026-01-01', to: '2026-03-31' });
      const plan = await explainAnalyze(dataset.url, statement, 40);
      const markdown = [
        '## The payouts CSV, on the 1M dataset with 100,000 paid CDAs',
        '',
        `Command: \`${COMMAND}\` (bench/payouts.bench.ts).`,
        '',
        `What: GET ${ROUTE} as the owner (every paid CDA, one row per line, 15 columns), read to its end as fast as a`,
        `client can, from the portal in a process of its own, its RSS sampled every 20 ms, as the exports benchmark does.`,
        `The dataset's CDAs (bench/lib/cda-data.ts, added once): ${thousands(PAID_CDAS)} paid on closed transactions`,
        '(1 in 10 after a superseded version), about 6,700 issued on closed ones and 3,000 on open ones; a referral on 1',
        'in 5, a fee on 1 in 2. Baseline, alternated round by round: the same COPY statement (payoutsExportSql, values',
        `written in) on a plain node-postgres client in the benchmark's process, bytes counted and dropped. ${rounds} rounds each.`,
        datasetLine(dataset.info),
        '',
        '| Round | export rows/s | raw COPY rows/s | export s | first byte ms | MiB sent | server CPU ms | RSS before MiB | RSS peak MiB | growth MiB |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        ...exports.map(
          (done, i) =>
            `| ${i + 1} | ${thousands(ab.candidate[i] ?? Number.NaN)} | ${thousands(ab.baseline[i] ?? Number.NaN)} | ${round(done.ms / 1000, 1)} | ${round(done.firstByteMs, 0)} | ${round(done.bytes / 2 ** 20, 0)} | ${round(done.cpuMs, 0)} | ${round(mib(done.rssBefore), 1)} | ${round(mib(done.rssPeak), 1)} | ${round(rss.growth[i] ?? Number.NaN, 1)} |`,
        ),
        `| **median** | **${thousands(ab.candidateMedian)}** | **${thousands(ab.baselineMedian)}** | | | | | | | **${round(median(rss.growth), 1)}** |`,
        '',
        `Rows/s: **${thousands(ab.candidateMedian)}** (goal >= ${thousands(ROWS_PER_SECOND_GOAL)}: ${rowsMet ? 'met' : '**not met**'}), ${round(ab.ratio, 2)} of the raw COPY's rate.`,
        `RSS growth at worst: **${round(rss.worstGrowth, 1)} MiB** (goal < ${RSS_GROWTH_GOAL_MIB} MB: ${rss.goal.met ? 'met' : '**not met**'}).`,
        '',
        machineLine(loadNote),
        ...gapLines(goals),
        '',
        '### Plan of a quarter (EXPLAIN ANALYZE, BUFFERS)',
        '',
        '```sql',
        normaliseSql(statement.text),
        '```',
        '',
        '```',
        plan,
        '```',
      ].join('\n');
      return { markdown, goals };
    } finally {
      await server?.stop();
      await dataset.close();
    }
  },
};

export default bench;
