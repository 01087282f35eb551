import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../paths';
import { runSql } from '../test/databases';
import { startEmbeddedPostgres } from './embedded';

/** These tests exercise the embedded database itself, whatever server the other tests use. */

const dirs: string[] = [];
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop().catch(() => {});
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function dataDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-embedded-'));
  dirs.push(dir);
  return dir;
}

async function start(dir: string) {
  const database = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true });
  stops.push(database.stop);
  return database;
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('embedded PostgreSQL', () => {
  test('keeps its data across restarts, on a new port each time', async () => {
    const dir = await dataDir();
    const first = await start(dir);
    await runSql(first.url, "CREATE TABLE kept (note TEXT); INSERT INTO kept VALUES ('still here')");
    await first.stop();

    const second = await start(dir);
    expect(await runSql(second.url, 'SELECT note FROM kept')).toEqual([{ note: 'still here' }]);
    expect(new URL(second.url).hostname).toBe('127.0.0.1');
    // The password is required: the cluster does not trust local connections.
    const withoutPassword = new URL(second.url);
    withoutPassword.password = '';
    await expect(runSql(withoutPassword.toString(), 'SELECT 1')).rejects.toThrow();
  });

  test('starts after a crash left a postmaster.pid whose process is gone or is someone else', async () => {
    const dir = await dataDir();
    const first = await start(dir);
    await first.stop();
    const pidFile = path.join(dir, 'postgres', 'postmaster.pid');

    // A pid that no longer exists, then a live pid of an unrelated process (this test runner).
    for (const stalePid of [2_147_483, process.pid]) {
      await writeFile(pidFile, `${stalePid}\n${path.join(dir, 'postgres')}\n1700000000\n5432\n\n127.0.0.1\n`);
      const restarted = await start(dir);
      expect(await runSql(restarted.url, 'SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
      await restarted.stop();
    }
  });

  test('stops a PostgreSQL orphaned by a killed process and takes over its data', async () => {
    const dir = await dataDir();
    // `node --import tsx`, not the tsx CLI: the CLI is a wrapper process, and killing it would
    // leave the real owner of PostgreSQL alive instead of simulating a crash.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(PROJECT_ROOT, 'server', 'test', 'fixtures', 'start-embedded.ts'), dir],
      { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', () => reject(new Error('the child exited before starting PostgreSQL')));
    });
    const orphan = JSON.parse(line) as { url: string; pid: number };
    await runSql(orphan.url, "CREATE TABLE kept (note TEXT); INSERT INTO kept VALUES ('before the crash')");

    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(isAlive(orphan.pid)).toBe(true); // the crash left PostgreSQL running without its owner

    const next = await start(dir);
    expect(isAlive(orphan.pid)).toBe(false);
    expect(await runSql(next.url, 'SELECT note FROM kept')).toEqual([{ note: 'before the crash' }]);
    expect(await readFile(path.join(dir, 'postgres', 'postmaster.pid'), 'utf8')).not.toContain(
      `${orphan.pid}\n`,
    );
  });
});
