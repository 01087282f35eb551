import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BUILT_SERVER,
  type ServerProcess,
  startBuiltServer,
  stopBuiltServer,
} from '../server/test/built-server';
import { createDatabase, dropDatabase, uniqueDatabaseName } from '../server/test/databases';
import { exerciseExamples } from './exercise-examples';
import { typeCheckExamples } from './typecheck-examples';

/**
 * `npm run example:typed-client`: the integrator's examples (examples/, docs/API.md "A typed
 * client") against the BUILT server (dist/server/main.js), as CI runs them. It
 * 1. starts the built server on an empty database: one of its own on the server TEST_DATABASE_URL
 *    names when that is set, else the embedded PostgreSQL in a temporary DATA_DIR; with
 *    WEBHOOK_ALLOW_PRIVATE on, since the example's webhook receiver listens on 127.0.0.1;
 * 2. generates the types from that server's GET /api/openapi.json and type-checks every example
 *    against them with tsc;
 * 3. runs the examples and checks what they answer (scripts/exercise-examples.ts).
 * Any failure exits non-zero, with the server's log.
 */

const DEADLINE_MS = 120_000;
const OWNER = { email: 'owner@example.test', password: 'Example-owner-password-1' };

const say = (line: string) => process.stdout.write(`${line}\n`);
// A reader that went away (`| head`) must not end the run before it cleans up.
process.stdout.on('error', () => {});

let server: ServerProcess | undefined;
const cleanups: (() => Promise<unknown>)[] = [];
async function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
}

async function startServer(): Promise<ServerProcess> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'typed-client-example-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const adminUrl = process.env.TEST_DATABASE_URL;
  let databaseUrl = ''; // none: the embedded PostgreSQL under DATA_DIR
  if (adminUrl) {
    const name = uniqueDatabaseName('typed_client_example');
    databaseUrl = await createDatabase(adminUrl, name);
    cleanups.push(() => dropDatabase(adminUrl, name));
  }
  const started = await startBuiltServer(
    {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: 'typed-client-example-secret-0123456789abcdef',
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    dataDir,
  );
  cleanups.push(async () => {
    const code = await stopBuiltServer(started);
    if (code !== 0) say(`the server exited with ${code}`);
  });
  return started;
}

async function run(): Promise<void> {
  if (!existsSync(BUILT_SERVER)) throw new Error(`${BUILT_SERVER} is missing: run npm run build first`);
  const started = Date.now();
  const progress = (line: string) => say(`${line} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  server = await startServer();
  const database = process.env.TEST_DATABASE_URL ? 'a database on TEST_DATABASE_URL' : 'embedded PostgreSQL';
  progress(`built server on ${server.baseUrl}, ${database}`);

  const checked = typeCheckExamples(await (await fetch(`${server.baseUrl}/api/openapi.json`)).json());
  if (!checked.ok)
    throw new Error(`the examples do not type-check against the served document:\n${checked.output}`);
  progress('every example type-checks against the served document');

  await exerciseExamples(server.baseUrl, OWNER, progress);
}

const deadline = setTimeout(() => {
  process.stderr.write(`the typed client example did not finish within ${DEADLINE_MS / 1000} s\n`);
  void cleanUp().finally(() => process.exit(1));
}, DEADLINE_MS);
// However this process ends (an uncaught error, a closed stdout), the server it started goes too.
process.once('exit', () => {
  if (server?.isRunning() && server.child.pid) process.kill(-server.child.pid, 'SIGKILL');
});
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(code)));
}

try {
  await run();
  await cleanUp();
  clearTimeout(deadline);
  say('typed client example: passed');
} catch (error) {
  process.stderr.write(`typed client example FAILED: ${error instanceof Error ? error.stack : error}\n`);
  const log = server?.output();
  if (log) process.stderr.write(`the server's log:\n${log}\n`);
  await cleanUp();
  process.exit(1);
}
