import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type pg from 'pg';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../paths';
import { runSql } from '../test/databases';
import { setupTestDatabase } from '../test/harness';
import { MigrationError, migrate, readMigrations } from './migrate';
import { REWORDED_MIGRATIONS } from './reworded-migrations';

const run = promisify(execFile);
const database = setupTestDatabase({ empty: true });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'portal-migrations-'));
});

async function writeMigration(name: string, sql: string) {
  await mkdir(path.join(dir, name), { recursive: true });
  await writeFile(path.join(dir, name, 'migration.sql'), sql);
}

const query = <T extends pg.QueryResultRow>(sql: string) => runSql<T>(database.url, sql);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

type MigrationRow = {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
  rolled_back_at: Date | null;
  logs: string | null;
};
const appliedRows = () =>
  query<MigrationRow>('SELECT * FROM "_prisma_migrations" ORDER BY started_at, migration_name');

afterEach(async () => {
  // Each test starts from an empty database.
  await query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
});

describe('migrate', () => {
  test('applies pending migrations in name order and records them as prisma migrate deploy does', async () => {
    await writeMigration('20260102000000_second', 'ALTER TABLE offices ADD COLUMN city TEXT;');
    await writeMigration('20260101000000_first', 'CREATE TABLE offices (id INTEGER PRIMARY KEY);');
    await writeMigration(
      '20260103000000_third',
      'CREATE TABLE desks (office_id INTEGER REFERENCES offices(id));',
    );

    const result = await migrate(database.url, { dir });
    expect(result).toEqual({
      applied: ['20260101000000_first', '20260102000000_second', '20260103000000_third'],
      alreadyApplied: [],
    });

    const rows = await appliedRows();
    expect(rows.map((r) => r.migration_name)).toEqual(result.applied);
    for (const row of rows) {
      const sql = await readFile(path.join(dir, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
      expect(row.rolled_back_at).toBeNull();
    }
    // Prisma's table, column for column, so `prisma migrate deploy` can take over.
    const columns = await query<{ column_name: string; data_type: string; is_nullable: string }>(
      `SELECT column_name, data_type, is_nullable FROM information_schema.columns
        WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns.map((c) => `${c.column_name} ${c.data_type} ${c.is_nullable}`)).toEqual([
      'id character varying NO',
      'checksum character varying NO',
      'finished_at timestamp with time zone YES',
      'migration_name character varying NO',
      'logs text YES',
      'rolled_back_at timestamp with time zone YES',
      'started_at timestamp with time zone NO',
      'applied_steps_count integer NO',
    ]);
    expect(await query('SELECT city FROM offices')).toEqual([]);
  });

  test('a second run applies nothing; a new migration alone is applied later', async () => {
    await writeMigration('20260101000000_first', 'CREATE TABLE offices (id INTEGER PRIMARY KEY);');
    await migrate(database.url, { dir });
    expect(await migrate(database.url, { dir })).toEqual({
      applied: [],
      alreadyApplied: ['20260101000000_first'],
    });

    await writeMigration('20260105000000_later', 'ALTER TABLE offices ADD COLUMN name TEXT;');
    expect(await migrate(database.url, { dir })).toEqual({
      applied: ['20260105000000_later'],
      alreadyApplied: ['20260101000000_first'],
    });
    expect(await appliedRows()).toHaveLength(2);
  });

  test('refuses an applied migration whose file changed, naming the file, and applies nothing', async () => {
    await writeMigration('20260101000000_first', 'CREATE TABLE offices (id INTEGER PRIMARY KEY);');
    await migrate(database.url, { dir });
    await writeMigration('20260101000000_first', 'CREATE TABLE offices (id BIGINT PRIMARY KEY);');
    await writeMigration('20260102000000_second', 'CREATE TABLE desks (id INTEGER);');

    const file = path.join(dir, '20260101000000_first', 'migration.sql');
    const failure = migrate(database.url, { dir });
    await expect(failure).rejects.toBeInstanceOf(MigrationError);
    await expect(failure).rejects.toThrow(file);
    await expect(failure).rejects.toThrow(/was already applied, but its file has changed/);
    expect((await appliedRows()).map((r) => r.migration_name)).toEqual(['20260101000000_first']);
    expect(await query("SELECT 1 FROM pg_tables WHERE tablename = 'desks'")).toEqual([]);
  });

  test('a line-ending-only change (a Windows checkout) is not an edit', async () => {
    await writeMigration('20260101000000_first', 'CREATE TABLE offices (\n  id INTEGER PRIMARY KEY\n);\n');
    await migrate(database.url, { dir });
    await writeMigration(
      '20260101000000_first',
      'CREATE TABLE offices (\r\n  id INTEGER PRIMARY KEY\r\n);\r\n',
    );
    expect((await migrate(database.url, { dir })).applied).toEqual([]);
  });

  describe('a released migration whose comments were reworded', () => {
    const name = '20260101000000_offices';
    const released = '-- Offices (see the tracker).\nCREATE TABLE offices (id INTEGER PRIMARY KEY);\n';
    const reworded = '-- One row per branch office.\nCREATE TABLE offices (id INTEGER PRIMARY KEY);\n';
    const rewording = { reworded: sha256(reworded), earlier: [sha256(released)] };

    beforeEach(async () => {
      await writeMigration(name, released);
      await migrate(database.url, { dir });
      await writeMigration(name, reworded);
    });

    test('is refused like any edit unless it is listed', async () => {
      await expect(migrate(database.url, { dir, reworded: new Map() })).rejects.toThrow(
        /was already applied, but its file has changed/,
      );
      // Listed under another migration's name, it excuses nothing here.
      const elsewhere = new Map([['20260102000000_other', rewording]]);
      await expect(migrate(database.url, { dir, reworded: elsewhere })).rejects.toThrow(MigrationError);
    });

    test('starts a database that applied the earlier text, which keeps its recorded checksum', async () => {
      await writeMigration('20260102000000_desks', 'CREATE TABLE desks (id INTEGER);');
      expect(await migrate(database.url, { dir, reworded: new Map([[name, rewording]]) })).toEqual({
        applied: ['20260102000000_desks'],
        alreadyApplied: [name],
      });
      expect((await appliedRows())[0]).toMatchObject({ migration_name: name, checksum: sha256(released) });
    });

    test('accepts the reworded file in a Windows checkout too', async () => {
      await writeMigration(name, reworded.replace(/\n/g, '\r\n'));
      const result = await migrate(database.url, { dir, reworded: new Map([[name, rewording]]) });
      expect(result.alreadyApplied).toEqual([name]);
    });

    test('still refuses it once a statement changed, naming the file', async () => {
      await writeMigration(
        name,
        '-- One row per branch office.\nCREATE TABLE offices (id BIGINT PRIMARY KEY);\n',
      );
      const failure = migrate(database.url, { dir, reworded: new Map([[name, rewording]]) });
      await expect(failure).rejects.toBeInstanceOf(MigrationError);
      await expect(failure).rejects.toThrow(path.join(dir, name, 'migration.sql'));
    });
  });

  test('the real migrations start a database that applied their text before the comments were reworded', async () => {
    await migrate(database.url);
    const current = new Map((await readMigrations()).map((m) => [m.name, m.checksum]));
    for (const [name, { reworded, earlier }] of REWORDED_MIGRATIONS) {
      // Each entry names a real migration as it is now; its earlier checksums are of another text.
      expect(current.get(name), name).toBe(reworded);
      expect(earlier, name).not.toContain(reworded);
      await query(
        `UPDATE "_prisma_migrations" SET checksum = '${earlier[0]}' WHERE migration_name = '${name}'`,
      );
    }
    expect((await migrate(database.url)).applied).toEqual([]);

    // Any other checksum on one of them is still an edited file.
    const [first] = REWORDED_MIGRATIONS.keys();
    await query(
      `UPDATE "_prisma_migrations" SET checksum = '${sha256('x')}' WHERE migration_name = '${first}'`,
    );
    await expect(migrate(database.url)).rejects.toThrow(new RegExp(`Migration ${first} was already applied`));
  });

  test('a failing migration changes nothing, names its file, and can be fixed and re-run', async () => {
    await writeMigration('20260101000000_first', 'CREATE TABLE offices (id INTEGER PRIMARY KEY);');
    await writeMigration(
      '20260102000000_broken',
      'CREATE TABLE desks (id INTEGER);\nALTER TABLE offices ADD COLUMN city TEXT;\nALTER TABLE nowhere ADD COLUMN x TEXT;\n',
    );
    const failure = migrate(database.url, { dir });
    await expect(failure).rejects.toThrow(
      /Migration 20260102000000_broken failed: relation "nowhere" does not exist/,
    );
    await expect(failure).rejects.toThrow(path.join(dir, '20260102000000_broken', 'migration.sql'));

    // The first migration stands; nothing of the broken one does, not even its bookkeeping row.
    expect((await appliedRows()).map((r) => r.migration_name)).toEqual(['20260101000000_first']);
    expect(await query("SELECT 1 FROM pg_tables WHERE tablename = 'desks'")).toEqual([]);
    expect(await query("SELECT 1 FROM information_schema.columns WHERE column_name = 'city'")).toEqual([]);

    await writeMigration('20260102000000_broken', 'CREATE TABLE desks (id INTEGER);\n');
    expect((await migrate(database.url, { dir })).applied).toEqual(['20260102000000_broken']);
  });

  test('a syntax error is reported with its line', async () => {
    await writeMigration(
      '20260101000000_typo',
      'CREATE TABLE offices (id INTEGER);\n\nCREATE TABLEE desks (id INTEGER);\n',
    );
    await expect(migrate(database.url, { dir })).rejects.toThrow(
      /Migration 20260101000000_typo failed at line 3: syntax error at or near "TABLEE"/,
    );
    expect(await query("SELECT 1 FROM pg_tables WHERE tablename = 'offices'")).toEqual([]);
  });

  test('refuses to run over a migration that Prisma left unfinished', async () => {
    await writeMigration('20260101000000_first', 'CREATE TABLE offices (id INTEGER PRIMARY KEY);');
    await migrate(database.url, { dir });
    await query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at)
                 VALUES ('00000000-0000-0000-0000-000000000001', 'x', '20260102000000_failed', now())`);
    await expect(migrate(database.url, { dir })).rejects.toThrow(
      /20260102000000_failed started but never finished/,
    );
  });

  test('two processes started at once apply each migration exactly once', async () => {
    // Slow and not idempotent: applied twice, the second CREATE TABLE would fail.
    await writeMigration(
      '20260101000000_slow',
      'SELECT pg_sleep(1);\nCREATE TABLE offices (id INTEGER PRIMARY KEY);',
    );
    await writeMigration('20260102000000_next', 'INSERT INTO offices (id) VALUES (1);');

    const tsx = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
    const cli = path.join(PROJECT_ROOT, 'server', 'db', 'cli.ts');
    const migrateInChild = () =>
      run(tsx, [cli, 'migrate-url', database.url, dir], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, LOG_LEVEL: 'silent' },
      });
    const [a, b] = await Promise.all([migrateInChild(), migrateInChild()]);
    const results = [JSON.parse(a.stdout), JSON.parse(b.stdout)] as Array<{ applied: string[] }>;

    expect(results.flatMap((r) => r.applied).sort()).toEqual(['20260101000000_slow', '20260102000000_next']);
    expect((await appliedRows()).map((r) => r.migration_name)).toEqual([
      '20260101000000_slow',
      '20260102000000_next',
    ]);
    expect(await query('SELECT id FROM offices')).toEqual([{ id: 1 }]);
  });
});
