import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiMessages } from '../shared/messages';
import { PROJECT_ROOT } from './paths';
import { runSql } from './test/databases';
import { until } from './test/until';

/**
 * The process as an operator runs it: server/main.ts on the embedded database in a DATA_DIR of
 * its own, whatever database the other tests use. Signals, exit codes and leftovers are real.
 */

type Started = { child: ChildProcess; baseUrl: string; output: () => string; exited: Promise<number | null> };

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-main-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** server/main.ts directly, or `npm start` exactly as a newcomer runs it (build included). */
function launch(env: Record<string, string>, how: 'main.ts' | 'npm start' = 'main.ts'): Started {
  const [command, args] =
    how === 'npm start'
      ? ['npm', ['start']]
      : [process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'server', 'main.ts')]];
  const child = spawn(command, args, {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ADMIN_PASSWORD: '',
      NODE_ENV: 'test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a hung server can be killed with everything it started.
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, baseUrl: '', output: () => output, exited };
}

async function start(
  env: Record<string, string> = {},
  how: 'main.ts' | 'npm start' = 'main.ts',
): Promise<Started> {
  const started = launch(env, how);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const match = started.output().match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    if (match?.[1]) return { ...started, baseUrl: match[1] };
    if (started.child.exitCode !== null) throw new Error(`the server exited early:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends the signal and waits up to 15 s; a process that does not exit is killed and reported. */
async function stop(
  started: Started,
  signal: NodeJS.Signals,
): Promise<{ code: number | null | 'hung'; ms: number }> {
  const t0 = Date.now();
  started.child.kill(signal);
  const code = await Promise.race([
    started.exited,
    new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 15_000)),
  ]);
  if (code === 'hung' && started.child.pid) process.kill(-started.child.pid, 'SIGKILL');
  return { code, ms: Date.now() - t0 };
}

/** Every live process whose command line mentions our data directory (PostgreSQL's do). */
async function processesUsing(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(dir) && Number(entry) !== process.pid)
      found.push(`${entry}: ${cmdline.replace(/\0/g, ' ')}`);
  }
  return found;
}

/** The embedded database's address, from the start-up log and the password file in DATA_DIR. */
async function embeddedUrl(started: Started): Promise<string> {
  const port = started.output().match(/Embedded PostgreSQL is running on 127\.0\.0\.1:(\d+)/)?.[1];
  const password = (await readFile(path.join(dataDir, 'postgres-password'), 'utf8')).trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/portal`;
}

// A start may wait 60 s for 'listening' (a first start creates the embedded database and
// migrates it: over 30 s on a loaded two-core runner) and a stop 15 s for the exit.
describe('the server process', { timeout: 120_000 }, () => {
  test('first start: creates the database, prints listening and the owner password; SIGINT exits 0', async () => {
    const server = await start();
    expect(server.output()).toMatch(/Brokerage Portal listening on http:\/\/127\.0\.0\.1:\d+\n/);
    // Once: Fastify's own "Server listening at ..." line is left out.
    expect(server.output().match(/listening (?:at|on) http/g)).toHaveLength(1);
    expect(server.output()).toMatch(/Owner account created: admin@example\.com with password \S{16} /);
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    // The printed password signs the owner in, as an admin.
    const password = server.output().match(/with password (\S{16}) /)?.[1];
    const login = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password }),
    });
    expect(login.status).toBe(200);
    const session = (await login.json()) as { token: string };
    expect(JSON.parse(Buffer.from(session.token.split('.')[1] ?? '', 'base64url').toString())).toMatchObject({
      role: 'admin',
    });
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', database: 'up' });

    // A row written now must survive the restart below.
    await runSql(
      await embeddedUrl(server),
      "CREATE TABLE restart_probe (note TEXT); INSERT INTO restart_probe VALUES ('kept')",
    );

    const { code, ms } = await stop(server, 'SIGINT');
    expect(code, server.output()).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(await processesUsing(dataDir)).toEqual([]);
  });

  test('second start reuses the data (same owner, same rows); SIGTERM exits 0', async () => {
    const server = await start();
    expect(server.output()).not.toContain('Owner account created');
    expect(server.output()).toContain('Database schema is up to date');
    const url = await embeddedUrl(server);
    expect(await runSql(url, 'SELECT note FROM restart_probe')).toEqual([{ note: 'kept' }]);
    expect(await runSql(url, 'SELECT count(*)::int AS owners FROM users WHERE is_owner')).toEqual([
      { owners: 1 },
    ]);

    const { code, ms } = await stop(server, 'SIGTERM');
    expect(code, server.output()).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(await processesUsing(dataDir)).toEqual([]);
  });

  test('SHUTDOWN_DRAIN_MS: on SIGTERM /readyz turns 503 while the API still answers, then the process exits 0', async () => {
    const drainMs = 2_000;
    const server = await start({ SHUTDOWN_DRAIN_MS: String(drainMs) });
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    const stopping = stop(server, 'SIGTERM');
    await until(async () => (await fetch(`${server.baseUrl}/readyz`)).status === 503, 1_000, 20);
    expect(await (await fetch(`${server.baseUrl}/readyz`)).json()).toEqual({
      message: apiMessages.shuttingDown,
      code: 'SERVICE_UNAVAILABLE',
      error: 'service-unavailable',
    });
    const during = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'not-the-password' }),
    });
    expect(during.status).toBe(401); // answered in full, not refused
    const { code, ms } = await stopping;
    expect(code, server.output()).toBe(0);
    expect(ms).toBeGreaterThanOrEqual(drainMs);
    expect(ms).toBeLessThan(drainMs + 10_000);
    expect(server.output()).toContain(`draining for ${drainMs} ms before closing`);
    // A planned drain is not an error: nothing logged at error level (50) or above.
    expect(server.output()).not.toMatch(/"level":(50|60)/);
  });

  test('`npm start` builds, serves the client, and passes SIGINT and SIGTERM on to the server', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const server = await start({}, 'npm start');
      const page = await fetch(`${server.baseUrl}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);

      const { code, ms } = await stop(server, signal);
      // What the processes printed, should one not exit cleanly (a rare failure under load).
      expect({ signal, code, output: code === 0 ? '' : server.output() }).toEqual({
        signal,
        code: 0,
        output: '',
      });
      expect(ms).toBeLessThan(10_000);
      expect(await processesUsing(dataDir)).toEqual([]);
    }
  }, 120_000);

  test('a bad setting stops start-up at once with a message naming the variable', async () => {
    const badPort = launch({ PORT: 'eighty' });
    expect(await badPort.exited).toBe(1);
    expect(badPort.output()).toContain('PORT must be a whole number from 0 to 65535 (got "eighty")');

    const noSecret = launch({ DATABASE_URL: 'postgresql://somewhere/portal' });
    expect(await noSecret.exited).toBe(1);
    expect(noSecret.output()).toContain('JWT_SECRET is required when DATABASE_URL is set');
    expect(noSecret.output()).not.toContain('somewhere'); // URLs may hold passwords: never echoed

    const shortToken = launch({ NODE_ENV: 'production', METRICS_TOKEN: 'metrics-token-too-short' });
    expect(await shortToken.exited).toBe(1);
    expect(shortToken.output()).toContain('METRICS_TOKEN must be at least 32 characters');
    expect(shortToken.output()).not.toContain('metrics-token-too-short');
  });
});
