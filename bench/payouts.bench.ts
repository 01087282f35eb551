import pg from 'pg';
import { payoutsExportSql } from '../server/services/payouts-export';
import { signIn } from '../server/test/rest-client';
import type { Benchmark } from './lib/benchmark';
import { ensureCdas, PAID_CDAS } from './lib/cda-data';
import { type Server, startServer } from './lib/csv-export';
import { csvExportGoals, exportAgainstRawCopy } from './lib/csv-export-runs';
import { OWNER, openDataset } from './lib/dataset';
import { explainAnalyze, normaliseSql } from './lib/explain';
import { datasetLine, gapLines, machineLine, thousands } from './lib/report';

/**
 * GET /api/admin/payouts.csv of every paid CDA (about 100,000, added to the 1M dataset by
 * bench/lib/cda-data.ts): one row per line, at least 20,000 rows/s, and the server's RSS grows by
 * less than 50 MB during the full export. Baseline, alternated round by round: the export's very
 * COPY statement read on a plain node-postgres client in the benchmark's process.
 */

const COMMAND = 'npm run bench -- payouts';
const ROUTE = '/api/admin/payouts.csv';

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
      // As the exports benchmark warms up on the users (about 1,000 rows): the first 1% of the payouts.
      log('warm-up: one export of the first 1% of the payouts (the route, the COPY, the stream)');
      await fetch(`${server.baseUrl}${ROUTE}?from=${paid[0]?.first}&to=${paid[0]?.warm}`, {
        headers: { authorization: `Bearer ${owner.token}` },
      }).then((res) => res.text());
      const runs = await exportAgainstRawCopy({
        name: 'payouts',
        databaseUrl: dataset.url,
        statement: payoutsExportSql({}),
        server,
        token: owner.token,
        route: ROUTE,
        rounds,
        log,
      });
      const { goals, lines } = csvExportGoals(
        runs,
        `Payouts CSV of ${thousands(paidCdas)} paid CDAs`,
        `${thousands(runs.rows)} lines of ${thousands(paidCdas)} CDAs`,
      );
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
        ...lines,
        '',
        machineLine(runs.loadNote),
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
