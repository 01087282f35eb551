import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from '../db/embedded';
import { PROJECT_ROOT } from '../paths';

/**
 * The portal as production runs it, for fault and load runs: the built bundle
 * (dist/server/main.js) in a process of its own, on a PostgreSQL the test owns (embedded, on a
 * fixed port), so the test can stop and start the database under a live server and check the
 * server process itself survives.
 */

export const BUILT_SERVER = path.join(PROJECT_ROOT, 'dist', 'server', 'main.js');

/** Bundles server/main.ts into dist/server/main.js (about a second; the client is not needed). */
export async function buildServerBundle(): Promise<void> {
  await promisify(execFile)(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'build-server.mjs')], {
    cwd: PROJECT_ROOT,
  });
}

export type ServerProcess = {
  child: ChildProcess;
  baseUrl: string;
  /** What the process printed (the last 2 MB of it). */
  output(): string;
  /** Still running: no exit code and no signal yet. */
  isRunning(): boolean;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

const MAX_OUTPUT = 2 * 1024 * 1024;

export type BuiltServerOptions = {
  /**
   * Source maps make the tests' stack traces readable, but Node keeps every map of the bundle in
   * memory: benchmarks that measure memory run the server as `npm start` and the image do, without.
   */
  sourceMaps?: boolean;
  /** Node's own flags, as `npm start` passes them (server/test/deployed-env.ts). */
  nodeFlags?: readonly string[];
};

/** Starts dist/server/main.js with exactly `env` on top of a few safe defaults; resolves once it listens. */
export async function startBuiltServer(
  env: Record<string, string>,
  dataDir: string,
  { sourceMaps = true, nodeFlags = [] }: BuiltServerOptions = {},
): Promise<ServerProcess> {
  const flags = [...(sourceMaps ? ['--enable-source-maps'] : []), ...nodeFlags];
  const child = spawn(process.execPath, [...flags, BUILT_SERVER], {
    // Not the project root: a developer's ./.env there would fill in settings the run did not choose.
    cwd: dataDir,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a hung server can be killed with everything it started.
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > MAX_OUTPUT) output = output.slice(-MAX_OUTPUT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const isRunning = () => child.exitCode === null && child.signalCode === null;

  const deadline = Date.now() + 60_000;
  for (;;) {
    const match = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    if (match?.[1]) return { child, baseUrl: match[1], output: () => output, isRunning, exited };
    if (!isRunning()) throw new Error(`the server exited during start-up:\n${output}`);
    if (Date.now() > deadline) {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
      throw new Error(`the server did not start within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends SIGTERM and waits up to 15 s; a process that does not exit is killed and reported as hung. */
export async function stopBuiltServer(server: ServerProcess): Promise<number | null | 'hung'> {
  if (!server.isRunning()) return (await server.exited).code;
  server.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    server.exited.then(({ code }) => code),
    new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), 15_000);
    }),
  ]);
  // Cleared, or a script that stops its server would wait out the 15 s before it can exit.
  clearTimeout(timer);
  if (outcome === 'hung' && server.child.pid) process.kill(-server.child.pid, 'SIGKILL');
  return outcome;
}

/**
 * The server's log in a few lines: identical pino records (level, message, error) counted
 * together, anything else verbatim. Thousands of 503s read as one line with its count.
 */
export function summariseServerLog(output: string): string {
  const counts = new Map<string, number>();
  for (const line of output.split('\n')) {
    if (!line.trim()) continue;
    let key = line;
    try {
      const record = JSON.parse(line) as { level?: number; msg?: string; error?: { message?: string } };
      key = `level ${record.level} ${record.msg}${record.error?.message ? `: ${record.error.message}` : ''}`;
    } catch {
      // not a pino record (the "listening on" line): kept as it is
    }
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => `${String(count).padStart(6)} x ${key}`).join('\n');
}

export type PortalStack = {
  server: ServerProcess;
  /** The server's DATA_DIR (uploads live in DATA_DIR/uploads). */
  dataDir: string;
  /** The portal database, for checking rows directly. */
  databaseUrl: string;
  owner: { email: string; password: string };
  /** Stops PostgreSQL (a fast shutdown: open sessions are cut, committed data is kept). */
  stopDatabase(): Promise<void>;
  /** Starts it again on the same port and data. */
  startDatabase(): Promise<void>;
  /** Stops the server (SIGTERM; its exit code, or 'hung') and the database; removes both folders. */
  close(): Promise<number | null | 'hung'>;
};

/**
 * An embedded PostgreSQL on a fixed free port plus the built server on it, each in a temporary
 * folder of its own. `env` adds to or overrides the server's settings (RATE_LIMIT_PER_MIN...).
 */
export async function startPortalStack(
  env: Record<string, string> = {},
  options: BuiltServerOptions = {},
): Promise<PortalStack> {
  // Separate folders: as root, PostgreSQL runs as `postgres` and must reach its folder's parents.
  const databaseDir = await mkdtemp(path.join(tmpdir(), 'portal-stack-pg-'));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-stack-data-'));
  const port = await freePort();
  const start = () => startEmbeddedPostgres({ dataDir: databaseDir, ephemeral: true, port });
  let database: EmbeddedDatabase | undefined = await start();
  const owner = { email: 'owner@resilience.test', password: 'Owner-password-1' };
  let server: ServerProcess;
  try {
    server = await startBuiltServer(
      {
        DATABASE_URL: database.url,
        JWT_SECRET: 'resilience-run-secret-with-enough-length-0123456789',
        ADMIN_EMAIL: owner.email,
        ADMIN_PASSWORD: owner.password,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        ...env,
      },
      dataDir,
      options,
    );
  } catch (error) {
    await database.stop();
    throw error;
  }
  const databaseUrl = database.url;
  return {
    server,
    dataDir,
    databaseUrl,
    owner,
    async stopDatabase() {
      await database?.stop();
      database = undefined;
    },
    async startDatabase() {
      database = await start();
    },
    async close() {
      const code = await stopBuiltServer(server);
      await database?.stop().catch(() => {});
      await rm(databaseDir, { recursive: true, force: true });
      await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
