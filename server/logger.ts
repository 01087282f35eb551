import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';
import { describeErrorForLog } from './errors';

/**
 * Log settings: a request id on every line, and no secrets. Tokens also travel in URLs (signed
 * download links, the e-mailed verify/reset links opened as client routes), so URLs are cleaned
 * too, not only headers and bodies.
 */

const SECRET_QUERY_KEYS =
  /^(sig|signature|token|access_token|refresh_token|code|x-amz-signature|x-amz-credential)$/i;
const SECRET_PATH = /^(\/auth\/(?:verify-email|new-password)\/)[^/?#]+/;

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
  // A webhook endpoint's signing secret (issue 20). Not 'key': job keys and storage keys are
  // what an operator reads a log for, and an API key never travels in a logged field.
  'secret',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
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
