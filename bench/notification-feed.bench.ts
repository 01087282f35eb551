import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startEmbeddedPostgres } from '../server/db/embedded';
import type { Prisma } from '../server/db/generated/client';
import { migrate } from '../server/db/migrate';
import { preparedName } from '../server/db/sql';
import { PROJECT_ROOT } from '../server/paths';
import { feedCountsSql, feedPageSql } from '../server/services/notification-feed';
import type { Benchmark, Goal } from './lib/benchmark';
import { loadNoteOf, machineLine, thousands } from './lib/report';
import { percentile, round } from './lib/stats';

/**
 * Fan-out on read: what an admin's notification list costs now that notices to every
 * admin are stored once (admin_notices, read through the admin's terms) instead of a row per
 * admin. Baseline, in the same run and database: the same admin history stored the old way, a
 * notifications row per notice for a second admin, read by the statements the list used before.
 * Both sides are the product's statements run on a pg pool, prepared, alternated round by round.
 */

const COMMAND = 'npm run bench -- notification-feed';
const NOTICES = 1_000_000;
const ADMINS = 20;
/** Notices in the last hour: unread, after the admin's watermark (they last read an hour ago). */
const RECENT = 40;
/** A page of the list, or of the stream's catch-up: an index range read from one end. */
const PAGE_GOAL_MS = 5;
const COUNTS_RATIO_GOAL = 1.5;

type Statement = { text: string; values: unknown[] };
type Case = { what: string; feed: Statement; rows: Statement };

/** The statements of the list before the fan-out on read: one user's rows. */
const oldPage = (userId: string, offset: number, limit: number): Statement => ({
  text: `SELECT n.id, n.message, n.link, n.read_at IS NOT NULL AS read, n.created_at,
                coalesce((SELECT t.deleted_at IS NOT NULL FROM transactions t WHERE t.id = n.transaction_id), false)
                  AS transaction_deleted
           FROM notifications n WHERE n.user_id = $1::uuid
          ORDER BY n.created_at DESC, n.id DESC OFFSET $2::int LIMIT $3::int`,
  values: [userId, offset, limit],
});
const oldCounts = (userId: string): Statement => ({
  text: `SELECT (SELECT count(*) FROM notifications WHERE user_id = $1::uuid) AS total,
                (SELECT count(*) FROM notifications WHERE user_id = $1::uuid AND read_at IS NULL) AS unread`,
  values: [userId],
});
const oldCatchUp = (userId: string, after: Date): Statement => ({
  text: `SELECT n.id, n.message, n.link, n.read_at IS NOT NULL AS read, n.created_at
           FROM notifications n
          WHERE n.user_id = $1::uuid AND (n.created_at, n.id) > ($2::timestamptz, $3::uuid)
          ORDER BY n.created_at, n.id LIMIT 100`,
  values: [userId, after, '00000000-0000-0000-0000-000000000000'],
});

const statementOf = (sql: Prisma.Sql): Statement => ({ text: sql.text, values: sql.values });

async function timed(pool: pg.Pool, statement: Statement): Promise<number> {
  const began = performance.now();
  await pool.query({ name: preparedName(statement.text), text: statement.text, values: statement.values });
  return performance.now() - began;
}

/** Two admins with the same history: one reads it as notices, the other as rows of its own. */
async function fill(pool: pg.Pool): Promise<{ feedAdmin: string; rowsAdmin: string }> {
  await pool.query(`
    INSERT INTO users (email, first_name, last_name, company, phone_number, password_hash, role,
                       is_admin_approved, email_verified_at)
    SELECT 'admin' || n || '@bench.test', 'Admin', 'N' || n, 'Brokerage', '555', 'x', 'admin', true, now()
      FROM generate_series(1, ${ADMINS}) AS n`);
  // Admins for three years, the last hour of notices unread.
  await pool.query(`UPDATE admin_terms SET started_at = now() - interval '3 years'`);
  await pool.query(`UPDATE users SET notices_read_before = now() - interval '1 hour'`);
  const {
    rows: [ids],
  } = await pool.query<{ feed: string; rows: string }>(
    `SELECT (SELECT id FROM users WHERE email = 'admin1@bench.test') AS feed,
            (SELECT id FROM users WHERE email = 'admin2@bench.test') AS rows`,
  );
  if (!ids) throw new Error('no admins');
  // One notice per opened transaction over three years, the newest RECENT in the last hour.
  await pool.query(`
    INSERT INTO admin_notices (message, link, event, created_at)
    SELECT 'Agent ' || (n % 900) || ' opened a transaction: ' || n || ' Main St, Springfield',
           '/adminTransactions', 'transactionCreated',
           CASE WHEN n <= ${RECENT} THEN now() - n * interval '1 minute'
                ELSE now() - interval '1 hour' - n * interval '94 seconds' END
      FROM generate_series(1, ${NOTICES}) AS n`);
  // The same history as the second admin's own rows, read as the watermark reads the notices.
  await pool.query(
    `INSERT INTO notifications (user_id, message, link, event, created_at, read_at)
     SELECT $1::uuid, message, link, event, created_at,
            CASE WHEN created_at < now() - interval '1 hour' THEN now() END
       FROM admin_notices`,
    [ids.rows],
  );
  // The first admin stays out of the second's terms' way: it has no notices of its own.
  await pool.query(`DELETE FROM admin_terms WHERE user_id = $1::uuid`, [ids.rows]);
  await pool.query('VACUUM ANALYZE');
  return { feedAdmin: ids.feed, rowsAdmin: ids.rows };
}

const benchmark: Benchmark = {
  name: 'notification-feed',
  async run({ log, quick }) {
    const rounds = quick ? 30 : 200;
    const loadBefore = os.loadavg()[0] ?? Number.NaN;
    const server = await startEmbeddedPostgres({
      dataDir: path.join(PROJECT_ROOT, '.bench-data', 'notification-feed'),
      databaseName: 'postgres',
      ephemeral: true,
    });
    // A new database each run: the history is written in a minute, and no run sees another's.
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    await admin.query('DROP DATABASE IF EXISTS notification_feed WITH (FORCE)');
    await admin.query('CREATE DATABASE notification_feed');
    await admin.end();
    const url = new URL(server.adminUrl);
    url.pathname = '/notification_feed';
    const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    try {
      await migrate(url.toString());
      log(`writing ${thousands(NOTICES)} notices and the same history as one admin's rows`);
      const { feedAdmin, rowsAdmin } = await fill(pool);
      const hourAgo = new Date(Date.now() - 3_600_000);
      const cases: Case[] = [
        {
          what: 'first page (10, newest first)',
          feed: statementOf(feedPageSql(feedAdmin, { order: 'newest', offset: 0, limit: 10 })),
          rows: oldPage(rowsAdmin, 0, 10),
        },
        {
          what: 'page 50 (offset 490)',
          feed: statementOf(feedPageSql(feedAdmin, { order: 'newest', offset: 490, limit: 10 })),
          rows: oldPage(rowsAdmin, 490, 10),
        },
        {
          what: 'total and unread counts',
          feed: statementOf(feedCountsSql(feedAdmin)),
          rows: oldCounts(rowsAdmin),
        },
        {
          what: "live stream's catch-up (an hour missed)",
          feed: statementOf(
            feedPageSql(feedAdmin, {
              order: 'oldest',
              offset: 0,
              limit: 100,
              after: { createdAt: hourAgo, id: '00000000-0000-0000-0000-000000000000' },
            }),
          ),
          rows: oldCatchUp(rowsAdmin, hourAgo),
        },
      ];
      // Both answer the same: the same counts, the same page.
      for (const c of cases) {
        const [feed, rows] = await Promise.all([pool.query(c.feed), pool.query(c.rows)]);
        const shape = (r: pg.QueryResult) =>
          JSON.stringify(
            r.rows.map((row) => [
              row.message ?? null,
              row.read ?? null,
              row.total ?? null,
              row.unread ?? null,
            ]),
          );
        if (shape(feed) !== shape(rows)) throw new Error(`the two models answer "${c.what}" differently`);
      }
      log(`timing ${rounds} rounds of ${cases.length} statements each way`);
      const samples = cases.map(() => ({ feed: [] as number[], rows: [] as number[] }));
      for (let round = 0; round < rounds; round++) {
        for (const [i, c] of cases.entries()) {
          const side = samples[i] as { feed: number[]; rows: number[] };
          // Alternated, so that the machine's moods fall on both sides alike.
          if (round % 2 === 0) {
            side.feed.push(await timed(pool, c.feed));
            side.rows.push(await timed(pool, c.rows));
          } else {
            side.rows.push(await timed(pool, c.rows));
            side.feed.push(await timed(pool, c.feed));
          }
        }
      }
      const loadNote = loadNoteOf(loadBefore, os.loadavg()[0] ?? Number.NaN);
      const p95 = (values: number[]) => percentile(values, 95);
      const table = cases.map((c, i) => {
        const side = samples[i] as { feed: number[]; rows: number[] };
        return `| ${c.what} | ${round(percentile(side.feed, 50), 2)} | ${round(p95(side.feed), 2)} | ${round(percentile(side.rows, 50), 2)} | ${round(p95(side.rows), 2)} | ${round(p95(side.feed) / p95(side.rows), 2)}x |`;
      });
      const [first, , counts, catchUp] = samples as { feed: number[]; rows: number[] }[];
      /** A statement whose p95 must stay under PAGE_GOAL_MS: an index range read from one end. */
      const pageGoal = (
        name: string,
        what: string,
        side: { feed: number[]; rows: number[] } | undefined,
      ): Goal => {
        const measured = p95(side?.feed ?? []);
        const met = measured <= PAGE_GOAL_MS;
        return {
          name,
          goal: `p95 <= ${PAGE_GOAL_MS} ms`,
          baseline: `the same history as rows of one admin, the ${what}'s old statement: p95 ${round(p95(side?.rows ?? []), 2)} ms`,
          measured: `p95 ${round(measured, 2)} ms (${rounds} samples)`,
          met,
          figures: [{ value: measured, threshold: PAGE_GOAL_MS, unit: 'ms', better: 'lower' }],
          ...(met
            ? {}
            : {
                gap: `the ${what} took ${round(measured, 2)} ms at the p95 (${loadNote}): does its scan start at the page's end?`,
              }),
        };
      };
      const countsRatio = p95(counts?.feed ?? []) / p95(counts?.rows ?? []);
      const goals: Goal[] = [
        pageGoal(
          "An admin's notification list, first page, 1,000,000 notices (fan-out on read)",
          'list',
          first,
        ),
        {
          name: "An admin's notification counts, 1,000,000 notices (fan-out on read)",
          goal: `<= ${COUNTS_RATIO_GOAL}x the rows' counts`,
          baseline: `the same history as rows of one admin: p95 ${round(p95(counts?.rows ?? []), 1)} ms`,
          measured: `${round(countsRatio, 2)}x (p95 ${round(p95(counts?.feed ?? []), 1)} ms)`,
          met: countsRatio <= COUNTS_RATIO_GOAL,
          figures: [{ value: countsRatio, threshold: COUNTS_RATIO_GOAL, unit: 'x', better: 'lower' }],
          ...(countsRatio <= COUNTS_RATIO_GOAL
            ? {}
            : {
                gap: `counting the notices of the admin's term took ${round(countsRatio, 2)}x the rows' count (${loadNote}).`,
              }),
        },
        pageGoal(
          "An admin's live stream catching up on an hour, 1,000,000 notices (fan-out on read)",
          'catch-up',
          catchUp,
        ),
      ];
      const markdown = [
        "## An admin's notifications, stored once for every admin (fan-out on read)",
        '',
        `Command: \`${COMMAND}\` (bench/notification-feed.bench.ts). An embedded PostgreSQL of its own (fsync off), migrated; ${ADMINS} admins for three years; ${thousands(NOTICES)} notices to every admin (one per transaction opened, the last ${RECENT} in the last hour, read up to an hour ago). The baseline is the same history stored as before the fan-out on read: a notifications row per notice for a second admin (read where the first admin's watermark reads them), read by the statements the list used then. Each figure: the product's statement on a pg pool, prepared, ${rounds} rounds, the two sides alternated; both sides are checked to answer the same first.`,
        '',
        '| Statement | notices: median ms | p95 ms | rows (before): median ms | p95 ms | p95 ratio |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
        ...table,
        '',
        "The counts are the list's `total` and `unread`: both models count the admin's whole history for `total` (an index-only range here, the user's index entries there); `unread` reads only what is past the watermark here, and every row's read_at there.",
        '',
        machineLine(loadNote),
      ].join('\n');
      return { markdown, goals };
    } finally {
      await pool.end();
      await server.stop();
    }
  },
};

export default benchmark;
