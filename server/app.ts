import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import type { AnyRouter, TRPCError } from '@trpc/server';
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { poolOf } from './db/client';
import type { AppDeps } from './deps';
import { classifyError, classifyHttpParserError, describeErrorForLog, errorBody } from './errors';
import { loggerOptions, RequestLines, requestIdFrom } from './logger';
import { CLIENT_DIST_DIR } from './paths';
import { archiveRoutes } from './plugins/archives';
import {
  clientIsBuilt,
  clientPlugin,
  INDEX_HTML,
  isClientRoute,
  isServerPath,
  pageFileOf,
  sendIndex,
} from './plugins/client';
import { compressionPlugin } from './plugins/compression';
import { corsPlugin } from './plugins/cors';
import { exportRoutes } from './plugins/exports';
import { fileRoutes } from './plugins/files';
import { healthRoutes } from './plugins/health';
import { mailLinkRoutes } from './plugins/mail-links';
import { createAppMetrics, metricsPlugin, UNMATCHED_ROUTE } from './plugins/metrics';
import { oidcRoutes } from './plugins/oidc';
import { securityHeaders } from './plugins/security-headers';
import { signingRoutes } from './plugins/signing';
import { trpcCalls } from './plugins/trpc-calls';
import { uploadRoutes } from './plugins/uploads';
import { restPlugin } from './rest/adapter';
import { bearerToken, type Context, contextOfRequest, createContext } from './trpc/context';
import { appRouter } from './trpc/router';
import { HeapCompaction } from './websocket/heap-compaction';
import { LiveSocketServer } from './websocket/live-sockets';

export const JSON_BODY_LIMIT = 1024 * 1024;

/**
 * /trpc is the portal's own client: its answers link to this server's files by path, so the
 * browser stays on the address it uses (a wrong APP_URL broke "View"). REST keeps APP_URL links.
 */
const TRPC_LINKS = { fileLinks: 'same-origin' } as const;

declare module 'fastify' {
  // biome-ignore lint/style/useConsistentTypeDefinitions: declaration merging needs an interface
  interface FastifyInstance {
    /** The open WebSockets at /trpc and their subscriptions (server/websocket/live-sockets.ts). */
    liveSockets: LiveSocketServer;
  }
}

const VERSION = process.env.npm_package_version ?? '0.1.0';

export type BuildAppOptions = {
  /** A pino instance to log to (tests capture logs with one); default: pino on stdout. */
  loggerInstance?: FastifyBaseLogger;
  /** The built client to serve; null serves none. Default: dist/client when it exists. */
  clientDir?: string | null;
  /**
   * true leaves every tRPC call over HTTP to tRPC's adapter and runner, instead of answering the
   * plain queries and mutations through callProcedure (server/plugins/trpc-calls.ts). Default
   * false; the test comparing both sets it.
   */
  trpcAdapterOnly?: boolean;
  /** The router to mount, its procedures' REST paths with it. Default: the application's. Plumbing tests pass their own. */
  api?: {
    router: AnyRouter;
  };
};

/**
 * Builds the HTTP application from its dependencies; never listens (server/main.ts does), so
 * tests drive it with app.inject() or listen on a port of their choosing.
 */
/**
 * Where browsers fetch stored files besides this origin: with STORAGE_DRIVER=s3 the links are
 * presigned against the bucket's public endpoint, and the review queue previews them inline
 * (fetch for PDFs, <img> for images). The bucket's own host is added too when links name it as a
 * subdomain (virtual-hosted style); without an endpoint the links go to AWS.
 */
export function storageSources(storage: AppDeps['config']['storage']): string[] {
  if (storage.driver !== 's3') return [];
  const endpoint = storage.publicEndpoint ?? storage.endpoint;
  if (!endpoint) return ['https://*.amazonaws.com'];
  const url = new URL(endpoint);
  const sources = [url.origin];
  if (!storage.forcePathStyle && storage.bucket)
    sources.push(`${url.protocol}//${storage.bucket}.${url.host}`);
  return sources;
}

export function buildApp(deps: AppDeps, options: BuildAppOptions = {}): FastifyInstance {
  const { config } = deps;
  const api = options.api ?? { router: appRouter };
  const clientDir = options.clientDir === undefined ? CLIENT_DIST_DIR : options.clientDir;
  const serveClient = clientDir !== null && clientIsBuilt(clientDir);
  const pageFile = serveClient && clientDir ? pageFileOf(clientDir) : () => INDEX_HTML;
  const https = config.appUrl.startsWith('https://');
  const fileSources = storageSources(config.storage);
  // Without METRICS_TOKEN nothing is measured and /metrics does not exist.
  const metrics = config.metricsToken ? createAppMetrics() : undefined;

  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: loggerOptions(config.logLevel) }),
    genReqId: (req) => requestIdFrom(req.headers['x-request-id'], randomUUID),
    logController: new RequestLines({ requestIdLogLabel: 'requestId' }),
    bodyLimit: JSON_BODY_LIMIT,
    // req.ip keys the rate limits and the logs: behind a load balancer it must come from
    // X-Forwarded-For, but only when the peer is a proxy we trust (TRUST_PROXY), or anyone could forge it.
    trustProxy: config.trustProxy,
    // tRPC batch calls put every procedure name in one path segment.
    routerOptions: { maxParamLength: 5000 },
    // The router refuses a malformed %-escape or an over-long parameter before any hook or error
    // handler runs; without this its answer would not have the documented error body.
    frameworkErrors: (error, req, reply) => {
      const { status, body } = classifyError(error);
      // No hook sees these answers (nor a route, nor a start time): counted here, without a duration.
      metrics?.request(req.method, UNMATCHED_ROUTE, status);
      // The generic reply type of this hook knows no status codes; ours is a plain reply.
      return (reply as unknown as FastifyReply).code(status).send(body);
    },
    // Requests Node's HTTP parser refuses (headers over 16 KiB, a timeout, bytes that are not
    // HTTP) never reach a hook: answered here with the documented error body, then closed.
    clientErrorHandler: (error, socket) => {
      const refused = socket.destroyed ? undefined : classifyHttpParserError(error);
      if (refused && socket.writable) {
        const body = JSON.stringify(refused.body);
        socket.write(
          `HTTP/1.1 ${refused.status} ${STATUS_CODES[refused.status]}\r\n` +
            `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
            `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    },
  }) as unknown as FastifyInstance;

  // Node's server.close() drops idle keep-alive connections only when it is called; a connection
  // busy at that moment would otherwise sit idle afterwards and hold the shutdown for the whole
  // keep-alive timeout. Answers given while closing end their connection.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback hooks, as on every request these two cost more as promises than what they do.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    // API answers are per-user data: never stored by a browser or a shared cache.
    if (isServerPath(req.url)) reply.header('cache-control', 'no-store');
    done();
  });

  app.setErrorHandler((error, req, reply) => {
    const { status, body, internal, headers } = classifyError(error);
    if (internal) {
      metrics?.serverError('http');
      req.log.error({ error: describeErrorForLog(error) }, 'request failed');
    }
    // After the per-address limit's own X-RateLimit-* headers: the limit that refused wins.
    if (headers) reply.headers(headers);
    return reply.code(status).send(body);
  });

  app.setNotFoundHandler((req, reply) => {
    if (serveClient && isClientRoute(req)) return sendIndex(reply, pageFile(req.url));
    return reply.code(404).send(errorBody('NOT_FOUND'));
  });

  app.register(securityHeaders, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // Nothing uses <base>; 'none' stops injected markup from re-rooting relative URLs.
        baseUri: ["'none'"],
        scriptSrc: ["'self'"],
        // Mantine writes its CSS variables into <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...fileSources],
        fontSrc: ["'self'", 'data:'],
        // 'self' covers the same-origin WebSocket (/trpc) in CSP Level 3 browsers.
        // Stored files on S3 are fetched from its origin for the inline previews.
        connectSrc: ["'self'", ...fileSources],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS over plain http would be meaningless at best; only send it when we are served over https.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });

  // Before every route: it gives each route registered after it its onSend hook.
  app.register(compressionPlugin);
  // Before the rate limit: a preflight is answered without counting as a call.
  if (config.corsOrigins.length > 0) app.register(corsPlugin, { origins: config.corsOrigins });

  if (config.rateLimitPerMin > 0) {
    app.register(rateLimit, {
      global: true,
      max: config.rateLimitPerMin,
      timeWindow: '1 minute',
      // The limit protects the API; health probes and the client's static files are not API calls.
      allowList: (req) => !isServerPath(req.url),
    });
  }

  // @fastify/websocket must be registered before the tRPC plugin that uses it.
  app.register(websocket, { options: { maxPayload: JSON_BODY_LIMIT } });
  // Before every plugin with routes: its onResponse hook must reach all of them.
  if (metrics && config.metricsToken) {
    app.register(metricsPlugin, {
      metrics,
      token: config.metricsToken,
      router: api.router,
      trpcRoute: '/trpc/:path',
      pool: poolOf(deps.db),
      bus: deps.bus,
    });
  }
  app.register(healthRoutes, { deps });

  const reportProcedureError = (error: TRPCError, path: string | undefined, log: FastifyBaseLogger) => {
    // A malformed frame (unmasked, reserved opcode, bad UTF-8) is the client's doing: ws closes
    // that socket, and it is neither a server failure nor worth an error line.
    const socketErrorCode = (error.cause as { code?: unknown } | undefined)?.code;
    if (typeof socketErrorCode === 'string' && socketErrorCode.startsWith('WS_ERR_')) {
      log.warn({ error: describeErrorForLog(error.cause) }, 'invalid WebSocket frame; socket closed');
      return;
    }
    if (classifyError(error).internal) {
      metrics?.serverError('trpc');
      log.error({ error: describeErrorForLog(error), path }, 'procedure failed');
    }
  };
  const onProcedureError = ({ error, path, req }: { error: TRPCError; path?: string; req: FastifyRequest }) =>
    reportProcedureError(error, path, req.log);
  // Before the adapter, so that plain queries and mutations are called like every other
  // transport's, without its Fetch conversion.
  if (options.trpcAdapterOnly !== true) {
    app.register(trpcCalls, {
      router: api.router,
      routeUrl: '/trpc/:path',
      createContext: (req) => contextOfRequest(deps, req, TRPC_LINKS),
      onError: onProcedureError,
    });
  }
  app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    // The WebSocket at /trpc is served by server/websocket/live-sockets.ts (below), not tRPC's adapter.
    useWSS: false,
    trpcOptions: {
      router: api.router,
      createContext: ({ req }): Promise<Context> => contextOfRequest(deps, req, TRPC_LINKS),
      onError: onProcedureError,
    } satisfies FastifyTRPCPluginOptions<AnyRouter>['trpcOptions'],
  });
  const liveSockets = new LiveSocketServer({
    router: api.router,
    // The token comes in connectionParams (browsers cannot set headers on a WebSocket). The app's
    // logger, not a child per socket: thousands of sockets stay open, and what a socket's calls
    // log names its user anyway. The address is the socket's own, as tRPC's adapter had it.
    createContext: (facts) =>
      createContext(deps, {
        token: bearerToken(facts.authorization) ?? facts.connectionParams?.token ?? undefined,
        requestId: requestIdFrom(facts.requestIdHeader, randomUUID),
        ip: facts.ip,
        log: app.log,
        socket: facts.socket,
        ...TRPC_LINKS,
      }),
    onError: ({ error, path }) => reportProcedureError(error, path, app.log),
    keepAlive: { pingMs: 30_000, pongWaitMs: 5_000 },
    heapCompaction: new HeapCompaction(),
  });
  app.decorate('liveSockets', liveSockets);
  // In a plugin of its own, so that @fastify/websocket (registered above) has loaded and sees it.
  app.register(async (sockets) => {
    sockets.get('/trpc', { websocket: true }, (socket, req) => liveSockets.accept(socket, req.raw));
  });
  app.addHook('onClose', async () => liveSockets.close());

  app.register(restPlugin, {
    deps,
    router: api.router,
    version: VERSION,
    // Inside the REST plugin, so the OpenAPI document lists them too.
    extensions: options.api
      ? []
      : [uploadRoutes, mailLinkRoutes, exportRoutes, signingRoutes, oidcRoutes, archiveRoutes],
  });
  app.register(fileRoutes, { deps });

  if (serveClient && clientDir) app.register(clientPlugin, { dir: clientDir });

  return app;
}
