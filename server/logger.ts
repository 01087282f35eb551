import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { LoggerOptions } from 'pino';
import { describeErrorForLog } from './errors';

/**
 * Log settings: a request id on every line, and no secrets. Tokens also travel in URLs (signed
 * download links, the e-mailed verify/reset links opened as client routes), so URLs are cleaned
 * too, not only headers and bodies.
 */

const SECRET_QUERY_KEYS =
  /^(sig|signature|token|access_token|refresh_token|code|x-amz-signature|x-amz-credential)$/i;
// The signing page's link and its calls, and the one-click unsubscribe link and page, carry their
// token in the path (the signing certificate's address holds none).
const SECRET_PATH =
  /^(\/(?:auth\/(?:verify-email|new-password)|sign|api\/sign|unsubscribe|api\/unsubscribe)\/)(?!certificate(?:[/?#]|$))[^/?#]+/;

export function redactUrl(url: string): string {
  const [pathPart = '', query] = url.split('?', 2);
  const path = pathPart.replace(SECRET_PATH, '$1[redacted]');
  if (query === undefined) return path;
  const params = new URLSearchParams(query);
  for (const key of [...params.keys()]) if (SECRET_QUERY_KEYS.test(key)) params.set(key, '[redacted]');
  return `${path}?${params.toString()}`;
}

const SECRET_FIELDS = [
  'password',
  'confirmPassword',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'token',
  'refreshToken',
  'accessToken',
  'authorization',
  'cookie',
  'jwtSecret',
  'secretAccessKey',
  // A webhook endpoint's signing secret. Not 'key': job keys and storage keys are
  // what an operator reads a log for, and an API key never travels in a logged field.
  'secret',
  // Two-factor sign-in: the challenge of a sign-in's second step, recovery codes, the setup's URL
  // (it holds the secret). Not 'code': error bodies carry their code under that name.
  'challenge',
  'recoveryCode',
  'recoveryCodes',
  'otpauthUrl',
];

/**
 * Fastify logs "Server listening at <address>" at info by itself, one line per interface, and has
 * no option to leave it out; main.ts announces the address on a plain line of its own instead.
 */
const FASTIFY_LISTENING = 'Server listening at ';

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    hooks: {
      logMethod(args, method) {
        if (typeof args[0] === 'string' && args[0].startsWith(FASTIFY_LISTENING)) return;
        method.apply(this, args);
      },
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        ...SECRET_FIELDS,
        ...SECRET_FIELDS.map((field) => `*.${field}`),
        ...SECRET_FIELDS.map((field) => `*.*.${field}`),
      ],
      censor: '[redacted]',
    },
    serializers: {
      // Defensive: a serializer that throws would lose the whole log line.
      req: (req: Partial<FastifyRequest>) => ({
        method: req.method,
        url: typeof req.url === 'string' ? redactUrl(req.url) : undefined,
        remoteAddress: req.ip,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      // Code logs `{ error: describeErrorForLog(e) }`; a raw error logged as `err` by a library
      // is described the same way instead of pino's default, which prints the stack.
      err: describeErrorForLog,
    },
  };
}

/** Accept a caller's request id (a proxy's) when it is harmless; otherwise make one. */
export function requestIdFrom(header: string | string[] | undefined, fallback: () => string): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && /^[A-Za-z0-9._:-]{1,64}$/.test(value) ? value : fallback();
}

/**
 * Fastify's lines about each request: one `request completed` line (method, URL, status, time) at
 * debug, so LOG_LEVEL=info shows what goes wrong rather than every request. An answer of 500 or
 * more stays at info, and a request that failed with an error at error, as Fastify logs them; the
 * error handler and tRPC's onError still log each failure's cause. `incoming request` moves to
 * trace, and the 404 of an unknown route to debug.
 */
export class RequestLines extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.trace({ req: request }, 'incoming request');
  }
  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (reply.statusCode >= 500) reply.log.info(line, 'request completed');
    else reply.log.debug(line, 'request completed');
  }
  override routeNotFound(request: FastifyRequest): void {
    if (!this.isLogDisabled(request))
      request.log.debug(`Route ${request.method}:${redactUrl(request.url)} not found`);
  }
}
