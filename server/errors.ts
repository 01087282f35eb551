import { TRPCError } from '@trpc/server';
import { apiMessages, integrationMessages } from '../shared/messages';
import type { ApiError, ApiErrorCode, ApiErrorDetails, ApiErrorId, ApiIssue } from '../shared/schemas/common';

/**
 * The one place that turns anything thrown into an HTTP status and a safe body (docs/API.md,
 * "Errors"). Services throw AppError; everything else (tRPC, zod, Prisma, pg,
 * Fastify) is recognised here. Whatever is not recognised is a 500 whose body says nothing
 * about why: no stack, no SQL, no message from a library.
 */

/**
 * The code each error id belongs to: an id is only ever answered with its own code (and so its
 * own HTTP status), whoever raises it.
 */
export const CODE_OF_ERROR_ID = {
  validation: 'BAD_REQUEST',
  'range-not-satisfiable': 'BAD_REQUEST',
  unauthenticated: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  'missing-scope': 'FORBIDDEN',
  'not-for-api-keys': 'FORBIDDEN',
  'second-factor-required': 'FORBIDDEN',
  'email-not-verified': 'FORBIDDEN',
  'not-found': 'NOT_FOUND',
  conflict: 'CONFLICT',
  'not-compliant': 'CONFLICT',
  'idempotency-in-progress': 'CONFLICT',
  'request-timeout': 'REQUEST_TIMEOUT',
  'payload-too-large': 'PAYLOAD_TOO_LARGE',
  'headers-too-large': 'HEADERS_TOO_LARGE',
  'unsupported-media-type': 'UNSUPPORTED_MEDIA_TYPE',
  'idempotency-mismatch': 'UNPROCESSABLE',
  'rate-limited': 'TOO_MANY_REQUESTS',
  internal: 'INTERNAL',
  'service-unavailable': 'SERVICE_UNAVAILABLE',
} as const satisfies Record<ApiErrorId, ApiErrorCode>;

/** The id of an error of this code that says nothing more precise. */
export const DEFAULT_ERROR_ID = {
  BAD_REQUEST: 'validation',
  UNAUTHORIZED: 'unauthenticated',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not-found',
  CONFLICT: 'conflict',
  PAYLOAD_TOO_LARGE: 'payload-too-large',
  HEADERS_TOO_LARGE: 'headers-too-large',
  REQUEST_TIMEOUT: 'request-timeout',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported-media-type',
  TOO_MANY_REQUESTS: 'rate-limited',
  UNPROCESSABLE: 'idempotency-mismatch',
  SERVICE_UNAVAILABLE: 'service-unavailable',
  INTERNAL: 'internal',
} as const satisfies { [C in ApiErrorCode]: ErrorIdOf<C> };

/** The ids an error of code C may carry. */
export type ErrorIdOf<C extends ApiErrorCode> = {
  [Id in ApiErrorId]: (typeof CODE_OF_ERROR_ID)[Id] extends C ? Id : never;
}[ApiErrorId];

export class AppError<C extends ApiErrorCode = ApiErrorCode> extends Error {
  /** Headers the HTTP answer carries with the body (a 429's Retry-After and X-RateLimit-*). */
  headers?: Readonly<Record<string, string>>;
  /** The body's `error`: the one given, else the code's default. */
  readonly id: ApiErrorId;
  /** Fields the body carries beside message, code, error and issues. */
  readonly details?: ApiErrorDetails;

  constructor(
    readonly code: C,
    message: string,
    readonly issues?: ApiIssue[],
    /** `error`: a more precise id than the code's default; the rest are ApiErrorDetails. */
    { error, ...details }: ApiErrorDetails & { error?: ErrorIdOf<C> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.id = error ?? DEFAULT_ERROR_ID[code];
    if (Object.keys(details).length > 0) this.details = details;
  }
}

const STATUS_BY_CODE: Record<ApiErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  HEADERS_TOO_LARGE: 431,
  REQUEST_TIMEOUT: 408,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  UNPROCESSABLE: 422,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

const DEFAULT_MESSAGE: Record<ApiErrorCode, string> = {
  BAD_REQUEST: apiMessages.invalidInput,
  UNAUTHORIZED: apiMessages.notSignedIn,
  FORBIDDEN: apiMessages.forbidden,
  NOT_FOUND: apiMessages.notFound,
  CONFLICT: apiMessages.conflict,
  PAYLOAD_TOO_LARGE: apiMessages.payloadTooLarge,
  HEADERS_TOO_LARGE: apiMessages.headersTooLarge,
  REQUEST_TIMEOUT: apiMessages.requestTimeout,
  UNSUPPORTED_MEDIA_TYPE: apiMessages.unsupportedMediaType,
  TOO_MANY_REQUESTS: apiMessages.tooManyRequests,
  UNPROCESSABLE: integrationMessages.idempotencyMismatch,
  SERVICE_UNAVAILABLE: apiMessages.serviceUnavailable,
  INTERNAL: apiMessages.internal,
};

export type ClassifiedError = {
  status: number;
  body: ApiError;
  /** True when the cause is on our side: log it (without a stack) with the request id. */
  internal: boolean;
  /** Headers to answer with beside the body. */
  headers?: Readonly<Record<string, string>>;
};

function answer(
  code: ApiErrorCode,
  message = DEFAULT_MESSAGE[code],
  issues?: ApiIssue[],
  details?: ApiErrorDetails,
  error: ApiErrorId = DEFAULT_ERROR_ID[code],
): ClassifiedError {
  const status = STATUS_BY_CODE[code];
  return {
    status,
    body: { ...(issues?.length ? { message, code, error, issues } : { message, code, error }), ...details },
    internal: status >= 500,
  };
}

/** The body of an error answered where it happens rather than thrown (no route, a 416). */
export function errorBody<C extends ApiErrorCode>(code: C, message?: string, error?: ErrorIdOf<C>): ApiError {
  return answer(code, message, undefined, undefined, error).body;
}

/**
 * An AppError is a decision the code made on purpose. A 503 that says why (a search cut off by
 * its timeout, an instance draining) is not a failure to log or count; one that carries the
 * failure it stands for (S3 or the database refusing, set as its cause) is, like any INTERNAL.
 */
function answerAppError(error: AppError): ClassifiedError {
  const answered = answer(error.code, error.message, error.issues, error.details, error.id);
  return {
    ...answered,
    internal: error.code === 'INTERNAL' || (answered.internal && error.cause !== undefined),
    ...(error.headers ? { headers: error.headers } : {}),
  };
}

const TRPC_TO_APP: Partial<Record<TRPCError['code'], ApiErrorCode>> = {
  PARSE_ERROR: 'BAD_REQUEST',
  BAD_REQUEST: 'BAD_REQUEST',
  UNPROCESSABLE_CONTENT: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PRECONDITION_FAILED: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  // A query sent as POST or a mutation as GET: the caller's mistake (there is no 405 in our codes).
  METHOD_NOT_SUPPORTED: 'BAD_REQUEST',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

/** SQLSTATEs and socket errors that mean "the database is not there right now". */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection (?:refused|reset|closed)/i,
  /cannot use a pool after calling end/i,
  // node-postgres, for a query on a pooled connection the server has just cut (a transaction's
  // next statement after PostgreSQL stopped).
  /client (?:has encountered a connection error|was closed) and is not queryable/i,
  /terminating connection due to administrator command/i,
  /the database system is (?:starting up|shutting down)/i,
  /can't reach database server/i,
];

type ErrorLike = { name?: unknown; code?: unknown; message?: unknown; cause?: unknown; statusCode?: unknown };

function isObject(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null;
}

/** Walks error.cause (and Prisma's driver-adapter wrappers) so a wrapped failure is still seen. */
function* causeChain(error: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (isObject(current) && !seen.has(current) && seen.size < 10) {
    seen.add(current);
    yield current;
    const meta = (current as { meta?: { driverAdapterError?: unknown } }).meta;
    current = current.cause ?? meta?.driverAdapterError;
  }
}

function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causeChain(error)) {
    const code = typeof e.code === 'string' ? e.code : undefined;
    const name = typeof e.name === 'string' ? e.name : '';
    if (code && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
    if (code && name.startsWith('PrismaClient') && UNAVAILABLE_PRISMA_CODES.has(code)) return true;
    const errorCode = (e as { errorCode?: unknown }).errorCode;
    if (typeof errorCode === 'string' && UNAVAILABLE_PRISMA_CODES.has(errorCode)) return true;
    const kind = (e as { kind?: unknown }).kind;
    if (kind === 'DatabaseNotReachable' || kind === 'ConnectionClosed' || kind === 'SocketTimeout')
      return true;
    if (
      typeof e.message === 'string' &&
      UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(e.message as string))
    )
      return true;
  }
  return false;
}

/**
 * A failure of an AWS SDK call: S3 or a compatible service that is down, refuses the credentials
 * or answers 5xx. The SDK marks every error it throws, service answers and network failures
 * alike, with `$metadata`. The S3 driver already turns these into AppErrors; this catches one
 * that escapes it, so file storage trouble is a 503 and never a 500.
 */
function isStorageServiceError(error: unknown): boolean {
  for (const e of causeChain(error)) {
    if (isObject((e as { $metadata?: unknown }).$metadata)) return true;
  }
  return false;
}

/**
 * SQLSTATEs of text PostgreSQL cannot store, above all U+0000 (valid JSON, refused by `text`):
 * the request's fault, so a 400, not a 500. Seen on the driver's error (`code`) or on the
 * driver adapter's copy of it (`originalCode`).
 */
const UNSTORABLE_TEXT_SQLSTATES = new Set(['22021', '22P05']);

function isUnstorableText(error: unknown): boolean {
  for (const e of causeChain(error)) {
    const codes = [e.code, (e as { originalCode?: unknown }).originalCode];
    if (codes.some((code) => typeof code === 'string' && UNSTORABLE_TEXT_SQLSTATES.has(code))) return true;
  }
  return false;
}

type IssueLike = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> };

function validationIssues(error: unknown): IssueLike[] | undefined {
  if (!isObject(error)) return undefined;
  const issues = (error as { issues?: unknown }).issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  if (!issues.every((i) => isObject(i) && typeof (i as { message?: unknown }).message === 'string'))
    return undefined;
  return issues as IssueLike[];
}

function toApiIssues(issues: IssueLike[]): ApiIssue[] {
  return issues.map((issue) => ({
    path: (issue.path ?? [])
      .map((segment) => (typeof segment === 'object' && segment !== null ? segment.key : segment))
      .map(String)
      .join('.'),
    message: issue.message,
  }));
}

/** Fastify's own 4xx errors (body parsing, limits, rate limiting) carry a statusCode. */
function fastifyClientError(error: ErrorLike): ClassifiedError | undefined {
  const status = typeof error.statusCode === 'number' ? error.statusCode : undefined;
  if (!status || status < 400 || status >= 500) return undefined;
  const code = typeof error.code === 'string' ? error.code : '';
  if (status === 413 || code === 'FST_ERR_CTP_BODY_TOO_LARGE' || code === 'FST_REQ_FILE_TOO_LARGE')
    return answer('PAYLOAD_TOO_LARGE');
  if (status === 415 || code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return answer('UNSUPPORTED_MEDIA_TYPE');
  if (status === 429) return answer('TOO_MANY_REQUESTS');
  if (status === 401) return answer('UNAUTHORIZED');
  if (status === 403) return answer('FORBIDDEN');
  if (status === 404) return answer('NOT_FOUND');
  if (status === 409) return answer('CONFLICT');
  if (error.name === 'SyntaxError' || code === 'FST_ERR_CTP_INVALID_JSON_BODY')
    return answer('BAD_REQUEST', 'Request body is not valid JSON');
  // Fastify's 4xx messages describe the request, not our internals ("Body cannot be empty...").
  return answer('BAD_REQUEST', typeof error.message === 'string' ? error.message : undefined);
}

/** tRPC's message when a procedure's answer fails its `.output()` schema (pinned by errors' tests). */
const TRPC_OUTPUT_VALIDATION_FAILED = 'Output validation failed';

export function classifyError(error: unknown): ClassifiedError {
  if (error instanceof AppError) return answerAppError(error);

  if (error instanceof TRPCError) {
    // tRPC wraps whatever a procedure threw; what it wrapped decides the answer.
    const cause = error.cause;
    if (cause instanceof AppError) return answerAppError(cause);
    // An answer that does not match its own schema is our fault, whatever zod says about it.
    if (error.message === TRPC_OUTPUT_VALIDATION_FAILED) return answer('INTERNAL');
    const issues = validationIssues(cause);
    if (issues) return answer('BAD_REQUEST', issues[0]?.message, toApiIssues(issues));
    if (error.code === 'INTERNAL_SERVER_ERROR' && cause) return classifyError(cause);
    const code = TRPC_TO_APP[error.code];
    if (!code) return answer('INTERNAL');
    // A TRPCError thrown on purpose carries a message meant for the caller.
    return answer(code, error.message || undefined);
  }

  const issues = validationIssues(error);
  if (issues && isObject(error) && (error.name === 'ZodError' || error.name === '$ZodError')) {
    return answer('BAD_REQUEST', issues[0]?.message, toApiIssues(issues));
  }

  // Before the database check: S3's network failures carry the same socket codes.
  if (isStorageServiceError(error)) return answer('SERVICE_UNAVAILABLE', apiMessages.storageUnavailable);
  if (isDatabaseUnavailable(error)) return answer('SERVICE_UNAVAILABLE');
  if (isUnstorableText(error)) return answer('BAD_REQUEST', apiMessages.unstorableText);

  if (isObject(error)) {
    const name = typeof error.name === 'string' ? error.name : '';
    if (name === 'PrismaClientKnownRequestError') {
      if (error.code === 'P2002') return answer('CONFLICT');
      if (error.code === 'P2025' || error.code === 'P2001' || error.code === 'P2015')
        return answer('NOT_FOUND');
      if (error.code === 'P2003' || error.code === 'P2014') return answer('CONFLICT');
      if (error.code === 'P2000') return answer('BAD_REQUEST', 'A value is too long');
    }
    const fromFastify = fastifyClientError(error);
    if (fromFastify) return fromFastify;
  }

  return answer('INTERNAL');
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them: headers over its 16 KiB
 * (a very long URL counts), a request that does not arrive in time, bytes that are not HTTP.
 * Their answers carry the documented error body like every other. Undefined: the connection is
 * gone and there is no one to answer.
 */
export function classifyHttpParserError(error: { code?: unknown }): ClassifiedError | undefined {
  if (error.code === 'ECONNRESET') return undefined;
  if (error.code === 'HPE_HEADER_OVERFLOW') return answer('HEADERS_TOO_LARGE');
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return answer('REQUEST_TIMEOUT');
  return answer('BAD_REQUEST', apiMessages.malformedRequest);
}

const LOOKS_LIKE_SQL =
  /\b(select|insert|update|delete|with|alter|create|drop)\b[\s\S]*\b(from|into|set|where|table|values)\b/i;

/**
 * What a log line may say about a failure: its type, code and first line, bounded. Stacks and
 * multi-line library messages can carry SQL, query parameters or secrets, so they stay out, and
 * a first line that reads like SQL is withheld too.
 */
export function describeErrorForLog(error: unknown): { type: string; code?: string; message: string } {
  const chain = [...causeChain(error)];
  const root = chain.at(-1) ?? {};
  const type = typeof root.name === 'string' ? root.name : typeof error;
  const code = chain.map((e) => e.code).find((c): c is string => typeof c === 'string');
  const firstLine = String(typeof root.message === 'string' ? root.message : error)
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line.length > 0);
  const message = (firstLine ?? '').replace(/(postgres(?:ql)?:\/\/)[^\s@]*@/gi, '$1***@').slice(0, 300);
  return {
    type,
    ...(code ? { code } : {}),
    message: LOOKS_LIKE_SQL.test(message) ? '[withheld: the message quotes SQL]' : message,
  };
}
