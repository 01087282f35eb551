import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createDb } from '../../server/db/client';
import { startEmbeddedPostgres } from '../../server/db/embedded';
import { type Migration, migrate, readMigrations } from '../../server/db/migrate';
import { seed } from '../../server/db/seed';
import { PROJECT_ROOT } from '../../server/paths';
import { hashPassword } from '../../server/security/passwords';
import { databaseUrl } from '../../server/test/databases';
import { CITIES, COMPANIES, FIRST_NAMES, LAST_NAMES, STREET_NAMES, STREET_SUFFIXES } from './us-addresses';

/**
 * The benchmarks' dataset: 1,000 agents, one owner admin, 1,000,000 transactions with realistic
 * US addresses and 4 checklist forms each, in a database of its own (`portal_bench`) that the
 * benchmarks read. By default an embedded PostgreSQL keeps it under .bench-data/; with
 * BENCH_DATABASE_URL (an admin URL) it is created on that server instead.
 *
 * Version 2 adds the compliance workflow: transactions older than OPEN_DAYS are
 * mostly closed (every required item accepted, a few with an approved waiver); recent ones are
 * open with a mix of missing, awaiting review, rejected and accepted items and some waivers asked
 * for; about 1 item in 5 is optional; every attached file is a form_versions row with its
 * decision (version 2 for some rejected then resubmitted); the progress counters and the
 * compliance state are computed at the end in one UPDATE, with the buckets of
 * refresh_transaction_progress (the loading session disables triggers).
 *
 * Version 3 adds key dates: 2 to 4 per transaction (contract acceptance, then some of
 * inspection, appraisal, financing, and a closing about 30 to 45 days after the start), those
 * before the transaction's close or before today mostly done, a few left open (overdue).
 *
 * Version 4 makes the decisions look like a compliance desk's: six reviewer admins
 * besides the owner share them (unevenly), each upload is decided minutes to a few days after it
 * came in (log-uniform, 5 minutes to 3 days), rejections give one reason or two, and the columns
 * the dashboard reads are filled as the triggers of migration 20261129090000 would: each
 * version's agent and label, each transaction's closing date and when it became compliant.
 *
 * Version 5 spreads the brokerage over OFFICES offices: agent n works in office n mod 20
 * (round-robin, so the busiest agents are spread too; office 0, with agent 0, is the largest),
 * each office has one office admin (reviewTargetHours 24, 12, 48, 24, 24, 12...), and every
 * transaction carries its agent's office as the triggers of migration 20261203090000 keep it. The
 * agents get their office as they are inserted and the transactions copy it in their INSERT, from
 * the agents they are joined to (the loading session's triggers are off). Measured on this
 * machine on 2026-12-02 (load average about 12 on 2 cores), the other ways cost far more:
 * - the same INSERT of 1,000,000 rows into an unindexed copy of transactions, office copied by
 *   the transactions_office_of_agent trigger: 28 to 30 s, against 7 to 10 s with the office from
 *   the join (4 runs each, alternated);
 * - the agents' office set after the transactions are in, the users_office_moves_transactions
 *   trigger moving them: one UPDATE of transactions per agent. On the finished dataset (indexes
 *   built) 100 agents' 98,424 transactions took 55 s (about 9 minutes for the 1,000,000, and a
 *   table half dead); before the indexes are built, each of the 1,000 UPDATEs reads the whole
 *   table (0.4 to 1.1 s each by a sequential scan).
 *
 * Generated with set-based SQL only (INSERT ... SELECT over generate_series), secondary indexes
 * built after the rows are in, then VACUUM ANALYZE. A marker table records the generator's
 * version and the migrations it was built on; the next run reuses a complete dataset whose
 * marker matches, applies the migrations added since to one built on today's less those (then
 * VACUUM ANALYZE; the reports say so), and regenerates it otherwise.
 */

/** Bump whenever the generated rows change shape or distribution. */
export const DATASET_VERSION = 5;
export const DATASET_DATABASE = 'portal_bench';
export const BENCH_DATA_DIR = path.join(PROJECT_ROOT, '.bench-data');

export const DATASET_SIZE = { agents: 1_000, transactions: 1_000_000, formsPerTransaction: 4 } as const;

/** Every agent shares this password (one real production-cost argon2id hash). */
export const AGENT_PASSWORD = 'Bench-agent-password-1';
export const OWNER = { email: 'owner@bench.test', password: 'Bench-owner-password-1' } as const;
export const agentEmail = (n: number) => `agent${n}@bench.test`;
/** The compliance admins who share the decisions with the owner (same password as agents). */
export const REVIEWERS = 6;
export const reviewerEmail = (n: number) => `reviewer${n}@bench.test`;

/** The offices the agents are spread over, round-robin: agent n works in office n mod OFFICES. */
export const OFFICES = 20;
/** Office n (0-based) is named after a city of the dataset; its admin is officeadmin<n>. */
export const officeAdminEmail = (n: number) => `officeadmin${n}@bench.test`;
export const officeName = (n: number) => `${CITIES[n]?.[0] ?? `Branch ${n}`} office`;

/**
 * Agent n (0-based) gets a share of the transactions that falls with n: the agent drawn for a
 * transaction is floor(1000 * random()^SKEW), so agent 0 has about 13,000 transactions and the
 * last about 600, like a brokerage with a few very busy agents and many occasional ones.
 */
const SKEW = 1.6;
/** Transactions are spread over this many years before the generation. */
const YEARS = 6;
/**
 * A transaction is worked on for about this many days. Older ones are closed, except
 * STALE_SHARE of them (deals that fell through or stalled, still open with gaps in the file).
 */
const OPEN_DAYS = 60;
const STALE_SHARE = 0.025;
/** What agents give as the reason of a waiver. */
const WAIVER_REASONS = [
  'Not applicable: no HOA for this property',
  'Not applicable to this transaction type',
  'Covered by the signed purchase agreement',
  'Seller exempt (trust sale)',
];

export type DatasetCounts = {
  users: number;
  agents: number;
  transactions: number;
  deletedTransactions: number;
  forms: number;
  /** The compliance workflow's rows (dataset version 2 on). */
  closedTransactions?: number;
  optionalForms?: number;
  formVersions?: number;
  /** Key dates (dataset version 3 on). */
  keyDates?: number;
  /** Entries of the review queue: undecided uploads and requested waivers of open, undeleted transactions. */
  queueEntries?: number;
  /** Undeleted transactions by compliance state. */
  states?: Record<string, number>;
  /** Offices and their admins (dataset version 5 on). */
  offices?: number;
  officeAdmins?: number;
};

export type DatasetInfo = {
  version: number;
  generatedAt: Date;
  /** Seconds the generation took (rows, indexes, VACUUM ANALYZE). */
  seconds: number;
  /** Seconds each step took, in order. */
  steps: Array<{ step: string; seconds: number }>;
  counts: DatasetCounts;
  /** True when this run found a complete dataset and reused it. */
  reused: boolean;
  /**
   * Migrations added after the dataset was generated, applied to it since (then VACUUM ANALYZE),
   * with the seconds each took: the rows are the generator's, the schema today's.
   */
  migratedSince?: Array<{ migration: string; seconds: number }>;
  /** Where it lives: "embedded PostgreSQL 18.4 under .bench-data/" or the server's host. */
  server: string;
};

export type Dataset = {
  /** The portal_bench database (superuser credentials). */
  url: string;
  info: DatasetInfo;
  /** Stops the embedded PostgreSQL (nothing for BENCH_DATABASE_URL) and releases the lock. */
  close(): Promise<void>;
};

type Log = (message: string) => void;

/** The migrations' names and checksums: a new or changed migration means a new dataset. */
function migrationsFingerprint(migrations: Migration[]): string {
  return createHash('sha256')
    .update(migrations.map((m) => `${m.name}:${m.checksum}`).join('\n'))
    .digest('hex');
}

/**
 * One connection for `work`, closed after it whatever happens; `name` is the application_name
 * pg_stat_activity shows, so a bench's sessions can be told apart from the portal's.
 */
export async function withClient<T>(
  url: string,
  work: (client: pg.Client) => Promise<T>,
  name = 'bench',
): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: name });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The row that marks a complete dataset (written last by generate). */
type Marker = { version: number; migrations: string; info: DatasetInfo };

async function readMarker(url: string): Promise<Marker | undefined> {
  return withClient(url, async (client) => {
    const { rows: exists } = await client.query<{ present: boolean }>(
      "SELECT to_regclass('bench.dataset') IS NOT NULL AS present",
    );
    if (!exists[0]?.present) return undefined;
    const { rows } = await client.query<Marker>('SELECT version, migrations, info FROM bench.dataset');
    return rows[0];
  }).catch((error: { code?: string }) => {
    if (error.code === '3D000') return undefined; // the database does not exist yet
    throw error;
  });
}

/**
 * One process at a time may start the embedded cluster under .bench-data/ (a second start would
 * find the first one's postmaster.pid and stop it as an orphan). A lock file names its holder;
 * one whose process is gone is stale.
 */
async function lockDataDir(log: Log): Promise<() => Promise<void>> {
  await mkdir(BENCH_DATA_DIR, { recursive: true });
  const file = path.join(BENCH_DATA_DIR, 'bench.lock');
  for (let waited = 0; ; waited += 2) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
    let alive = false;
    try {
      if (holder > 0) process.kill(holder, 0);
      alive = holder > 0;
    } catch {
      alive = false;
    }
    if (!alive) {
      await rm(file, { force: true });
      continue;
    }
    if (waited % 30 === 0) log(`waiting for process ${holder}, which is using ${BENCH_DATA_DIR}`);
    if (waited > 1_800) throw new Error(`${BENCH_DATA_DIR} has been locked by process ${holder} for 30 min`);
    await sleep(2_000);
  }
}

type Server = { adminUrl: string; description: string; stop(): Promise<void> };

async function startServer(log: Log): Promise<Server> {
  const external = process.env.BENCH_DATABASE_URL;
  if (external) {
    return {
      adminUrl: external,
      description: `the server of BENCH_DATABASE_URL (${new URL(external).host})`,
      stop: async () => {},
    };
  }
  const release = await lockDataDir(log);
  try {
    // Throw-away durability (no fsync): the data can always be generated again.
    const embedded = await startEmbeddedPostgres({
      dataDir: BENCH_DATA_DIR,
      databaseName: DATASET_DATABASE,
      ephemeral: true,
    });
    return {
      adminUrl: embedded.adminUrl,
      description: 'an embedded PostgreSQL under .bench-data/ (fsync off)',
      stop: async () => {
        await embedded.stop();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/** Starts (or reaches) the server, and generates the dataset unless a complete one is there. */
export async function openDataset(log: Log): Promise<Dataset> {
  const server = await startServer(log);
  try {
    const url = databaseUrl(server.adminUrl, DATASET_DATABASE);
    const migrations = await readMigrations();
    const fingerprint = migrationsFingerprint(migrations);
    const marker = await readMarker(url);
    let info: DatasetInfo;
    if (marker && marker.version === DATASET_VERSION && marker.migrations === fingerprint) {
      info = { ...marker.info, generatedAt: new Date(marker.info.generatedAt), reused: true };
      log(`reusing the dataset generated ${info.generatedAt.toISOString()} in ${info.seconds} s`);
    } else if (marker && marker.version === DATASET_VERSION && builtOnEarlier(marker, migrations)) {
      info = await migrateSince(url, marker, fingerprint, log);
    } else {
      log(
        marker
          ? 'the dataset was made by another generator version or other migrations: generating it again'
          : 'no complete dataset yet: generating it (several minutes)',
      );
      info = await generate(server.adminUrl, url, fingerprint, log);
    }
    info.server = server.description;
    return { url, info, close: () => server.stop() };
  } catch (error) {
    await server.stop().catch(() => {});
    throw error;
  }
}

/**
 * Whether the dataset was generated on the migrations of today less some added since (the same
 * leading migrations, unchanged): their SQL alone then brings it up to date, in seconds rather
 * than the minutes of generating it again. A changed or removed migration still regenerates it.
 */
function builtOnEarlier(marker: Marker, migrations: Migration[]): boolean {
  for (let n = migrations.length - 1; n > 0; n--)
    if (migrationsFingerprint(migrations.slice(0, n)) === marker.migrations) return true;
  return false;
}

/** Applies the migrations added since the dataset was generated, then VACUUM ANALYZE, and marks it. */
async function migrateSince(
  url: string,
  marker: Marker,
  fingerprint: string,
  log: Log,
): Promise<DatasetInfo> {
  const began = Date.now();
  const { applied } = await migrate(url);
  // As after generating: the statistics, and the visibility map index-only scans need.
  await withClient(url, (client) => client.query('VACUUM (ANALYZE)'));
  const seconds = Math.round((Date.now() - began) / 100) / 10;
  const info: DatasetInfo = {
    ...marker.info,
    generatedAt: new Date(marker.info.generatedAt),
    reused: true,
    migratedSince: [...(marker.info.migratedSince ?? []), { migration: applied.join(', '), seconds }],
  };
  await withClient(url, (client) =>
    client.query('UPDATE bench.dataset SET migrations = $1, info = $2', [fingerprint, JSON.stringify(info)]),
  );
  log(
    `reusing the dataset generated ${info.generatedAt.toISOString()}, migrated since: ${applied.join(', ')} (${seconds} s)`,
  );
  return info;
}

async function generate(adminUrl: string, url: string, fingerprint: string, log: Log): Promise<DatasetInfo> {
  const began = Date.now();
  const steps: DatasetInfo['steps'] = [];
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const start = Date.now();
    log(`dataset: ${name}...`);
    const result = await work();
    const seconds = Math.round((Date.now() - start) / 100) / 10;
    steps.push({ step: name, seconds });
    log(`dataset: ${name} took ${seconds} s`);
    return result;
  };

  await step('create the database and migrate it', async () => {
    await withClient(adminUrl, async (client) => {
      const name = client.escapeIdentifier(DATASET_DATABASE);
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${name}`);
    });
    await migrate(url);
  });

  await step('seed the owner and the templates', async () => {
    const db = createDb(url, { poolSize: 1 });
    try {
      const quiet = { info: () => {}, warn: () => {} };
      await seed(db, { adminEmail: OWNER.email, adminPassword: OWNER.password, env: 'production' }, quiet);
    } finally {
      await db.$disconnect();
    }
  });

  const agentHash = await hashPassword(AGENT_PASSWORD, 'production');

  await withClient(url, async (client) => {
    await client.query("SET maintenance_work_mem = '1GB'");
    await client.query("SET work_mem = '256MB'");
    await client.query('SET max_parallel_maintenance_workers = 2');
    // Rows are consistent by construction: no foreign-key trigger per form row while loading.
    await client.query('SET session_replication_role = replica');
    await client.query('SELECT setseed(0.42)');

    // Secondary indexes are built once the rows are in: far faster than maintaining them per row.
    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes
        WHERE schemaname = 'public' AND tablename IN ('transactions', 'transaction_forms', 'form_versions', 'key_dates')
          AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE contype = 'p')`,
    );
    await step('drop secondary indexes', async () => {
      for (const index of indexes)
        await client.query(`DROP INDEX ${client.escapeIdentifier(index.indexname)}`);
    });

    await step(`insert ${OFFICES} offices`, () =>
      client.query(
        `INSERT INTO offices (name, review_target_hours, created_at)
         SELECT ($1::text[])[1 + i], (ARRAY[24, 12, 48, 24])[1 + i % 4], now() - interval '${YEARS + 1} years'
           FROM generate_series(0, $2::int - 1) AS i`,
        [Array.from({ length: OFFICES }, (_, n) => officeName(n)), OFFICES],
      ),
    );
    // Office n, by the position of its name in the list above.
    const officeOf = (names: string) =>
      `(SELECT o.id FROM offices o WHERE o.name = (${names}::text[])[1 + i % ${OFFICES}])`;
    const officeNames = Array.from({ length: OFFICES }, (_, n) => officeName(n));

    await step(`insert ${DATASET_SIZE.agents} agents, round-robin over the offices`, () =>
      client.query(
        `INSERT INTO users (email, first_name, last_name, company, phone_number, password_hash, role,
                            is_admin_approved, email_verified_at, created_at, updated_at, office_id)
         SELECT format('agent%s@bench.test', i),
                ($1::text[])[1 + (i * 37) % cardinality($1::text[])],
                ($2::text[])[1 + (i * 7919) % cardinality($2::text[])],
                ($3::text[])[1 + i % cardinality($3::text[])],
                format('555-%s-%s', lpad((i % 1000)::text, 3, '0'), lpad(((i * 7) % 10000)::text, 4, '0')),
                $4, 'user', true, joined + interval '1 day', joined, joined, ${officeOf('$6')}
           FROM generate_series(0, $5::int - 1) AS i,
                LATERAL (SELECT now() - interval '${YEARS + 1} years' + i * interval '1 day' AS joined) AS j`,
        [FIRST_NAMES, LAST_NAMES, COMPANIES, agentHash, DATASET_SIZE.agents, officeNames],
      ),
    );

    await step(`insert ${OFFICES} office admins`, () =>
      client.query(
        `INSERT INTO users (email, first_name, last_name, company, phone_number, password_hash, role,
                            is_admin_approved, email_verified_at, created_at, updated_at, office_id)
         SELECT format('officeadmin%s@bench.test', i), ($1::text[])[1 + (i * 31) % cardinality($1::text[])],
                ($2::text[])[1 + (i * 211) % cardinality($2::text[])], 'Office desk', '555-000-0001',
                $3, 'admin', true, now() - interval '${YEARS + 1} years', now() - interval '${YEARS + 1} years', now(),
                ${officeOf('$5')}
           FROM generate_series(0, $4::int - 1) AS i`,
        [FIRST_NAMES, LAST_NAMES, agentHash, OFFICES, officeNames],
      ),
    );

    await step(`insert ${REVIEWERS} reviewer admins`, () =>
      client.query(
        `INSERT INTO users (email, first_name, last_name, company, phone_number, password_hash, role,
                            is_admin_approved, email_verified_at, created_at, updated_at)
         SELECT format('reviewer%s@bench.test', i), ($1::text[])[1 + (i * 53) % cardinality($1::text[])],
                ($2::text[])[1 + (i * 101) % cardinality($2::text[])], 'Compliance desk', '555-000-0000',
                $3, 'admin', true, now() - interval '${YEARS + 1} years', now() - interval '${YEARS + 1} years', now()
           FROM generate_series(0, $4::int - 1) AS i`,
        [FIRST_NAMES, LAST_NAMES, agentHash, REVIEWERS],
      ),
    );

    await step(`insert ${DATASET_SIZE.transactions.toLocaleString('en-US')} transactions`, async () => {
      await client.query(
        `CREATE TEMP TABLE bench_agents AS
           SELECT id, office_id, substring(email::text FROM 'agent([0-9]+)@')::int AS n FROM users WHERE role = 'user'`,
      );
      await client.query(
        `CREATE TEMP TABLE bench_cities AS
           SELECT n::int - 1 AS n, city, state, zip
             FROM unnest($1::text[], $2::text[], $3::int[]) WITH ORDINALITY AS c(city, state, zip, n)`,
        [CITIES.map((c) => c[0]), CITIES.map((c) => c[1]), CITIES.map((c) => c[2])],
      );
      await client.query(
        `INSERT INTO transactions (user_id, street_address, city, state, zip, type, role,
                                   is_transaction_coordinator, is_title_report, is_natural_hazard_disclosure,
                                   created_at, updated_at, deleted_at, closed_at, office_id)
         SELECT a.id,
                format('%s %s %s', s.number, ($1::text[])[1 + s.street], ($2::text[])[1 + s.suffix]),
                c.city, c.state, lpad((c.zip + s.zip_offset)::text, 5, '0'),
                CASE WHEN s.kind < 0.35 THEN 'Purchase' WHEN s.kind < 0.65 THEN 'Listing'
                     WHEN s.kind < 0.90 THEN 'Lease' ELSE 'Referral' END,
                CASE WHEN s.kind < 0.35 THEN 'Buyer' WHEN s.kind < 0.65 THEN 'Seller'
                     WHEN s.kind < 0.80 THEN 'Tenant' WHEN s.kind < 0.90 THEN 'Landlord' ELSE '-' END,
                s.flags & 1 = 1, s.flags & 2 = 2, s.flags & 4 = 4,
                s.created, least(s.created + s.edited * interval '30 days', now()),
                CASE WHEN s.deleted THEN least(s.created + interval '60 days', now()) END,
                -- Worked on for up to OPEN_DAYS, then closed (a few stay open, stalled).
                CASE WHEN s.created < now() - interval '${OPEN_DAYS} days' AND s.closing >= ${STALE_SHARE}
                     THEN s.created + interval '20 days' + s.closing * interval '${OPEN_DAYS - 20} days' END,
                -- The agent's office, as the transactions_office_of_agent trigger (off here) would copy it.
                a.office_id
           FROM (SELECT floor($3::int * power(random(), ${SKEW}))::int AS agent,
                        1 + floor(random() * 9899)::int AS number,
                        floor(random() * cardinality($1::text[]))::int AS street,
                        floor(random() * cardinality($2::text[]))::int AS suffix,
                        floor(random() * $4::int)::int AS city,
                        floor(random() * 40)::int AS zip_offset,
                        random() AS kind,
                        floor(random() * 8)::int AS flags,
                        now() - random() * interval '${YEARS} years' AS created,
                        random() AS edited,
                        random() < 0.01 AS deleted,
                        random() AS closing
                   FROM generate_series(1, $5::int)) AS s
           JOIN bench_agents a ON a.n = s.agent
           JOIN bench_cities c ON c.n = s.city`,
        [STREET_NAMES, STREET_SUFFIXES, DATASET_SIZE.agents, CITIES.length, DATASET_SIZE.transactions],
      );
    });

    // Each item is drawn into one state, by its transaction's age and whether it is
    // closed: accepted, rejected, awaiting review (a file, undecided), missing, a waiver asked for
    // (waiver-requested) or approved (waived). The 4th item of 4 transactions in 5 is optional
    // (one of the template's optional documents), so about 1 item in 5 is.
    await step(`insert ${DATASET_SIZE.formsPerTransaction} forms per transaction`, () =>
      client.query(
        `INSERT INTO transaction_forms (transaction_id, label, required, file_key, status, position,
                                        submitted_at, version, waiver_status, waiver_reason,
                                        waiver_requested_at, waiver_decided_at, created_at, updated_at)
         SELECT w.transaction_id, w.label, w.required,
                CASE WHEN w.has_file THEN format('transactions/%s/%s-%s.pdf', w.transaction_id,
                     gen_random_uuid(), regexp_replace(w.label, '[^A-Za-z0-9]+', '-', 'g')) END,
                (CASE w.state WHEN 'accepted' THEN 'accepted' WHEN 'rejected' THEN 'rejected'
                              ELSE 'pending' END)::form_status,
                w.position,
                CASE WHEN w.has_file THEN w.submitted END,
                CASE WHEN NOT w.has_file THEN 0 WHEN w.resubmitted THEN 2 ELSE 1 END,
                (CASE w.state WHEN 'waiver-requested' THEN 'requested' WHEN 'waived' THEN 'approved' END)::waiver_status,
                CASE WHEN w.waiver THEN ($2::text[])[1 + floor(w.r2 * cardinality($2::text[]))::int] END,
                CASE WHEN w.waiver THEN w.asked END,
                CASE WHEN w.state = 'waived' THEN w.decided END,
                w.created_at,
                CASE WHEN w.state IN ('accepted', 'rejected', 'waived') THEN w.decided
                     WHEN w.state = 'awaiting' THEN w.submitted
                     WHEN w.state = 'waiver-requested' THEN w.asked
                     ELSE w.created_at END
           FROM (
             SELECT s.*,
                    s.state IN ('accepted', 'rejected', 'awaiting') AS has_file,
                    s.state IN ('waiver-requested', 'waived') AS waiver,
                    CASE s.state WHEN 'awaiting' THEN s.r2 < 0.3 WHEN 'accepted' THEN s.r2 < 0.1
                                 WHEN 'rejected' THEN s.r2 < 0.15 ELSE false END AS resubmitted,
                    -- Uploads waiting for review came in over the last two weeks (or since the
                    -- transaction began); decided ones some time after it began.
                    CASE WHEN s.state = 'awaiting' THEN now() - s.r3 * least(now() - s.created_at, interval '14 days')
                         ELSE s.created_at + s.r3 * 0.8 * (s.ends - s.created_at) END AS submitted,
                    CASE WHEN s.state = 'waiver-requested' THEN now() - s.r3 * least(now() - s.created_at, interval '10 days')
                         ELSE s.created_at + s.r3 * 0.8 * (s.ends - s.created_at) END AS asked,
                    -- Decided 5 minutes to 3 days after the upload (log-uniform), and
                    -- never after the file closed or now.
                    least(s.created_at + s.r3 * 0.8 * (s.ends - s.created_at)
                            + interval '5 minutes' * exp(s.r4 * ln(864)), s.ends) AS decided
               FROM (
                 SELECT i.*,
                        CASE
                          WHEN i.closed_at IS NOT NULL THEN
                            CASE WHEN NOT i.required THEN CASE WHEN i.r < 0.5 THEN 'accepted' ELSE 'missing' END
                                 WHEN i.tr < 0.03 AND i.position = floor(i.tr * 100)::int % 3 THEN 'waived'
                                 ELSE 'accepted' END
                          WHEN i.age < 1 THEN
                            CASE WHEN NOT i.required THEN
                                   CASE WHEN i.r < 0.3 THEN 'accepted' WHEN i.r < 0.35 THEN 'awaiting' ELSE 'missing' END
                                 WHEN i.r < 0.12 + 0.6 * i.age THEN 'accepted'
                                 WHEN i.r < 0.19 + 0.6 * i.age THEN 'rejected'
                                 WHEN i.r < 0.30 + 0.6 * i.age THEN 'awaiting'
                                 WHEN i.r < 0.325 + 0.6 * i.age THEN 'waiver-requested'
                                 WHEN i.r < 0.335 + 0.6 * i.age THEN 'waived'
                                 ELSE 'missing' END
                          ELSE -- older but still open: stalled, with gaps
                            CASE WHEN NOT i.required THEN CASE WHEN i.r < 0.4 THEN 'accepted' ELSE 'missing' END
                                 WHEN i.r < 0.65 THEN 'accepted' WHEN i.r < 0.75 THEN 'rejected'
                                 WHEN i.r < 0.78 THEN 'awaiting' WHEN i.r < 0.79 THEN 'waiver-requested'
                                 ELSE 'missing' END
                        END AS state
                   FROM (
                     SELECT t.id AS transaction_id, p AS position, t.created_at, t.closed_at, t.tr,
                            coalesce(t.closed_at, now()) AS ends,
                            extract(epoch FROM now() - t.created_at) / ${OPEN_DAYS * 86_400} AS age,
                            NOT (p = 3 AND t.optional < 0.8) AS required,
                            CASE WHEN p = 3 AND t.optional < 0.8
                                 THEN coalesce(tpl.optional_documents[1 + floor(t.pick * cardinality(tpl.optional_documents))::int],
                                               'Home Warranty Application')
                                 ELSE coalesce(tpl.documents[p + 1], 'Closing Statement') END AS label,
                            random() AS r, random() AS r2, random() AS r3, random() AS r4
                       FROM (SELECT t.*, random() AS tr, random() AS optional, random() AS pick
                               FROM transactions t) AS t
                       JOIN transaction_templates tpl ON tpl.type = t.type AND tpl.role = t.role
                      CROSS JOIN generate_series(0, $1::int - 1) AS p) AS i) AS s) AS w`,
        [DATASET_SIZE.formsPerTransaction, WAIVER_REASONS],
      ),
    );

    // Every attached file is a version: the current one (1, or 2 after a rejected first file)
    // with the item's decision, and the rejected first file of those resubmitted.
    await step('insert the form versions', async () => {
      const { rows: reasons } = await client.query<{ code: string; label: string }>(
        'SELECT code, label FROM rejection_reasons ORDER BY created_at, code',
      );
      // The owner and the reviewers; the first ones decide more (like a desk with a lead).
      const { rows: deciders } = await client.query<{ id: string }>(
        "SELECT id FROM users WHERE role = 'admin' AND office_id IS NULL ORDER BY is_owner DESC, email",
      );
      await client.query(
        `INSERT INTO form_versions (form_id, number, file_key, size, content_type, uploaded_by, uploaded_at,
                                    decision_status, decision_reasons, decision_text, decided_at, decided_by,
                                    agent_id, label)
         SELECT v.form_id, v.number, v.file_key, v.size, 'application/pdf', v.uploaded_by, v.uploaded_at,
                v.decision,
                -- One reason, or two different ones a time in four.
                CASE WHEN v.decision = 'rejected' AND v.two
                     THEN jsonb_build_array(jsonb_build_object('code', ($1::text[])[v.k], 'label', ($2::text[])[v.k]),
                                            jsonb_build_object('code', ($1::text[])[v.k2], 'label', ($2::text[])[v.k2]))
                     WHEN v.decision = 'rejected'
                     THEN jsonb_build_array(jsonb_build_object('code', ($1::text[])[v.k], 'label', ($2::text[])[v.k]))
                     ELSE '[]'::jsonb END,
                CASE WHEN v.decision = 'rejected' THEN 'Please correct this and upload it again.' END,
                v.decided_at,
                CASE WHEN v.decision IS NOT NULL
                     THEN ($3::uuid[])[1 + floor(cardinality($3::uuid[]) * power(random(), 1.5))::int] END,
                v.uploaded_by, v.label
           FROM (SELECT w.*, 1 + (w.k + floor(random() * (cardinality($1::text[]) - 1))::int) % cardinality($1::text[]) AS k2,
                        random() < 0.25 AS two
                   FROM (SELECT f.id AS form_id, f.version AS number, f.file_key, t.user_id AS uploaded_by, f.label,
                        f.submitted_at AS uploaded_at,
                        CASE WHEN f.status <> 'pending' THEN f.status END AS decision,
                        CASE WHEN f.status <> 'pending' THEN f.updated_at END AS decided_at,
                        80000 + floor(random() * 2000000)::int AS size,
                        1 + floor(random() * cardinality($1::text[]))::int AS k
                   FROM transaction_forms f JOIN transactions t ON t.id = f.transaction_id
                  WHERE f.version >= 1
                 UNION ALL
                 SELECT f.id, 1, format('transactions/%s/%s-%s.pdf', f.transaction_id, gen_random_uuid(),
                                        regexp_replace(f.label, '[^A-Za-z0-9]+', '-', 'g')),
                        t.user_id, f.label, f.created_at + 0.3 * (f.submitted_at - f.created_at),
                        'rejected'::form_status,
                        least(f.created_at + 0.3 * (f.submitted_at - f.created_at)
                                + interval '5 minutes' * exp(random() * ln(864)), f.submitted_at),
                        80000 + floor(random() * 2000000)::int,
                        1 + floor(random() * cardinality($1::text[]))::int
                   FROM transaction_forms f JOIN transactions t ON t.id = f.transaction_id
                  WHERE f.version = 2) AS w) AS v`,
        [reasons.map((r) => r.code), reasons.map((r) => r.label), deciders.map((d) => d.id)],
      );
    });

    // 2 to 4 key dates a transaction. Contract acceptance a few days in, a closing 30 to
    // 45 days in, and between them an inspection, an appraisal or a financing contingency for
    // some. Dates past the close (or past today) are done 95% of the time; the rest are overdue.
    await step('insert 2 to 4 key dates per transaction', () =>
      client.query(
        `INSERT INTO key_dates (transaction_id, kind, label, date, done, position, created_at, updated_at)
         SELECT k.transaction_id, k.kind, k.label, k.date,
                k.date < coalesce(k.closed_at::date, current_date) AND k.r < 0.95,
                k.position, k.created_at, k.created_at
           FROM (
             SELECT t.id AS transaction_id, t.closed_at, t.created_at, d.kind, d.label, d.position, random() AS r,
                    (t.created_at + d.offset_days * interval '1 day')::date AS date
               FROM (SELECT t.id, t.closed_at, t.created_at, random() AS pick, random() AS span
                       FROM transactions t) AS t
              CROSS JOIN LATERAL (VALUES
                  (0, 'contract-acceptance', 'Contract acceptance', 2, true),
                  (1, 'inspection', 'Inspection deadline', 12, t.pick < 0.6),
                  (2, 'appraisal', 'Appraisal deadline', 20, t.pick >= 0.3 AND t.pick < 0.8),
                  (3, 'financing', 'Financing contingency', 24, t.pick >= 0.7),
                  (4, 'closing', 'Closing', 30 + floor(t.span * 16)::int, true)
              ) AS d(position, kind, label, offset_days, included)
              WHERE d.included) AS k`,
      ),
    );

    // The counters and the state, with the buckets of refresh_transaction_progress (migration
    // 20261126120000) and its transaction_compliance_state(): the triggers that keep them are off
    // in this session. Then the table is rewritten, so the update leaves no dead half behind.
    await step('count the progress of every transaction', async () => {
      await client.query(
        `UPDATE transactions AS t
            SET required_count = c.required, accepted_count = c.accepted, waived_count = c.waived,
                awaiting_review_count = c.awaiting, rejected_count = c.rejected,
                missing_count = c.missing, pending_waiver_count = c.pending_waivers, queue_count = c.queue,
                compliance_state = transaction_compliance_state(t.closed_at, c.required, c.accepted,
                  c.waived, c.awaiting, c.rejected, c.pending_waivers),
                -- An accepted or waived item's updated_at is its decision (see the forms).
                compliant_at = CASE WHEN c.accepted + c.waived >= c.required
                                    THEN coalesce(c.settled_at, t.created_at) END,
                closing_date = k.closing_date
           FROM (
             SELECT f.transaction_id AS id,
                    count(*) FILTER (WHERE f.required)::int AS required,
                    count(*) FILTER (WHERE f.required AND f.status = 'accepted')::int AS accepted,
                    count(*) FILTER (WHERE f.required AND f.status <> 'accepted'
                                       AND f.waiver_status = 'approved')::int AS waived,
                    count(*) FILTER (WHERE f.required AND f.status = 'rejected'
                                       AND f.waiver_status IS DISTINCT FROM 'approved')::int AS rejected,
                    count(*) FILTER (WHERE f.required AND f.status = 'pending' AND f.file_key IS NOT NULL
                                       AND f.waiver_status IS DISTINCT FROM 'approved')::int AS awaiting,
                    count(*) FILTER (WHERE f.required AND f.status = 'pending' AND f.file_key IS NULL
                                       AND f.waiver_status IS DISTINCT FROM 'approved')::int AS missing,
                    count(*) FILTER (WHERE f.required AND f.status <> 'accepted'
                                       AND f.waiver_status = 'requested')::int AS pending_waivers,
                    (count(*) FILTER (WHERE f.status = 'pending' AND f.file_key IS NOT NULL)
                     + count(*) FILTER (WHERE f.waiver_status = 'requested'))::int AS queue,
                    max(f.updated_at) FILTER (WHERE f.required AND (f.status = 'accepted'
                                                OR f.waiver_status = 'approved')) AS settled_at
               FROM transaction_forms f
              GROUP BY f.transaction_id) AS c
           LEFT JOIN (SELECT transaction_id, min(date) AS closing_date FROM key_dates
                       WHERE kind = 'closing' GROUP BY transaction_id) AS k ON k.transaction_id = c.id
          WHERE t.id = c.id`,
      );
      await client.query('VACUUM FULL transactions');
    });

    // The dashboard's counts of decisions (migration 20261130090000), kept by triggers
    // that are off in this session.
    await step('count the decisions by day: by reviewer and turnaround, by label, by agent', () =>
      client.query('SELECT rebuild_review_figures()'),
    );

    await step(`build ${indexes.length} secondary indexes`, async () => {
      for (const index of indexes) await client.query(index.indexdef);
    });
  });

  // On a fresh connection, without the loading session's settings. Besides the statistics, it
  // sets the visibility map, so counts can be answered from an index alone.
  await step('VACUUM ANALYZE', () => withClient(url, (client) => client.query('VACUUM (ANALYZE)')));

  const counts = await withClient(url, async (client) => {
    const { rows } = await client.query<DatasetCounts>(
      `SELECT (SELECT count(*) FROM users)::int AS users,
              (SELECT count(*) FROM users WHERE role = 'user')::int AS agents,
              (SELECT count(*) FROM transactions)::int AS transactions,
              (SELECT count(*) FROM transactions WHERE deleted_at IS NOT NULL)::int AS "deletedTransactions",
              (SELECT count(*) FROM transaction_forms)::int AS forms,
              (SELECT count(*) FROM transactions WHERE closed_at IS NOT NULL)::int AS "closedTransactions",
              (SELECT count(*) FROM transaction_forms WHERE NOT required)::int AS "optionalForms",
              (SELECT count(*) FROM form_versions)::int AS "formVersions",
              (SELECT count(*) FROM key_dates)::int AS "keyDates",
              (SELECT coalesce(sum(queue_count), 0) FROM transactions
                WHERE queue_count > 0 AND closed_at IS NULL AND deleted_at IS NULL)::int AS "queueEntries",
              (SELECT jsonb_object_agg(state, n) FROM (SELECT compliance_state::text AS state, count(*)::int AS n
                 FROM transactions WHERE deleted_at IS NULL GROUP BY 1) AS s) AS states,
              (SELECT count(*) FROM offices)::int AS offices,
              (SELECT count(*) FROM users WHERE role = 'admin' AND office_id IS NOT NULL)::int AS "officeAdmins"`,
    );
    const counted = rows[0];
    if (!counted) throw new Error('counting the dataset returned nothing');
    // The kept total must be what the queue's own rows say (the counters were computed, not kept).
    const { rows: queued } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transaction_forms f JOIN transactions t ON t.id = f.transaction_id
        WHERE t.closed_at IS NULL AND t.deleted_at IS NULL
          AND ((f.file_key IS NOT NULL AND f.status = 'pending') OR f.waiver_status = 'requested')`,
    );
    if (queued[0]?.n !== counted.queueEntries)
      throw new Error(`queue_count sums to ${counted.queueEntries} but ${queued[0]?.n} items are queued`);
    // Every transaction is in its agent's office, as the triggers keep it.
    const { rows: astray } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transactions t JOIN users u ON u.id = t.user_id
        WHERE t.office_id IS DISTINCT FROM u.office_id`,
    );
    if (astray[0]?.n !== 0) throw new Error(`${astray[0]?.n} transactions are not in their agent's office`);
    return counted;
  });
  if (counts.transactions !== DATASET_SIZE.transactions || counts.agents !== DATASET_SIZE.agents) {
    throw new Error(`the generated dataset is incomplete: ${JSON.stringify(counts)}`);
  }

  const seconds = Math.round((Date.now() - began) / 100) / 10;
  const info: DatasetInfo = {
    version: DATASET_VERSION,
    generatedAt: new Date(),
    seconds,
    steps,
    counts,
    reused: false,
    server: '',
  };
  // Written last: a marker exists only for a dataset that is complete.
  await withClient(url, async (client) => {
    await client.query('CREATE SCHEMA bench');
    await client.query(
      `CREATE TABLE bench.dataset (version int NOT NULL, migrations text NOT NULL,
         generated_at timestamptz NOT NULL, seconds numeric NOT NULL, info jsonb NOT NULL)`,
    );
    await client.query('INSERT INTO bench.dataset VALUES ($1, $2, $3, $4, $5)', [
      DATASET_VERSION,
      fingerprint,
      info.generatedAt,
      seconds,
      JSON.stringify(info),
    ]);
  });
  log(`dataset generated in ${seconds} s: ${JSON.stringify(counts)}`);
  return info;
}

/**
 * A benchmark's own database, migrated as today's code migrates it: created when missing, made
 * again when its migrations differ from today's.
 */
export async function migratedBenchDatabase(
  adminUrl: string,
  name: string,
  log: (message: string) => void,
): Promise<string> {
  const url = databaseUrl(adminUrl, name);
  const expected = (await readMigrations()).map((m) => m.name).join(',');
  const current = await withClient(adminUrl, async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) return null;
    return withClient(url, async (db) => {
      const { rows } = await db
        .query<{ names: string }>(
          `SELECT string_agg(migration_name, ',' ORDER BY migration_name) AS names
             FROM _prisma_migrations WHERE finished_at IS NOT NULL`,
        )
        .catch(() => ({ rows: [{ names: '' }] }));
      return rows[0]?.names ?? '';
    });
  });
  if (current !== expected) {
    log(current === null ? `creating ${name}` : `${name} has other migrations: recreating it`);
    await withClient(adminUrl, async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${name}`);
    });
    await migrate(url);
  }
  return url;
}
