import { createHash, timingSafeEqual } from 'node:crypto';
import type { AnyRouter } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { apiMessages } from '../../shared/messages';
import { AppError } from '../errors';
import { jobRegistry } from '../jobs/metrics';
import type { NotificationBus } from '../realtime/bus';
import { proceduresOf } from '../trpc/internals';

/**
 * Prometheus metrics at /metrics, only when METRICS_TOKEN is set, and only for
 * a scraper that sends it as a bearer token.
 *
 * Every label value comes from a bounded set the server defines, never from the request: the
 * route is Fastify's route template (/api/transactions/:id, not the id), a /trpc call is named
 * only when it names a procedure of the router, and the method is one of the usual seven. A
 * client sending random paths or procedure names therefore cannot grow the number of series.
 *
 * The per-request cost is one onResponse hook: a map lookup for /trpc, a counter increment and a
 * histogram observation. Everything else (pool, sockets, bus) is read when Prometheus scrapes.
 */

export const METRICS_PATH = '/metrics';
const PREFIX = 'portal_';

/**
 * Seconds. The edges include every latency goal of docs/PERFORMANCE.md (20 ms agent search,
 * 50 ms, 100 ms admin search, 250 ms sign-in burst, 1 s search timeout), so "share of requests
 * within the goal" is read straight off a bucket; the ends cover /healthz (about 1 ms) and
 * uploads and requests queued under load (seconds).
 */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route label of a request no route matched (404s, malformed paths, the client's fallback). */
export const UNMATCHED_ROUTE = 'unmatched';
/** /trpc labels for what names no single procedure: a batch "a,b", or an unknown name. */
export const TRPC_BATCH_ROUTE = '/trpc/(batch)';
export const TRPC_UNKNOWN_ROUTE = '/trpc/(unknown)';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/**
 * Node's own figures (CPU, memory, event-loop lag, GC) describe the process, not one app, and
 * collectDefaultMetrics cannot be undone: each call starts an event-loop delay monitor and a GC
 * PerformanceObserver that nothing ever stops. So they are collected once per process into a
 * registry of their own (never prom-client's global one), which every app's /metrics appends;
 * tests that build many apps start them once instead of once per app.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: PREFIX });
  }
  return processRegistry;
}

export type ServerErrorSource = 'http' | 'trpc';

/**
 * One app's metrics, made by buildApp before anything is registered, so that what answers outside
 * any route (the router's own refusals) and the places that log an unexpected failure (the error
 * handler, tRPC's onError) can count too.
 */
export type AppMetrics = {
  readonly registry: Registry;
  /**
   * Counts one answered request; `route` must come from a bounded set (see the plugin's hook).
   * Without `seconds` (an answer given before Fastify started its clock) only the counter counts.
   */
  request(method: string, route: string, status: number, seconds?: number): void;
  /** Counts a failure on the server's side, where server/app.ts logs one. */
  serverError(source: ServerErrorSource): void;
};

export function createAppMetrics(): AppMetrics {
  const registry = new Registry();
  const requests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time from receiving a request to the end of its answer, by method and route template.',
    labelNames: ['method', 'route'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const serverErrors = new Counter({
    name: `${PREFIX}server_errors_total`,
    help:
      'Failures on the server side (500, or 503 while the database is unavailable), as logged: ' +
      'source http is any route (REST included), trpc a procedure called over /trpc (HTTP or WebSocket).',
    labelNames: ['source'],
    registers: [registry],
  });
  // Both series exist from the start, so rate() and alerts see 0 rather than no data.
  serverErrors.inc({ source: 'http' }, 0);
  serverErrors.inc({ source: 'trpc' }, 0);
  return {
    registry,
    request(method, route, status, seconds) {
      const knownMethod = METHODS.has(method) ? method : 'other';
      requests.inc({ method: knownMethod, route, status });
      if (seconds !== undefined) duration.observe({ method: knownMethod, route }, seconds);
    },
    serverError: (source) => serverErrors.inc({ source }),
  };
}

export type MetricsPluginOptions = {
  metrics: AppMetrics;
  /** METRICS_TOKEN: what the scraper sends as `Authorization: Bearer <token>`. */
  token: string;
  /** The mounted router: /trpc calls are labelled only with its procedure names. */
  router: AnyRouter;
  /** The route tRPC's HTTP adapter serves, e.g. /trpc/:path. */
  trpcRoute: string;
  /** The pg pool under deps.db (server/db/client.ts poolOf); undefined reports no pool figures. */
  pool: pg.Pool | undefined;
  bus: NotificationBus;
};

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * True when the Authorization header carries the token. Both sides are hashed first, so the
 * comparison takes the same time whatever the length or content of what was sent.
 */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  if (typeof header !== 'string') return false;
  const match = /^bearer +(\S+) *$/i.exec(header);
  if (!match?.[1]) return false;
  return timingSafeEqual(sha256(match[1]), expected);
}

export const metricsPlugin = fp<MetricsPluginOptions>(
  async (app, { metrics, token, router, trpcRoute, pool, bus }) => {
    const { registry } = metrics;

    // Made once: the hook looks labels up instead of building strings per request.
    const procedureRoutes = new Map<string, string>(
      [...proceduresOf(router).keys()].map((path) => [path, `/trpc/${path}`]),
    );
    const trpcLabel = (path: unknown): string =>
      typeof path !== 'string'
        ? TRPC_UNKNOWN_ROUTE
        : (procedureRoutes.get(path) ?? (path.includes(',') ? TRPC_BATCH_ROUTE : TRPC_UNKNOWN_ROUTE));

    // A callback hook, not an async one: no promise per request.
    app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const template = req.routeOptions.url;
      const route =
        template === undefined
          ? UNMATCHED_ROUTE
          : template === trpcRoute
            ? trpcLabel((req.params as { path?: unknown } | undefined)?.path)
            : template;
      metrics.request(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

    openSocketGauges(app, registry);
    if (pool) {
      poolGauges(pool, registry);
      jobQueueGauges(pool, registry);
    }
    busGauges(bus, registry);

    const expected = sha256(token);
    app.get(
      METRICS_PATH,
      {
        schema: { hide: true },
        // Before the handler: without the token nothing is collected, let alone sent.
        onRequest: async (req, reply) => {
          if (bearerMatches(req.headers.authorization, expected)) return;
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          throw new AppError('UNAUTHORIZED', apiMessages.metricsTokenRequired);
        },
      },
      async (_req, reply) => {
        const [own, processWide, jobs] = await Promise.all([
          registry.metrics(),
          processMetrics().metrics(),
          jobRegistry.metrics(),
        ]);
        return reply
          .header('cache-control', 'no-store')
          .type(Registry.PROMETHEUS_CONTENT_TYPE)
          .send(`${own}\n${processWide}\n${jobs}`);
      },
    );

    app.addHook('onClose', async () => {
      registry.clear();
    });
  },
  { name: 'portal-metrics' },
);

/** Sockets open now: WebSockets (/trpc subscriptions) and every TCP connection to the server. */
function openSocketGauges(app: FastifyInstance, registry: Registry) {
  new Gauge({
    name: `${PREFIX}websocket_connections`,
    help: 'Open WebSocket connections (tRPC subscriptions at /trpc).',
    registers: [registry],
    collect() {
      this.set(app.websocketServer?.clients.size ?? 0);
    },
  });
  new Gauge({
    name: `${PREFIX}http_connections`,
    help: 'Open TCP connections to the HTTP server (WebSockets included).',
    registers: [registry],
    async collect() {
      const count = await new Promise<number>((resolve) =>
        app.server.getConnections((error, n) => resolve(error ? 0 : n)),
      );
      this.set(count);
    },
  });
}

/** The pool Prisma and the hot paths share (server/db/client.ts), read at scrape time. */
function poolGauges(pool: pg.Pool, registry: Registry) {
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name: `${PREFIX}db_pool_${name}`,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('connections', 'Connections open in the pool (idle or in use).', () => pool.totalCount);
  gauge('idle_connections', 'Connections open and idle in the pool.', () => pool.idleCount);
  gauge(
    'waiting_requests',
    'Queries waiting for a connection because every one is in use.',
    () => pool.waitingCount,
  );
  gauge('max_connections', 'Largest number of connections the pool opens.', () => pool.options.max ?? 10);
}

/**
 * The job queue at rest, shared by every instance: jobs due and waiting (the depth),
 * scheduled for later (retries among them), running, and given up. One query per scrape.
 */
function jobQueueGauges(pool: pg.Pool, registry: Registry) {
  const gauge = new Gauge({
    name: `${PREFIX}jobs_queued`,
    help: 'Jobs in the queue by state: ready (due, waiting for a worker), scheduled, running, failed (gave up).',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      try {
        const { rows } = await pool.query<{
          ready: number;
          scheduled: number;
          running: number;
          failed: number;
        }>(
          `SELECT count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts AND run_at <= now())::int AS ready,
                  count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts AND run_at > now())::int AS scheduled,
                  count(*) FILTER (WHERE locked_at IS NOT NULL)::int AS running,
                  count(*) FILTER (WHERE attempts >= max_attempts)::int AS failed
             FROM graphile_worker._private_jobs`,
        );
        const row = rows[0];
        for (const state of ['ready', 'scheduled', 'running', 'failed'] as const)
          this.set({ state }, row?.[state] ?? 0);
      } catch {
        // The queue's schema is missing only on a database this build never migrated: no figures.
      }
    },
  });
  return gauge;
}

/** The LISTEN/NOTIFY bus: whether events from other instances can arrive, and who listens. */
function busGauges(bus: NotificationBus, registry: Registry) {
  const stats = bus.stats?.bind(bus);
  if (!stats) return;
  new Gauge({
    name: `${PREFIX}notification_bus_up`,
    help: '1 while the LISTEN connection of the notification bus is up, else 0.',
    registers: [registry],
    collect() {
      this.set(stats().listening ? 1 : 0);
    },
  });
  new Gauge({
    name: `${PREFIX}notification_subscriptions`,
    help: 'Live notification subscriptions on this instance.',
    registers: [registry],
    collect() {
      this.set(stats().subscriptions);
    },
  });
}
