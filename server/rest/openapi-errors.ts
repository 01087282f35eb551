import { apiMessages, integrationMessages } from '../../shared/messages';
import type { ApiError } from '../../shared/schemas/common';
import { responseHeaders } from './openapi-headers';

/** The error statuses an operation may document. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429;

/**
 * The error answers of the document, each once under `components.responses` with the one error
 * schema and an example, and the Idempotency-Key parameter every POST takes.
 */

/** The name of the error schema under components.schemas. */
export const ERROR_SCHEMA_NAME = 'Error';

type ErrorExample = ApiError;

const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string; example: ErrorExample }> = {
  400: {
    name: 'BadRequest',
    description: 'Invalid input: `issues` lists every problem, `message` is the first',
    example: {
      message: 'Name is required',
      code: 'BAD_REQUEST',
      error: 'validation',
      issues: [{ path: 'name', message: 'Name is required' }],
    },
  },
  401: {
    name: 'Unauthorized',
    description: 'Not signed in, or the token expired or was revoked',
    example: { message: apiMessages.notSignedIn, code: 'UNAUTHORIZED', error: 'unauthenticated' },
  },
  403: {
    name: 'Forbidden',
    description:
      'Signed in, but not allowed (another user, not an admin, not the owner): `error` is `forbidden`; ' +
      '`missing-scope` for an API key without the scope the path needs, `not-for-api-keys` for a path no key ' +
      'may call, `second-factor-required` for an admin who must first prove a second factor',
    example: { message: apiMessages.forbidden, code: 'FORBIDDEN', error: 'forbidden' },
  },
  404: {
    name: 'NotFound',
    description: "No such resource (also another user's: its existence is not revealed)",
    example: { message: 'Not found', code: 'NOT_FOUND', error: 'not-found' },
  },
  409: {
    name: 'Conflict',
    description:
      'The state does not allow it (taken, closed, already decided): the message says which. `error` is ' +
      '`not-compliant` when required checklist items are still open (`missing` lists them), ' +
      '`idempotency-in-progress` while a request with the same Idempotency-Key still runs, else `conflict`',
    example: { message: 'This transaction is closed', code: 'CONFLICT', error: 'conflict' },
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'The body (1 MiB of JSON) or the file (MAX_UPLOAD_MB) is too large',
    example: { message: 'The file is too large', code: 'PAYLOAD_TOO_LARGE', error: 'payload-too-large' },
  },
  415: {
    name: 'UnsupportedMediaType',
    description:
      'The body is not of a type the operation takes (JSON, or a multipart upload), or the file type is not accepted (recognised by its bytes)',
    example: {
      message: 'This file type is not accepted',
      code: 'UNSUPPORTED_MEDIA_TYPE',
      error: 'unsupported-media-type',
    },
  },
  422: {
    name: 'UnprocessableContent',
    description: 'The request cannot be processed as sent (e.g. an Idempotency-Key reused with another body)',
    example: {
      message: integrationMessages.idempotencyMismatch,
      code: 'UNPROCESSABLE',
      error: 'idempotency-mismatch',
    },
  },
  429: {
    name: 'TooManyRequests',
    description: 'Rate limited; retry later',
    example: { message: apiMessages.tooManyRequests, code: 'TOO_MANY_REQUESTS', error: 'rate-limited' },
  },
};

export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same request within 24 h answers the first answer again, ' +
    'with the header `Idempotent-Replayed: true`, and does nothing more. Keys are per caller. The same key ' +
    'with another request is 422; while the first request with the key still runs, a second waits up to 10 s, then 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  example: '5f1c2a9e-0b7d-4c1e-9a53-2f8e6d4b7c10',
};

export const SUCCESS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No content',
  '303': 'See other',
};

export const SERVER_ERROR = {
  name: 'ServerError',
  description: 'The server could not answer: 500, or 503 while the database is unavailable; retry',
  example: {
    message: 'Service unavailable, please retry',
    code: 'SERVICE_UNAVAILABLE',
    error: 'service-unavailable',
  } satisfies ApiError,
};

/**
 * Errors a POST's Idempotency-Key keeps and answers again (with Idempotent-Replayed): not 401,
 * 403 and 429, which the same request may outgrow, nor a server error (plugins/idempotency.ts).
 */
const REPLAYABLE: ReadonlySet<ErrorStatus | '5XX'> = new Set([400, 404, 409, 415, 422] as const);

/** The component an error status refers to, its name and its body (the one error schema). */
export function errorResponseComponent(status: ErrorStatus | '5XX', errorSchemaRef: string) {
  const { name, description, example } = status === '5XX' ? SERVER_ERROR : ERROR_RESPONSES[status];
  return {
    name,
    response: {
      description,
      headers: responseHeaders({ tooManyRequests: status === 429, replayable: REPLAYABLE.has(status) }),
      content: { 'application/json': { schema: { $ref: errorSchemaRef }, example } },
    },
  };
}
