import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiMessages } from '../../shared/messages';
import { apiError } from '../../shared/schemas/common';
import { poolOf } from '../db/client';
import { AppError } from '../errors';
import { loggerOptions } from '../logger';
import { enqueueJobs, JOB_KINDS } from '../queue/enqueue';
import { createNotificationBus } from '../realtime/bus';
import { bearer, subscribeOverWebSocket, trpcRequest } from '../test/api-calls';
import { accessTokenFor, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, testConfig, testDeps } from '../test/harness';
import { captureLogs } from '../test/log-capture';
import { until } from '../test/until';
import { publicProcedure, router } from '../trpc/init';
import { proceduresOf } from '../trpc/internals';
import { appRouter } from '../trpc/router';
import { DURATION_BUCKETS, TRPC_BATCH_ROUTE, TRPC_UNKNOWN_ROUTE, UNMATCHED_ROUTE } from './metrics';

/**
 * /metrics on the real app and a real database: off without METRICS_TOKEN,
 * refused without the token, and counting exactly the requests made, under bounded labels.
 */

const database = setupTestDatabase();
const TOKEN = randomBytes(24).toString('hex');
// The production log settings (redaction included), at their most talkative.
const captured = captureLogs(loggerOptions('trace'));
let app: FastifyInstance;
let bus: ReturnType<typeof createNotificationBus>;
let baseUrl: string;
let agent: { id: string; token: string };
const registeredRoutes = new Set<string>();

beforeAll(async () => {
  bus = createNotificationBus(database.url, pino({ level: 'silent' }), { minDelayMs: 50, maxDelayMs: 500 });
  app = buildTestApp(testDeps(database.db, { bus, config: testConfig({ metricsToken: TOKEN }) }), {
    loggerInstance: captured.logger,
  });
  app.addHook('onRoute', (route) => void registeredRoutes.add(route.url));
  // A route that fails the way a bug does: the error handler answers 500 and logs it.
  app.get('/api/test/crash/:id', async () => {
    throw new Error('an unexpected failure');
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  await bus.ready;
  const user = await createUser(database.db);
  agent = { id: user.id, token: await accessTokenFor(user) };
});
afterAll(async () => {
  await app?.close();
  await bus?.close();
});

// --- Reading the exposition format ---

type Sample = { name: string; labels: Record<string, string>; value: number };

function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] ?? ''] = (pair[2] ?? '').replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(target = app): Promise<{ text: string; samples: Sample[] }> {
  const res = await target.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
  expect(res.statusCode).toBe(200);
  return { text: res.body, samples: parse(res.body) };
}

const matches = (sample: Sample, name: string, labels: Record<string, string>) =>
  sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value);

function sampleValue(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  return samples.find((sample) => matches(sample, name, labels))?.value;
}

const seriesKey = (sample: Sample) => `${sample.name}${JSON.stringify(sample.labels)}`;

/** Series of the request metrics whose value changed between two scrapes (the scrapes excluded). */
function changed(before: Sample[], after: Sample[], name: string): Record<string, number> {
  const previous = new Map(before.map((sample) => [seriesKey(sample), sample.value]));
  const delta: Record<string, number> = {};
  for (const sample of after) {
    if (sample.name !== name || sample.labels.route === '/metrics') continue;
    const difference = sample.value - (previous.get(seriesKey(sample)) ?? 0);
    if (difference !== 0) {
      const { method, route, status } = sample.labels;
      delta[[method, route, status].filter(Boolean).join(' ')] = difference;
    }
  }
  return delta;
}

const requestSeries = (samples: Sample[]) =>
  samples.filter((s) => s.name.startsWith('portal_http_request')).map(seriesKey);

// --- The tests ---

describe('off without METRICS_TOKEN', () => {
  let clientDir: string;
  let offApp: FastifyInstance;
  beforeAll(async () => {
    // With a built client too: an unknown GET would be the client's page, /metrics must not be.
    clientDir = await mkdtemp(path.join(tmpdir(), 'portal-metrics-client-'));
    await mkdir(path.join(clientDir, 'assets'));
    await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><div id="root"></div>');
    offApp = buildTestApp(testDeps(database.db), { clientDir });
  });
  afterAll(async () => {
    await offApp.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  test('/metrics is a JSON 404 whatever is sent, also beside a built client', async () => {
    for (const headers of [{}, bearer(TOKEN)]) {
      const res = await offApp.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(apiError.strict().parse(res.json())).toEqual({
        message: apiMessages.notFound,
        code: 'NOT_FOUND',
        error: 'not-found',
      });
    }
    // The client's fallback still answers its own routes (the exception is /metrics alone).
    const page = await offApp.inject({ method: 'GET', url: '/home' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
  });
});

describe('the token', () => {
  test('without it, or with anything else, the answer is 401 in the usual error shape', async () => {
    const wrong: Array<Record<string, string>> = [
      {},
      { authorization: '' },
      { authorization: 'Bearer' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Bearer ${TOKEN.toUpperCase()}` },
      { authorization: `Basic ${Buffer.from(`prometheus:${TOKEN}`).toString('base64')}` },
      { authorization: `Token ${TOKEN}` },
      { authorization: `Bearer ${TOKEN} ${TOKEN}` },
      { authorization: `Bearer ${'x'.repeat(100_000)}` },
      { authorization: `Bearer ${randomBytes(24).toString('hex')}` },
      // A signed-in user's session is not the scraper's token.
      bearer(agent.token),
    ];
    for (const headers of wrong) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers });
      expect({ header: headers.authorization?.slice(0, 80), status: res.statusCode }).toEqual({
        header: headers.authorization?.slice(0, 80),
        status: 401,
      });
      expect(apiError.strict().parse(res.json())).toEqual({
        message: apiMessages.metricsTokenRequired,
        code: 'UNAUTHORIZED',
        error: 'unauthenticated',
      });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.body).not.toContain('portal_');
    }
    // Sent in the query string instead of the header: refused (and, below, never logged).
    const inQuery = await app.inject({ method: 'GET', url: `/metrics?token=${TOKEN}` });
    expect(inQuery.statusCode).toBe(401);
  });

  test('with it: 200, the Prometheus text format, never cached; the scheme is case-insensitive', async () => {
    for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`]) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain('# TYPE portal_http_requests_total counter');
      expect(res.body).toContain('# TYPE portal_http_request_duration_seconds histogram');
      // Node's own figures, under the same prefix.
      const samples = parse(res.body);
      // CPU time moves in scheduler ticks: a scrape right after the collector started may read 0.
      expect(sampleValue(samples, 'portal_process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
      expect(sampleValue(samples, 'portal_nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      // Each metric is described once, though two registries make up the answer.
      const types = res.body.split('\n').filter((line) => line.startsWith('# TYPE '));
      expect(new Set(types).size).toBe(types.length);
    }
  });

  test('the route is not in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: object };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
  });
});

describe('request metrics', () => {
  test('count exactly the requests made, by method, route template and status', async () => {
    const { samples: before } = await scrape();
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const calls: InjectOptions[] = [
      { method: 'GET', url: `/api/transactions/${agent.id}?page=1&limit=10`, headers: bearer(agent.token) },
      trpcRequest(
        'transactions.list',
        'query',
        { userId: agent.id, page: 1, limit: 10 },
        bearer(agent.token),
      ),
      trpcRequest('transactions.get', 'query', { id: transaction.id, userId: agent.id }, bearer(agent.token)),
      trpcRequest('auth.logout', 'mutation', { refreshToken: 'A'.repeat(43) }),
      { method: 'GET', url: `/api/transactions/${agent.id}` }, // anonymous: 401
      { method: 'GET', url: '/api/no-such-route' },
      { method: 'GET', url: '/api/users/deactivated/%zz' }, // refused by the router itself
      { method: 'GET', url: `/api/test/crash/${randomUUID()}` },
    ];
    const statuses = [];
    for (const call of calls) statuses.push((await app.inject(call)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 401, 404, 400, 500]);

    const { samples: after } = await scrape();
    expect(changed(before, after, 'portal_http_requests_total')).toEqual({
      'GET /api/transactions/:userId 200': 1,
      'GET /trpc/transactions.list 200': 1,
      'GET /trpc/transactions.get 200': 1,
      'POST /trpc/auth.logout 200': 1,
      'GET /api/transactions/:userId 401': 1,
      [`GET ${UNMATCHED_ROUTE} 404`]: 1,
      [`GET ${UNMATCHED_ROUTE} 400`]: 1,
      'GET /api/test/crash/:id 500': 1,
    });
    // The histogram saw the same requests (by method and route), but the router's refusal: Fastify
    // answers that one before starting the request's clock.
    expect(changed(before, after, 'portal_http_request_duration_seconds_count')).toEqual({
      'GET /api/transactions/:userId': 2,
      'GET /trpc/transactions.list': 1,
      'GET /trpc/transactions.get': 1,
      'POST /trpc/auth.logout': 1,
      [`GET ${UNMATCHED_ROUTE}`]: 1,
      'GET /api/test/crash/:id': 1,
    });
    const route = { method: 'GET', route: '/api/transactions/:userId' };
    const buckets = after.filter((s) => matches(s, 'portal_http_request_duration_seconds_bucket', route));
    expect(buckets.map((s) => s.labels.le)).toEqual([...DURATION_BUCKETS.map(String), '+Inf']);
    const counts = buckets.map((s) => s.value);
    expect(counts).toEqual([...counts].sort((a, b) => a - b)); // cumulative
    expect(counts.at(-1)).toBe(sampleValue(after, 'portal_http_request_duration_seconds_count', route));
    const sum = sampleValue(after, 'portal_http_request_duration_seconds_sum', route) ?? 0;
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(10);

    // The 500 is also an unexpected error, counted where it is logged; the 4xx are not.
    expect(
      (sampleValue(after, 'portal_server_errors_total', { source: 'http' }) ?? 0) -
        (sampleValue(before, 'portal_server_errors_total', { source: 'http' }) ?? 0),
    ).toBe(1);
    expect(sampleValue(after, 'portal_server_errors_total', { source: 'trpc' })).toBe(0);
  });

  test('the route label is the template: two transactions, one series, no id in sight', async () => {
    const { samples: before } = await scrape();
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const { id } = await createTransaction(database.db, { userId: agent.id });
      ids.push(id);
      const res = await app.inject({
        method: 'GET',
        url: `/api/transactions/individual/${id}/${agent.id}`,
        headers: bearer(agent.token),
      });
      expect(res.statusCode).toBe(200);
    }
    const { text, samples: after } = await scrape();
    expect(changed(before, after, 'portal_http_requests_total')).toEqual({
      'GET /api/transactions/individual/:id/:userId 200': 2,
    });
    for (const id of [...ids, agent.id]) expect(text).not.toContain(id);
  });

  test('random paths and made-up procedure names add no series, however many arrive', async () => {
    const flood = async () => {
      for (let i = 0; i < 100; i++) {
        const name = randomBytes(6).toString('hex');
        const answers = await Promise.all([
          app.inject({ method: 'GET', url: `/api/${name}/${i}` }),
          app.inject({ method: 'GET', url: `/${name}.php?x=${name}` }),
          app.inject({ method: 'POST', url: `/files/${name}`, payload: {} }),
          app.inject(trpcRequest(`${name}.list`, 'query', {})),
          app.inject(trpcRequest(`transactions.${name}`, 'mutation', {})),
          app.inject({ method: 'GET', url: `/trpc/transactions.list,${name}?batch=1&input={}` }),
          app.inject({ method: 'GET', url: `/trpc/${encodeURIComponent(`"{${name}}\n`)}` }),
          app.inject({ method: 'GET', url: `/api/transactions/individual/${name}/${i}` }),
          app.inject({ method: 'GET', url: `/api/%${name.slice(0, 1)}z` }), // a malformed escape
        ]);
        for (const answer of answers) expect(answer.statusCode).toBeLessThan(500);
      }
    };
    await flood();
    const first = await scrape();
    await flood();
    const second = await scrape();
    // A second flood of new names leaves the set of series exactly as the first one left it.
    expect(requestSeries(second.samples).sort()).toEqual(requestSeries(first.samples).sort());
    const routes = new Set(second.samples.flatMap((s) => (s.labels.route ? [s.labels.route] : [])));
    expect(routes).toContain(TRPC_UNKNOWN_ROUTE);
    expect(routes).toContain(TRPC_BATCH_ROUTE);
    expect(routes).toContain(UNMATCHED_ROUTE);
    // Every route label is a registered template, a procedure of the router or a fixed label.
    const known = new Set([
      ...registeredRoutes,
      ...[...proceduresOf(appRouter).keys()].map((procedure) => `/trpc/${procedure}`),
      UNMATCHED_ROUTE,
      TRPC_UNKNOWN_ROUTE,
      TRPC_BATCH_ROUTE,
    ]);
    expect([...routes].filter((route) => !known.has(route))).toEqual([]);
  });
});

describe('sockets, pool and bus', () => {
  test('the WebSocket gauge and the subscription count go up with a subscriber and back down when it leaves', async () => {
    const gauges = async () => {
      const { samples } = await scrape();
      return {
        sockets: sampleValue(samples, 'portal_websocket_connections'),
        subscriptions: sampleValue(samples, 'portal_notification_subscriptions'),
      };
    };
    expect(await gauges()).toEqual({ sockets: 0, subscriptions: 0 });
    const subscription = subscribeOverWebSocket(
      `ws://${baseUrl}/trpc`,
      'notifications.onNotification',
      {},
      agent.token,
    );
    await subscription.started;
    await until(async () => (await gauges()).subscriptions === 1, 5_000);
    expect(await gauges()).toEqual({ sockets: 1, subscriptions: 1 });
    const { samples } = await scrape();
    expect(sampleValue(samples, 'portal_http_connections')).toBeGreaterThanOrEqual(1);

    subscription.close();
    await until(async () => {
      const now = await gauges();
      return now.sockets === 0 && now.subscriptions === 0;
    }, 5_000);
  });

  test('the pool gauges are the live figures of the pool Prisma uses', async () => {
    const pool = poolOf(database.db);
    if (!pool) throw new Error('the test database has no pg pool');
    const max = pool.options.max ?? 0;
    expect(max).toBe(5); // server/test/harness.ts
    const pool0 = (samples: Sample[]) => ({
      total: sampleValue(samples, 'portal_db_pool_connections'),
      idle: sampleValue(samples, 'portal_db_pool_idle_connections'),
      waiting: sampleValue(samples, 'portal_db_pool_waiting_requests'),
      max: sampleValue(samples, 'portal_db_pool_max_connections'),
    });
    const quiet = pool0((await scrape()).samples);
    expect(quiet.max).toBe(5);
    expect(quiet.waiting).toBe(0);
    expect(quiet.idle).toBeLessThanOrEqual(quiet.total ?? -1);
    expect(quiet.total).toBeLessThanOrEqual(5);

    // Two more queries than connections: every connection busy, two queries queued.
    // (Promise.all starts them: a Prisma query runs only once something awaits it.)
    const busy = Promise.all(
      Array.from({ length: max + 2 }, () => database.db.$queryRawUnsafe('SELECT pg_sleep(0.5)::text')),
    );
    await until(() => pool.waitingCount === 2, 5_000, 5);
    expect(pool0((await scrape()).samples)).toEqual({ total: 5, idle: 0, waiting: 2, max: 5 });
    await busy;
    const after = pool0((await scrape()).samples);
    expect(after).toMatchObject({ total: 5, idle: 5, waiting: 0 });
  });

  test('the bus gauge says whether the LISTEN connection is up', async () => {
    const { samples } = await scrape();
    expect(sampleValue(samples, 'portal_notification_bus_up')).toBe(1);
    await bus.close();
    expect(sampleValue((await scrape()).samples, 'portal_notification_bus_up')).toBe(0);
  });
});

describe('procedures over /trpc', () => {
  const crashRouter = router({
    ok: publicProcedure.query(() => 'fine'),
    crash: publicProcedure.query(() => {
      throw new Error('an unexpected failure');
    }),
    refused: publicProcedure.query(() => {
      throw new AppError('NOT_FOUND', 'Transaction not found');
    }),
  });
  let trpcApp: FastifyInstance;
  beforeAll(() => {
    trpcApp = buildTestApp(testDeps(database.db, { config: testConfig({ metricsToken: TOKEN }) }), {
      api: { router: crashRouter },
    });
  });
  afterAll(() => trpcApp.close());

  test("a procedure's unexpected failure is counted; labels name the mounted router's procedures only", async () => {
    const { samples: before } = await scrape(trpcApp);
    const statuses = [];
    for (const path of ['ok', 'crash', 'refused', 'transactions.list']) {
      statuses.push((await trpcApp.inject(trpcRequest(path, 'query', undefined))).statusCode);
    }
    expect(statuses).toEqual([200, 500, 404, 404]);
    const { samples: after } = await scrape(trpcApp);
    expect(changed(before, after, 'portal_http_requests_total')).toEqual({
      'GET /trpc/ok 200': 1,
      'GET /trpc/crash 500': 1,
      'GET /trpc/refused 404': 1,
      [`GET ${TRPC_UNKNOWN_ROUTE} 404`]: 1,
    });
    expect(sampleValue(after, 'portal_server_errors_total', { source: 'trpc' })).toBe(1);
    expect(sampleValue(after, 'portal_server_errors_total', { source: 'http' })).toBe(0);
    // Two apps in one process keep their own counts.
    expect(
      sampleValue((await scrape()).samples, 'portal_http_requests_total', { route: '/trpc/crash' }),
    ).toBe(undefined);
  });
});

// Last: everything above has been logged by now.
describe('logs', () => {
  test('the token never appears in what the server logged, even when sent in the URL', () => {
    const log = captured.lines.join('');
    expect(captured.lines.length).toBeGreaterThan(50);
    expect(log).toContain('/metrics');
    expect(log).toContain('an unexpected failure'); // the 500 was logged, so logging was on
    expect(captured.lines.filter((line) => line.includes(TOKEN))).toEqual([]);
  });
});

describe('the job queue', () => {
  test('queue depth by state is read from the queue at each scrape; runs, latency and duration are counted', async () => {
    const queued = (samples: Sample[], state: string) =>
      sampleValue(samples, 'portal_jobs_queued', { state });
    const before = (await scrape()).samples;
    const ready = queued(before, 'ready') ?? -1;
    const scheduled = queued(before, 'scheduled') ?? -1;
    // No engine runs in this file: what is added stays where it is put.
    await database.db.$transaction((tx) =>
      enqueueJobs(tx, [
        { kind: JOB_KINDS.pruneOutbox, payload: {} },
        { kind: JOB_KINDS.pruneOutbox, payload: {} },
        { kind: JOB_KINDS.pruneOutbox, payload: {}, runAt: new Date(Date.now() + 3_600_000) },
      ]),
    );
    const after = (await scrape()).samples;
    expect(queued(after, 'ready')).toBe(ready + 2);
    expect(queued(after, 'scheduled')).toBe(scheduled + 1);
    expect(queued(after, 'failed')).toBe(0);
    const text = (await scrape()).text;
    for (const name of [
      'portal_jobs_runs_total',
      'portal_jobs_latency_seconds',
      'portal_jobs_duration_seconds',
    ])
      expect(text).toContain(`# TYPE ${name}`);
    await database.db.$executeRaw`DELETE FROM graphile_worker._private_jobs`;
  });
});
