import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { runMigrations as installJobQueue, Logger as JobLogger } from 'graphile-worker';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths';
import { REWORDED_MIGRATIONS, type Rewording } from './reworded-migrations';

/**
 * Applies prisma/migrations the way `prisma migrate deploy` does, without Prisma's schema engine
 * (which cannot be downloaded here): the same `_prisma_migrations` table and columns, the same
 * sha256 checksums, the same advisory lock key, so either tool can take over from the other.
 *
 * One difference on purpose: each migration runs in its own transaction together with its
 * bookkeeping row, so a failed migration leaves the database exactly as it was and can simply
 * be fixed and re-run (Prisma would leave a half-applied migration to resolve by hand).
 * An applied migration whose file changed stops the start, except a comment-only rewording
 * listed with its earlier checksums in reworded-migrations.ts.
 * A migration that must run outside a transaction (CREATE INDEX CONCURRENTLY) needs its own
 * tooling; none exists yet.
 */

/** Prisma's own advisory lock key: concurrent deploys by either tool wait for each other. */
const PRISMA_MIGRATE_LOCK_KEY = 72707369;
const LOCK_TIMEOUT = '120s';

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** graphile-worker prints its migrations to the console by default; they are ours to log. */
const quietJobLogger = new JobLogger(() => () => {});

export type Migration = { name: string; file: string; sql: string; checksum: string };
export type MigrateResult = { applied: string[]; alreadyApplied: string[] };
type Logger = { info(msg: string): void; warn(msg: string): void };

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

function checksumOf(sql: string): string {
  return createHash('sha256').update(sql, 'utf8').digest('hex');
}

/** Prisma also accepts a file whose only change is its line endings (a Windows checkout). */
function matchesChecksum(sql: string, checksum: string): boolean {
  const lf = sql.replace(/\r\n/g, '\n');
  return [sql, lf, lf.replace(/\n/g, '\r\n')].some((variant) => checksumOf(variant) === checksum);
}

/**
 * The file as applied, or exactly the comment-only rewording `reworded` lists for it of the text
 * the database applied: an earlier checksum excuses nothing once the file changed again.
 */
function isUnchanged(
  migration: Migration,
  checksum: string,
  reworded: ReadonlyMap<string, Rewording>,
): boolean {
  if (matchesChecksum(migration.sql, checksum)) return true;
  const rewording = reworded.get(migration.name);
  if (!rewording?.earlier.includes(checksum)) return false;
  return matchesChecksum(migration.sql, rewording.reworded);
}

export async function readMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name, 'migration.sql');
      const sql = await readFile(file, 'utf8').catch(() => {
        throw new MigrationError(`Migration folder ${name} has no migration.sql (${file})`);
      });
      return { name, file, sql, checksum: checksumOf(sql) };
    }),
  );
}

function lineOf(sql: string, position: unknown): string {
  const offset = Number(position);
  if (!Number.isInteger(offset) || offset < 1) return '';
  return ` at line ${sql.slice(0, offset - 1).split('\n').length}`;
}

export async function migrate(
  databaseUrl: string,
  options: { dir?: string; log?: Logger; reworded?: ReadonlyMap<string, Rewording> } = {},
): Promise<MigrateResult> {
  const log = options.log ?? { info: () => {}, warn: () => {} };
  const reworded = options.reworded ?? REWORDED_MIGRATIONS;
  const migrations = await readMigrations(options.dir);
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: 'brokerage-portal-migrate',
  });
  client.on('error', () => {}); // a dropped connection surfaces as the failing query's error
  await client.connect();
  try {
    await client.query(`SET lock_timeout = '${LOCK_TIMEOUT}'`);
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      // Read what is applied only once the lock is held: another process may just have finished.
      const { rows } = await client.query<{
        migration_name: string;
        checksum: string;
        finished_at: Date | null;
      }>(
        'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
      );
      const unfinished = rows.find((row) => row.finished_at === null);
      if (unfinished) {
        throw new MigrationError(
          `Migration ${unfinished.migration_name} started but never finished (a failed \`prisma migrate deploy\`). ` +
            'Resolve it with `prisma migrate resolve` before starting.',
        );
      }
      const applied = new Map(rows.map((row) => [row.migration_name, row.checksum]));
      for (const migration of migrations) {
        const checksum = applied.get(migration.name);
        if (checksum !== undefined && !isUnchanged(migration, checksum, reworded)) {
          throw new MigrationError(
            `Migration ${migration.name} was already applied, but its file has changed since: ${migration.file}. ` +
              'Applied migrations must never be edited; restore the file and add a new migration instead.',
          );
        }
      }
      const known = new Set(migrations.map((m) => m.name));
      for (const name of applied.keys()) {
        if (!known.has(name))
          log.warn(`Migration ${name} is applied in the database but missing from ${MIGRATIONS_DIR}`);
      }

      const result: MigrateResult = { applied: [], alreadyApplied: [] };
      for (const migration of migrations) {
        if (applied.has(migration.name)) {
          result.alreadyApplied.push(migration.name);
          continue;
        }
        await applyOne(client, migration);
        log.info(`Applied migration ${migration.name}`);
        result.applied.push(migration.name);
      }
      // The job queue's own schema ("graphile_worker"), migrated by its library under
      // its own lock, after ours: a database this function prepared can take jobs at once.
      await installJobQueue({ connectionString: databaseUrl, logger: quietJobLogger });
      return result;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK_KEY]).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}

async function applyOne(client: pg.Client, migration: Migration): Promise<void> {
  const id = randomUUID();
  await client.query('BEGIN');
  try {
    await client.query(
      'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
      [id, migration.checksum, migration.name],
    );
    try {
      await client.query(migration.sql);
    } catch (error) {
      const e = error as { message?: string; position?: unknown };
      throw new MigrationError(
        `Migration ${migration.name} failed${lineOf(migration.sql, e.position)}: ${e.message ?? String(error)} ` +
          `(${migration.file}). Nothing of it was applied.`,
      );
    }
    await client.query(
      'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
      [id],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
