import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { inlineSql } from '../server/db/sql';
import { transactionsExportSql } from '../server/services/exports';
import { signIn } from '../server/test/rest-client';
import { alternate } from './lib/ab';
import type { Benchmark, Goal } from './lib/benchmark';
import { type Export, exportOnce, type Server, startServer } from './lib/csv-export';
import { OWNER, openDataset } from './lib/dataset';
import { mib, rssGrowthGoal } from './lib/process-usage';
import { datasetLine, gapLines, loadNoteOf, machineLine, thousands } from './lib/report';
import { median, round } from './lib/stats';

/**
 * GET /api/admin/transactions.csv of the whole 1,000,000-transaction
 * dataset, streamed: at least 20,000 rows/s, and the server's RSS grows by less than 50 MB
 * during the full export. Baseline, alternated round by round: the export's very COPY statement
 * read on a plain node-postgres client in the benchmark's process, bytes counted and dropped: what
 * PostgreSQL takes to write the rows, before the portal's stream and HTTP.
 */

const COMMAND = 'npm run bench -- exports';
const ROWS_PER_SECOND_GOAL = 20_000;
const RSS_GROWTH_GOAL_MIB = 50;

/** The baseline: the export's very COPY on a plain pg client, bytes counted and dropped. */
async function rawCopyOnce(url: string): Promise<{ rows: number; ms: number }> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-exports-baseline' });
  await client.connect();
  try {
    const began = performance.now();
    const stream = client.query(
      copyTo(`COPY (${inlineSql(transactionsExportSql({}))}) TO STDOUT WITH (FORMAT csv)`),
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
  name: 'exports',
  async run({ log }) {
    const rounds = 3; // alternate() asks for at least 3; each round reads every row twice
    const dataset = await openDataset(log);
    let server: Server | undefined;
    try {
      server = await startServer(dataset.url);
      const owner = await signIn(server.baseUrl, OWNER.email, OWNER.password);
      const loadBefore = os.loadavg()[0] ?? 0;
      const exports: Export[] = [];
      const raws: Array<{ rows: number; ms: number }> = [];
      const running = server;
      log('warm-up: one export of the users (the route, the COPY, the stream)');
      await fetch(`${server.baseUrl}/api/users.csv`, {
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
          const done = await exportOnce(running, owner.token, '/api/admin/transactions.csv');
          exports.push(done);
          log(
            `export: ${thousands(done.rows)} rows, ${round(done.bytes / 2 ** 20, 0)} MiB in ${round(done.ms / 1000, 1)} s, RSS +${round(mib(done.rssPeak - done.rssBefore), 1)} MiB`,
          );
          return done.rows / (done.ms / 1000);
        },
      );
      const loadNote = loadNoteOf(loadBefore, os.loadavg()[0] ?? 0);
      const expected = raws[0]?.rows ?? 0;
      const complete =
        exports.every((done) => done.rows === expected) && raws.every((raw) => raw.rows === expected);
      if (!complete)
        throw new Error(`rows differ: raw ${raws.map((r) => r.rows)}, export ${exports.map((e) => e.rows)}`);
      const rss = rssGrowthGoal(
        'CSV export of 1M transactions: server RSS growth',
        RSS_GROWTH_GOAL_MIB,
        exports,
        'export',
      );
      const { growth, worstGrowth } = rss;
      const growthMet = rss.goal.met;
      const rowsMet = ab.candidateMedian >= ROWS_PER_SECOND_GOAL;
      const goals: Goal[] = [
        {
          name: 'CSV export of 1M transactions: rows/s',
          goal: `>= ${thousands(ROWS_PER_SECOND_GOAL)} rows/s`,
          baseline: `the same COPY on a plain pg client: ${thousands(ab.baselineMedian)} rows/s`,
          measured: `${thousands(ab.candidateMedian)} rows/s over HTTP (ratio ${round(ab.ratio, 2)} of the raw COPY; ${thousands(expected)} rows in ${round(median(exports.map((e) => e.ms)) / 1000, 1)} s)`,
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
      const markdown = [
        '## CSV export of the 1M-transaction dataset',
        '',
        `Command: \`${COMMAND}\` (bench/exports.bench.ts).`,
        '',
        'What: GET /api/admin/transactions.csv as the owner (every undeleted transaction, newest first, 21 columns),',
        'read to its end as fast as a client can, from the portal in a process of its own (bench/lib/portal-process.ts:',
        'the app of the other benchmarks, production settings, no job engine), whose RSS (/proc/<pid>/status VmRSS) is',
        'sampled every 20 ms; growth = highest sample - the reading just before the request. The export is read from a',
        'COPY (...) TO STDOUT WITH (FORMAT csv) on one pooled connection, its socket paused while the client has not taken',
        'what was sent (db/sql.ts sqlCopyOut), the records given CRLF ends on the way (services/exports.ts CrlfRecords).',
        'Baseline, alternated round by round: the same COPY statement (transactionsExportSql, values written in) on a plain',
        `node-postgres client in the benchmark's process, bytes counted and dropped. ${rounds} rounds each.`,
        datasetLine(dataset.info),
        '',
        '| Round | export rows/s | raw COPY rows/s | export s | first byte ms | MiB sent | server CPU ms | RSS before MiB | RSS peak MiB | growth MiB |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        ...exports.map(
          (done, i) =>
            `| ${i + 1} | ${thousands(ab.candidate[i] ?? Number.NaN)} | ${thousands(ab.baseline[i] ?? Number.NaN)} | ${round(done.ms / 1000, 1)} | ${round(done.firstByteMs, 0)} | ${round(done.bytes / 2 ** 20, 0)} | ${round(done.cpuMs, 0)} | ${round(mib(done.rssBefore), 1)} | ${round(mib(done.rssPeak), 1)} | ${round(growth[i] ?? Number.NaN, 1)} |`,
        ),
        `| **median** | **${thousands(ab.candidateMedian)}** | **${thousands(ab.baselineMedian)}** | | | | | | | **${round(median(growth), 1)}** |`,
        '',
        `Rows/s: **${thousands(ab.candidateMedian)}** (goal >= ${thousands(ROWS_PER_SECOND_GOAL)}: ${rowsMet ? 'met' : '**not met**'}), ${round(ab.ratio, 2)} of the raw COPY's rate.`,
        `RSS growth at worst: **${round(worstGrowth, 1)} MiB** (goal < ${RSS_GROWTH_GOAL_MIB} MB: ${growthMet ? 'met' : '**not met**'}).`,
        '',
        machineLine(loadNote),
        ...gapLines(goals),
      ].join('\n');
      return { markdown, goals };
    } finally {
      await server?.stop();
      await dataset.close();
    }
  },
};

export default bench;
