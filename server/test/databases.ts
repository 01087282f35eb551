import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Creating and dropping per-test databases on the test server. Every test file gets its own
 * database, cloned from a template that holds the migrated schema: cloning takes milliseconds
 * where migrating would take a second, and files never see each other's rows.
 */

/** Preparing the template holds this lock exclusively; cloning holds it shared. */
const TEMPLATE_LOCK_KEY = 4_206_911_002;

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

export async function withAdminClient<T>(
  adminUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** One statement (or a script) on its own short-lived connection; returns the rows. */
export async function runSql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  sql: string,
): Promise<T[]> {
  return withAdminClient(url, async (client) => (await client.query<T>(sql)).rows);
}

export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/** Runs `prepare` once per template name, even across concurrent test runs on one server. */
export async function ensureTemplate(
  adminUrl: string,
  name: string,
  prepare: (url: string) => Promise<void>,
): Promise<void> {
  await withAdminClient(adminUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (!rowCount) {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
        try {
          await prepare(databaseUrl(adminUrl, name));
        } catch (error) {
          await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  });
}

export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  await withAdminClient(adminUrl, async (client) => {
    const from = template ? ` TEMPLATE ${client.escapeIdentifier(template)}` : '';
    await client.query('SELECT pg_advisory_lock_shared($1)', [TEMPLATE_LOCK_KEY]);
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}${from}`);
          break;
        } catch (error) {
          // 55006: another clone of the same template is being set up this very moment.
          if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock_shared($1)', [TEMPLATE_LOCK_KEY]);
    }
  });
  return databaseUrl(adminUrl, name);
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdminClient(adminUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`),
  );
}

export async function dropDatabasesLike(adminUrl: string, prefix: string): Promise<void> {
  await withAdminClient(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname::text AS datname FROM pg_database WHERE datname LIKE $1 || '%'",
      [prefix],
    );
    for (const { datname } of rows) {
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
    }
  });
}
