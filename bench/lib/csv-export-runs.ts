import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Prisma } from '../../server/db/generated/client';
import { inlineSql } from '../../server/db/sql';
import { type AbResult, alternate } from './ab';
import type { Goal } from './benchmark';
import { type Export, exportOnce, type Server } from './csv-export';
import { mib, rssGrowthGoal } from './process-usage';
import { loadNoteOf, thousands } from './report';
import { median, round } from './stats';

/**
 * What the CSV export benchmarks share (bench/exports.bench.ts, bench/payouts.bench.ts): the export
 * over HTTP alternated round by round with its very COPY statement on a plain node-postgres client
 * (the baseline: what PostgreSQL takes to write the rows), their two goals, and the table per round.
 */

export const ROWS_PER_SECOND_GOAL = 20_000;
export const RSS_GROWTH_GOAL_MIB = 50;

type RawCopy = { rows: number; ms: number };

/** The baseline: the export's COPY on a plain pg client, bytes counted and dropped. */
async function rawCopyOnce(url: string, statement: Prisma.Sql, name: string): Promise<RawCopy> {
  const client = new pg.Client({ connectionString: url, application_name: `bench-${name}-baseline` });
  await client.connect();
  try {
    const began = performance.now();
    const stream = client.query(copyTo(`COPY (${inlineSql(statement)}) TO STDOUT WITH (FORMAT csv)`));
    let rows = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
    }
    return { rows, ms: performance.now() - began };
  } finally {
    await client.end();
  }
}

export type CsvExportRuns = { ab: AbResult; exports: Export[]; rows: number; loadNote: string };

/** `rounds` of each, alternated; the export and the raw COPY must read the same rows every time. */
export async function exportAgainstRawCopy(options: {
  name: string;
  databaseUrl: string;
  statement: Prisma.Sql;
  server: Server;
  token: string;
  route: string;
  rounds: number;
  log: (line: string) => void;
}): Promise<CsvExportRuns> {
  const { name, databaseUrl, statement, server, token, route, rounds, log } = options;
  const loadBefore = os.loadavg()[0] ?? 0;
  const exports: Export[] = [];
  const raws: RawCopy[] = [];
  const ab = await alternate(
    rounds,
    async () => {
      const raw = await rawCopyOnce(databaseUrl, statement, name);
      raws.push(raw);
      log(`raw COPY: ${thousands(raw.rows)} rows in ${round(raw.ms / 1000, 1)} s`);
      return raw.rows / (raw.ms / 1000);
    },
    async () => {
      const done = await exportOnce(server, token, route);
      exports.push(done);
      log(
        `export: ${thousands(done.rows)} rows, ${round(done.bytes / 2 ** 20, 0)} MiB in ${round(done.ms / 1000, 1)} s, RSS +${round(mib(done.rssPeak - done.rssBefore), 1)} MiB`,
      );
      return done.rows / (done.ms / 1000);
    },
  );
  const loadNote = loadNoteOf(loadBefore, os.loadavg()[0] ?? 0);
  const rows = raws[0]?.rows ?? 0;
  if (!exports.every((done) => done.rows === rows) || !raws.every((raw) => raw.rows === rows))
    throw new Error(`rows differ: raw ${raws.map((r) => r.rows)}, export ${exports.map((e) => e.rows)}`);
  return { ab, exports, rows, loadNote };
}

/**
 * The rows/s and RSS goals of `name` ("CSV export of 1M transactions"), and the lines of the table
 * per round with the two figures under it. `rowsInWords` says what the rows are, for the measure.
 */
export function csvExportGoals(
  runs: CsvExportRuns,
  name: string,
  rowsInWords: string,
): { goals: Goal[]; lines: string[] } {
  const { ab, exports, loadNote } = runs;
  const rss = rssGrowthGoal(`${name}: server RSS growth`, RSS_GROWTH_GOAL_MIB, exports, 'export');
  const rowsMet = ab.candidateMedian >= ROWS_PER_SECOND_GOAL;
  const seconds = median(exports.map((e) => e.ms)) / 1000;
  const goals: Goal[] = [
    {
      name: `${name}: rows/s`,
      goal: `>= ${thousands(ROWS_PER_SECOND_GOAL)} rows/s`,
      baseline: `the same COPY on a plain pg client: ${thousands(ab.baselineMedian)} rows/s`,
      measured: `${thousands(ab.candidateMedian)} rows/s over HTTP (ratio ${round(ab.ratio, 2)} of the raw COPY; ${rowsInWords} in ${round(seconds, 1)} s)`,
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
  const lines = [
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
  ];
  return { goals, lines };
}
