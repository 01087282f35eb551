// First: configures Zod before any schema below or in the modules importing this one.
import './zod-setup';
import { z } from 'zod';
import { MAX_PAGE_SIZE, PAGE_SIZE } from '../constants';

export const idSchema = z.uuid({ error: 'Invalid id' });

/**
 * `page`/`limit` arrive as numbers over tRPC and as strings in REST query strings; coercion
 * lets one schema serve both. Out-of-range values are errors, not silently clamped.
 */
export const pagingInput = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
});
export type PagingInput = z.infer<typeof pagingInput>;

export const API_ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  /** 431: the request line and headers exceed what the HTTP server reads (16 KiB). */
  'HEADERS_TOO_LARGE',
  /** 408: the request did not arrive in time. */
  'REQUEST_TIMEOUT',
  'UNSUPPORTED_MEDIA_TYPE',
  'TOO_MANY_REQUESTS',
  /** 422: an Idempotency-Key reused with another request. */
  'UNPROCESSABLE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export const apiErrorCode = z.enum(API_ERROR_CODES);
export type ApiErrorCode = z.infer<typeof apiErrorCode>;

/**
 * The stable identifier of an error (the body's `error`), for a client to switch on. `code` says
 * the HTTP class; `error` may be more precise where one class holds refusals a client answers
 * differently (a key lacking a scope, a file that is not compliant). Once published an id never
 * changes or goes: add new ones, never rename.
 */
export const API_ERROR_IDS = [
  /** 400: the input (body, query, path) is not what the path takes; `issues` says where. */
  'validation',
  /** 401: no valid session or key. */
  'unauthenticated',
  /** 403: signed in, but not allowed. */
  'forbidden',
  /** 403: an API key without the scope the path needs. */
  'missing-scope',
  /** 403: a path about a person or about keys, which no API key may call. */
  'not-for-api-keys',
  /** 403: the brokerage requires admins to prove a second factor first. */
  'second-factor-required',
  /** 403: sign-in before the e-mail address was verified. */
  'email-not-verified',
  /** 404 */
  'not-found',
  /** 409: the resource's state refuses the change. */
  'conflict',
  /** 409: required checklist items are still open (`missing` lists them). */
  'not-compliant',
  /** 409: a request with the same Idempotency-Key is still being answered. */
  'idempotency-in-progress',
  /** 408: the request did not arrive in time. */
  'request-timeout',
  /** 413 */
  'payload-too-large',
  /** 415 */
  'unsupported-media-type',
  /** 416: a Range outside the file. */
  'range-not-satisfiable',
  /** 422: an Idempotency-Key reused with another request. */
  'idempotency-mismatch',
  /** 429 */
  'rate-limited',
  /** 431: the request line and headers exceed 16 KiB (a very long URL counts). */
  'headers-too-large',
  /** 500 */
  'internal',
  /** 503: retry later. */
  'service-unavailable',
] as const;
export const apiErrorId = z.enum(API_ERROR_IDS);
export type ApiErrorId = z.infer<typeof apiErrorId>;

export const apiIssue = z.object({ path: z.string(), message: z.string() });
export type ApiIssue = z.infer<typeof apiIssue>;

/** A required checklist item that is neither accepted nor waived. */
export const missingItem = z.object({ formId: idSchema, label: z.string() });
export type MissingItem = z.infer<typeof missingItem>;

/** The body of every REST error. */
export const apiError = z.object({
  message: z.string(),
  code: apiErrorCode,
  error: apiErrorId,
  issues: z.array(apiIssue).optional(),
  /** A refusal because the file is not compliant: the required items still open. */
  missing: z.array(missingItem).optional(),
});
export type ApiError = z.infer<typeof apiError>;
/**
 * What an error may carry beside its message, code, id and issues, for a client to act on: each
 * is a field of the REST body and of tRPC's `error.data`.
 */
export type ApiErrorDetails = Omit<ApiError, 'message' | 'code' | 'error' | 'issues'>;

export const messageAnswer = z.object({ message: z.string() });
