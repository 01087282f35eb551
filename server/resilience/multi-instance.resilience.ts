import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../db/embedded';
import { subscribeOverWebSocket } from '../test/api-calls';
import {
  type ServerProcess,
  startBuiltServer,
  stopBuiltServer,
  summariseServerLog,
} from '../test/built-server';
import { type RunningCaddy, startCaddy } from '../test/caddy';
import { createDatabase, runSql } from '../test/databases';
import {
  AGENT_PASSWORD,
  createAgents,
  expectStatus,
  openTransaction,
  type SignedIn,
  signIn,
  timedCall,
} from '../test/rest-client';
import { type S3TestServer, startS3TestServer } from '../test/s3-server';
import { auditStoredFilesInBucket, STORAGE_AND_ROWS_AGREE } from '../test/stored-files-audit';
import { until } from '../test/until';

/**
 * Several stateless instances on one PostgreSQL and one S3 bucket behave as one
 * portal. Two built servers (dist/server/main.js, each its own process and DATA_DIR) share an
 * embedded PostgreSQL and an s3rver bucket; every check crosses from one to the other: what A
 * wrote, signed or raised, B reads, honours or delivers.
 */

const MIGRATIONS_DIR = path.join(import.meta.dirname, '..', '..', 'prisma', 'migrations');
/** A (type, role) with a template, for the transactions these tests open. */
const LISTING = { type: 'Listing', role: 'Seller' } as const;
const SHARED_SECRET = 'multi-instance-secret-with-enough-length-0123456789';
const OWNER = { email: 'owner@instances.test', password: 'Owner-password-1' };
/** Longer than deploy/Caddyfile's health_interval (2 s) plus a prompt /readyz; compose allows 6 s. */
const DRAIN_MS = 4_000;
/** Fresh databases on which two instances start at the same moment. */
const SIMULTANEOUS_START_ROUNDS = 3;

type Instance = { server: ServerProcess; dataDir: string };
type Pair = [Instance, Instance];

let database: EmbeddedDatabase;
let s3: S3TestServer;
const folders: string[] = [];
const running: Instance[] = [];

async function startInstance(
  databaseUrl: string,
  name: string,
  { port = 0, drainMs = DRAIN_MS }: { port?: number; drainMs?: number } = {},
): Promise<Instance> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `portal-${name}-`));
  folders.push(dataDir);
  const server = await startBuiltServer(
    {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: SHARED_SECRET,
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
      SEED_DEMO: 'false',
      // debug: the migration lines tell which instance applied what, and each request's line
      // which instance answered it (request lines are written at debug).
      LOG_LEVEL: 'debug',
      PORT: String(port),
      // The clients of these tests all come from 127.0.0.1; the per-address limit would refuse them.
      RATE_LIMIT_PER_MIN: '0',
      SHUTDOWN_DRAIN_MS: String(drainMs),
      ...s3.environment,
    },
    dataDir,
  );
  const instance = { server, dataDir };
  running.push(instance);
  return instance;
}

/** Two instances launched together on a fresh, empty database. */
async function startPairOnFreshDatabase(round: number): Promise<{ pair: Pair; databaseUrl: string }> {
  const databaseUrl = await createDatabase(database.adminUrl, `instances_round_${round}`);
  // Only the last pair goes on to serve behind the balancer; the others need no drain to stop.
  const drainMs = round === SIMULTANEOUS_START_ROUNDS ? DRAIN_MS : 0;
  const pair = (await Promise.all([
    startInstance(databaseUrl, `a${round}`, { drainMs }),
    startInstance(databaseUrl, `b${round}`, { drainMs }),
  ])) as Pair;
  return { pair, databaseUrl };
}

const appliedBy = (instance: Instance) =>
  [...instance.server.output().matchAll(/Applied migration (\w+)/g)].map((match) => match[1]);

async function stopPair(pair: Pair): Promise<void> {
  const codes = await Promise.all(pair.map((instance) => stopBuiltServer(instance.server)));
  expect(codes).toEqual([0, 0]);
  for (const instance of pair) running.splice(running.indexOf(instance), 1);
}

let a: Instance;
let b: Instance;
let databaseUrl: string;

beforeAll(async () => {
  const databaseDir = await mkdtemp(path.join(tmpdir(), 'portal-instances-pg-'));
  folders.push(databaseDir);
  database = await startEmbeddedPostgres({ dataDir: databaseDir, ephemeral: true });
  s3 = await startS3TestServer();
});

afterAll(async () => {
  for (const instance of running) {
    const code = await stopBuiltServer(instance.server);
    if (code !== 0)
      console.warn(`Server log (exit ${code}):\n${summariseServerLog(instance.server.output())}`);
  }
  await s3?.close();
  await database?.stop();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describe('two instances starting at once on an empty database', () => {
  it(`apply every migration exactly once and create one owner (${SIMULTANEOUS_START_ROUNDS} rounds)`, async () => {
    const migrations = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(migrations.length).toBeGreaterThan(3);

    for (let round = 1; round <= SIMULTANEOUS_START_ROUNDS; round++) {
      const started = await startPairOnFreshDatabase(round);
      const [first, second] = started.pair;
      // Between them the two logs name every migration once: none was applied twice, none skipped.
      expect([...appliedBy(first), ...appliedBy(second)].sort()).toEqual(migrations);
      const rows = await runSql<{ migration_name: string; finished: boolean }>(
        started.databaseUrl,
        'SELECT migration_name, finished_at IS NOT NULL AS finished FROM "_prisma_migrations" ORDER BY migration_name',
      );
      expect(rows).toEqual(migrations.map((name) => ({ migration_name: name, finished: true })));
      const owners = await runSql<{ count: string }>(
        started.databaseUrl,
        `SELECT count(*) FROM users WHERE email = '${OWNER.email}'`,
      );
      expect(owners).toEqual([{ count: '1' }]);

      if (round < SIMULTANEOUS_START_ROUNDS) {
        await stopPair(started.pair);
      } else {
        [a, b] = started.pair; // the last pair serves the cross-instance checks below
        databaseUrl = started.databaseUrl;
      }
    }
  });
});

describe('two instances on one database and one S3 bucket', () => {
  let owner: SignedIn;
  let agent: SignedIn;

  beforeAll(async () => {
    owner = await signIn(a.server.baseUrl, OWNER.email, OWNER.password);
    [agent] = (await createAgents(b.server.baseUrl, owner, 1, 'multi')) as [SignedIn];
  });

  it('a session begun on A is honoured and refreshed on B, and a replay on A ends it everywhere', async () => {
    const session = (await expectStatus(
      timedCall(a.server.baseUrl, 'POST', '/api/auth/login', {
        json: { email: agent.email, password: AGENT_PASSWORD },
      }),
      200,
    )) as { token: string; refreshToken: string; _id: string };

    await expectStatus(
      timedCall(b.server.baseUrl, 'GET', `/api/settings/getUser/${session._id}`, { token: session.token }),
      200,
    );
    const renewed = (await expectStatus(
      timedCall(b.server.baseUrl, 'POST', '/api/auth/refresh', {
        json: { refreshToken: session.refreshToken },
      }),
      200,
    )) as { token: string; refreshToken: string };
    await expectStatus(
      timedCall(a.server.baseUrl, 'GET', `/api/settings/getUser/${session._id}`, { token: renewed.token }),
      200,
    );

    // The spent refresh token presented to A: A knows B spent it and ends the whole session.
    await expectStatus(
      timedCall(a.server.baseUrl, 'POST', '/api/auth/refresh', {
        json: { refreshToken: session.refreshToken },
      }),
      401,
    );
    await expectStatus(
      timedCall(b.server.baseUrl, 'POST', '/api/auth/refresh', {
        json: { refreshToken: renewed.refreshToken },
      }),
      401,
    );
  });

  it('a file uploaded through A is attached through B and downloads, byte for byte, from B’s link', async () => {
    const created = await openTransaction(b.server.baseUrl, agent.token, {
      ...LISTING,
      streetAddress: '2 Replica Row',
    });
    const formId = created.forms[0]?._id ?? '';

    // 7 MiB: above the S3 driver's part size, so the upload through A is a multipart upload.
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(7 * 1024 * 1024)]);
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'Purchase agreement.pdf');
    const uploaded = (await expectStatus(
      timedCall(a.server.baseUrl, 'POST', `/api/uploads/transactions/${created._id}`, {
        token: agent.token,
        form,
        timeoutMs: 60_000,
      }),
      201,
    )) as { key: string; url: string; size: number };
    expect(uploaded.size).toBe(bytes.length);

    await expectStatus(
      timedCall(b.server.baseUrl, 'PUT', `/api/transactions/${created._id}/forms/${formId}`, {
        token: agent.token,
        json: { url: uploaded.url },
      }),
      200,
    );
    const detail = (await expectStatus(
      timedCall(b.server.baseUrl, 'GET', `/api/transactions/individual/${created._id}/${agent.id}`, {
        token: agent.token,
      }),
      200,
    )) as { forms: Array<{ _id: string; url: string }> };
    const link = detail.forms.find((f) => f._id === formId)?.url ?? '';
    expect(link.startsWith(s3.environment.S3_ENDPOINT)).toBe(true);

    const download = await fetch(link);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    const received = Buffer.from(await download.arrayBuffer());
    expect(createHash('sha256').update(received).digest('hex')).toBe(
      createHash('sha256').update(bytes).digest('hex'),
    );

    // The file lives in the bucket, not on either instance's disk.
    for (const instance of [a, b]) {
      const local = await readdir(path.join(instance.dataDir, 'uploads')).catch(() => []);
      expect(local).toEqual([]);
    }
    expect(await s3.objectKeys()).toContain(uploaded.key);
    const rows = await runSql<{ size: string }>(
      databaseUrl,
      `SELECT size::text FROM stored_files WHERE key = '${uploaded.key}'`,
    );
    expect(rows).toEqual([{ size: String(bytes.length) }]);
    const audit = await auditStoredFilesInBucket(databaseUrl, s3);
    expect(audit).toMatchObject(STORAGE_AND_ROWS_AGREE);
  });

  it('a notification raised on A reaches a socket held open on B, and the other way round', async () => {
    const toWebSocket = (instance: Instance) => `${instance.server.baseUrl.replace('http', 'ws')}/trpc`;
    const ownerOnB = subscribeOverWebSocket<{ message: string; link: string }>(
      toWebSocket(b),
      'notifications.onNotification',
      undefined,
      owner.token,
    );
    const agentOnA = subscribeOverWebSocket<{ message: string; link: string }>(
      toWebSocket(a),
      'notifications.onNotification',
      undefined,
      agent.token,
    );
    try {
      await Promise.all([ownerOnB.started, agentOnA.started]);
      const ownerSeen = ownerOnB.events.length;
      const agentSeen = agentOnA.events.length;

      const created = await openTransaction(a.server.baseUrl, agent.token, {
        ...LISTING,
        streetAddress: '9 Broadcast Lane',
      });
      await until(
        () => ownerOnB.events.slice(ownerSeen).some((e) => e.message.includes('9 Broadcast Lane')),
        5_000,
      );

      const formId = created.forms[0]?._id ?? '';
      // A file to decide on: a decision on an item without one is 409.
      const form = new FormData();
      form.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'a.pdf');
      const uploaded = (await expectStatus(
        timedCall(a.server.baseUrl, 'POST', `/api/uploads/transactions/${created._id}`, {
          token: agent.token,
          form,
        }),
        201,
      )) as { url: string };
      await expectStatus(
        timedCall(a.server.baseUrl, 'PUT', `/api/transactions/${created._id}/forms/${formId}`, {
          token: agent.token,
          json: { url: uploaded.url },
        }),
        200,
      );
      await expectStatus(
        timedCall(
          b.server.baseUrl,
          'POST',
          `/api/admin/transactions/${created._id}/forms/${formId}/comments`,
          {
            token: owner.token,
            json: { status: 'rejected', text: 'Initials missing on page 2' },
          },
        ),
        201,
      );
      await until(() => agentOnA.events.length > agentSeen, 5_000);
      expect(agentOnA.events.slice(agentSeen).map((e) => e.link)).toEqual([
        expect.stringContaining(created._id),
      ]);
    } finally {
      ownerOnB.close();
      agentOnA.close();
    }
  });
});

describe('behind the load balancer (deploy/Caddyfile in Caddy)', () => {
  let caddy: RunningCaddy;
  let owner: SignedIn;
  let agent: SignedIn;
  const hostOf = (instance: Instance) => new URL(instance.server.baseUrl).host;
  /** How many of the marked requests an instance logged (LOG_LEVEL=debug logs every request). */
  const marked = (instance: Instance, mark: string) =>
    instance.server.output().split(`mark=${mark}`).length - 1;

  beforeAll(async () => {
    caddy = await startCaddy([hostOf(a), hostOf(b)]);
    owner = await signIn(caddy.baseUrl, OWNER.email, OWNER.password);
    agent = await signIn(caddy.baseUrl, 'multi1@agents.test', AGENT_PASSWORD);
  });
  afterAll(async () => {
    await caddy?.close();
  });

  it('spreads requests over both instances, with no stickiness', async () => {
    // One client, one connection, one request at a time: a sticky balancer would send all 40 to
    // one instance. least_conn draws between two idle instances at random, so each gets about
    // half; fewer than 8 of 40 happens by chance once in 20,000 runs.
    for (let i = 0; i < 40; i++) {
      await expectStatus(timedCall(caddy.baseUrl, 'GET', '/healthz?mark=spread'), 200);
    }
    // The log lines arrive through the processes' pipes a moment after the answers.
    await until(() => marked(a, 'spread') + marked(b, 'spread') === 40, 5_000);
    expect(Math.min(marked(a, 'spread'), marked(b, 'spread'))).toBeGreaterThanOrEqual(8);
  });

  it('keeps answering every request while each instance in turn restarts (a rolling deploy)', async () => {
    let keepGoing = true;
    const outcomes: Array<{ op: string; status: number; failure?: string; body?: unknown; at: string }> = [];
    const events: string[] = [];
    const retired: Instance[] = [];
    const began = Date.now();
    const now = () => `${((Date.now() - began) / 1000).toFixed(2)} s`;
    const created: string[] = [];
    // Three clients at once, writing and reading through the balancer as fast as answers come.
    const client = async (n: number) => {
      for (let i = 0; keepGoing; i++) {
        const write = i % 2 === 0;
        const answer = write
          ? await timedCall(caddy.baseUrl, 'POST', '/api/transactions', {
              token: agent.token,
              json: {
                streetAddress: `${n}-${i} Rolling Road`,
                city: 'Deploy',
                state: 'WA',
                zip: '98101',
                type: 'Listing',
                role: 'Seller',
              },
            })
          : await timedCall(caddy.baseUrl, 'GET', `/api/transactions/${agent.id}?page=1&limit=5`, {
              token: agent.token,
            });
        outcomes.push({
          op: write ? 'create' : 'list',
          status: answer.status,
          failure: answer.failure,
          // Only a failure's body is kept: it tells the proxy's answers from the portal's.
          body: answer.status >= 300 ? answer.body : undefined,
          at: now(),
        });
        if (write && answer.status === 201) created.push((answer.body as { _id: string })._id);
      }
    };
    const clients = [1, 2, 3].map(client);

    const restart = async (instance: Instance, name: string): Promise<Instance> => {
      const port = Number(new URL(instance.server.baseUrl).port);
      events.push(`${now()} SIGTERM ${name}`);
      expect(await stopBuiltServer(instance.server)).toBe(0);
      events.push(`${now()} exited ${name}`);
      running.splice(running.indexOf(instance), 1);
      retired.push(instance);
      const replacement = await startInstance(databaseUrl, name, { port });
      // A deploy moves on once the balancer sends traffic to the new process again.
      const mark = `back-${name}`;
      await until(
        async () => {
          await timedCall(caddy.baseUrl, 'GET', `/healthz?mark=${mark}`);
          return marked(replacement, mark) > 0;
        },
        30_000,
        100,
      );
      events.push(`${now()} ${name} back in rotation`);
      return replacement;
    };
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      a = await restart(a, 'a-redeployed');
      b = await restart(b, 'b-redeployed');
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      keepGoing = false;
      await Promise.all(clients);
    }

    const failed = outcomes.filter((outcome) => outcome.status !== 200 && outcome.status !== 201);
    process.stdout.write(
      `rolling deploy: ${outcomes.length} requests (${created.length} transactions created) through Caddy while both instances restarted in turn; ${failed.length} failed\n`,
    );
    // On a failure, what the instances and the balancer logged as errors says whose 503 it was.
    const errorLines = (text: string) =>
      text.split('\n').filter((line) => /"level":(50|60)|"level":"error"/.test(line));
    const logged = failed.length
      ? [...retired, a, b]
          .flatMap((instance) => errorLines(instance.server.output()))
          .concat(errorLines(caddy.output()))
      : [];
    expect({ failed, events: failed.length ? events : [], logged }).toEqual({
      failed: [],
      events: [],
      logged: [],
    });
    expect(outcomes.length).toBeGreaterThan(50);
    const stored = await runSql<{ count: string }>(
      databaseUrl,
      `SELECT count(*) FROM transactions WHERE id = ANY('{${created.join(',')}}'::uuid[])`,
    );
    expect(stored).toEqual([{ count: String(created.length) }]);
  });

  it('carries a live subscription through the WebSocket upgrade', async () => {
    const live = subscribeOverWebSocket<{ message: string }>(
      `${caddy.baseUrl.replace('http', 'ws')}/trpc`,
      'notifications.onNotification',
      undefined,
      owner.token,
    );
    try {
      await live.started;
      await openTransaction(caddy.baseUrl, agent.token, { ...LISTING, streetAddress: '4 Proxy Place' });
      await until(() => live.events.some((event) => event.message.includes('4 Proxy Place')), 5_000);
    } finally {
      live.close();
    }
  });
});
