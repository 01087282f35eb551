import { transactionsExportSql } from '../server/services/exports';
import { signIn } from '../server/test/rest-client';
import type { Benchmark } from './lib/benchmark';
import { type Server, startServer } from './lib/csv-export';
import { csvExportGoals, exportAgainstRawCopy } from './lib/csv-export-runs';
import { OWNER, openDataset } from './lib/dataset';
import { datasetLine, gapLines, machineLine, thousands } from './lib/report';

/**
 * GET /api/admin/transactions.csv of the whole 1,000,000-transaction
 * dataset, streamed: at least 20,000 rows/s, and the server's RSS grows by less than 50 MB
 * during the full export. Baseline, alternated round by round: the export's very COPY statement
 * read on a plain node-postgres client in the benchmark's process, bytes counted and dropped: what
 * PostgreSQL takes to write the rows, before the portal's stream and HTTP.
 */

const COMMAND = 'npm run bench -- exports';

const bench: Benchmark = {
  name: 'exports',
  async run({ log }) {
    const rounds = 3; // alternate() asks for at least 3; each round reads every row twice
    const dataset = await openDataset(log);
    let server: Server | undefined;
    try {
      server = await startServer(dataset.url);
      const owner = await signIn(server.baseUrl, OWNER.email, OWNER.password);
      log('warm-up: one export of the users (the route, the COPY, the stream)');
      await fetch(`${server.baseUrl}/api/users.csv`, {
        headers: { authorization: `Bearer ${owner.token}` },
      }).then((res) => res.text());
      const runs = await exportAgainstRawCopy({
        name: 'exports',
        databaseUrl: dataset.url,
        statement: transactionsExportSql({}),
        server,
        token: owner.token,
        route: '/api/admin/transactions.csv',
        rounds,
        log,
      });
      const { goals, lines } = csvExportGoals(
        runs,
        'CSV export of 1M transactions',
        `${thousands(runs.rows)} rows`,
      );
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
        ...lines,
        '',
        machineLine(runs.loadNote),
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
