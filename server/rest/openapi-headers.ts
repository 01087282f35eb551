/**
 * The response headers the document declares, once each under `components.headers`, and which
 * answers carry them (what server/app.ts, server/security/rate-limits.ts and
 * server/plugins/idempotency.ts send):
 * - `X-Request-Id` on every answer (the caller's own when it sent a valid one, else a new UUID);
 * - `X-RateLimit-*` on every answer while the per-address limit is on (RATE_LIMIT_PER_MIN > 0),
 *   and on each 429 for the limit that refused;
 * - `Retry-After` on each 429;
 * - `Idempotent-Replayed: true` on an answer of a POST repeated for its Idempotency-Key.
 */

type Json = Record<string, unknown>;

export const RESPONSE_HEADERS = {
  XRequestId: {
    description:
      "The request's id: the `X-Request-Id` sent (up to 64 characters of `A-Z a-z 0-9 . _ : -`), else a new one. " +
      'The server log names it: quote it when reporting a problem.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' },
  },
  XRateLimitLimit: {
    description:
      'The maximum calls of the limit this figure is about: the per-address limit per minute on every answer ' +
      '(when it is on), the limit that refused on a 429',
    schema: { type: 'integer', minimum: 0 },
  },
  XRateLimitRemaining: {
    description: 'Calls left in the current window of that limit (0 on a 429)',
    schema: { type: 'integer', minimum: 0 },
  },
  XRateLimitReset: {
    description: "Seconds until that limit's window ends",
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: {
    description: 'Seconds to wait before calling again',
    schema: { type: 'integer', minimum: 0 },
  },
  IdempotentReplayed: {
    description:
      'Present (`true`) only on the answer of a POST that repeats the first answer given for the same ' +
      'Idempotency-Key (a success, or a 400, 404, 409, 415 or 422); nothing was done again',
    schema: { type: 'string', enum: ['true'] },
  },
} as const satisfies Record<string, Json>;

type HeaderName = keyof typeof RESPONSE_HEADERS;

const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });

const EVERY_ANSWER: Array<[string, HeaderName]> = [
  ['X-Request-Id', 'XRequestId'],
  ['X-RateLimit-Limit', 'XRateLimitLimit'],
  ['X-RateLimit-Remaining', 'XRateLimitRemaining'],
  ['X-RateLimit-Reset', 'XRateLimitReset'],
];

/** The headers of an answer: every answer's, a 429's Retry-After, a POST's Idempotent-Replayed. */
export function responseHeaders(options: { tooManyRequests?: boolean; replayable?: boolean }): Json {
  const headers: Json = Object.fromEntries(EVERY_ANSWER.map(([header, name]) => [header, headerRef(name)]));
  if (options.tooManyRequests) headers['Retry-After'] = headerRef('RetryAfter');
  if (options.replayable) headers['Idempotent-Replayed'] = headerRef('IdempotentReplayed');
  return headers;
}

/** The header names (lower case) the document declares: the contract test checks answers against them. */
export const DECLARED_HEADERS = new Map<string, HeaderName>([
  ...EVERY_ANSWER.map(([header, name]): [string, HeaderName] => [header.toLowerCase(), name]),
  ['retry-after', 'RetryAfter'],
  ['idempotent-replayed', 'IdempotentReplayed'],
]);
