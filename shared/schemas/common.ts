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

export const apiIssue = z.object({ path: z.string(), message: z.string() });
export type ApiIssue = z.infer<typeof apiIssue>;

/** A required checklist item that is neither accepted nor waived. */
export const missingItem = z.object({ formId: idSchema, label: z.string() });
export type MissingItem = z.infer<typeof missingItem>;

/** The body of every REST error. */
export const apiError = z.object({
  message: z.string(),
  code: apiErrorCode,
  issues: z.array(apiIssue).optional(),
  /** A refusal because the file is not compliant: the required items still open. */
  missing: z.array(missingItem).optional(),
});
export type ApiError = z.infer<typeof apiError>;
/**
 * What an error may carry beside its message and issues, for a client to act on: each is a field
 * of the REST body and of tRPC's `error.data`.
 */
export type ApiErrorDetails = Omit<ApiError, 'message' | 'code' | 'issues'>;

export const messageAnswer = z.object({ message: z.string() });
