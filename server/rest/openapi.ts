import { apiMessages, integrationMessages } from '../../shared/messages';
import type { ApiError } from '../../shared/schemas/common';
import type { PathScope } from './scopes';

/**
 * The OpenAPI document's finishing pass (docs/API.md "The OpenAPI document").
 *
 * Routes state facts in their Fastify schema, in the same words whether they are procedures'
 * REST paths (server/rest/adapter.ts writes them from each procedure's meta) or routes of their
 * own (uploads, CSV exports):
 *
 * - `operationId`: for a row, derived from its procedure's path (`transactions.list` gives
 *   `transactionsList`);
 * - `security`: `[]` for public operations, bearerAuth otherwise;
 * - `x-errors`: the 4xx statuses the operation can answer, each documented once under
 *   `components.responses` with the one error schema;
 * - `x-multipart-file`: the name of the one file part of a multipart body;
 * - `x-api-key-scope`: what an API key needs to call it (server/rest/scopes.ts reads it on each
 *   call; the REST plugin refuses to start with a documented operation that lacks one);
 * - `x-examples`: an example of the request body and of the answer.
 *
 * This pass turns them into the document: the error answers become references, every request and
 * answer body becomes a named schema under `components.schemas` (shapes named in
 * server/rest/schema-names.ts keep their name; identical bodies share one), the examples are
 * attached to their bodies, the scope is left out, and components nothing refers to go.
 */

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429;

/** An example of an operation's request body and of its answer. */
export type OperationExamples = { request?: unknown; response?: unknown };

export type OperationFacts = {
  operationId: string;
  security: Array<Record<string, string[]>>;
  'x-errors': ErrorStatus[];
  'x-multipart-file'?: string;
  'x-api-key-scope': PathScope;
  'x-examples'?: OperationExamples;
};

/** `transactions.list` -> `transactionsList`; `libraries.forms.create` -> `librariesFormsCreate`. */
export function operationIdOf(procedurePath: string): string {
  return procedurePath
    .split('.')
    .map((part, index) => (index === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('');
}

export const BEARER: OperationFacts['security'] = [{ bearerAuth: [] }];
export const PUBLIC: OperationFacts['security'] = [];

/** Every /api call is rate limited per address (RATE_LIMIT_PER_MIN), the sign-in paths further. */
export const ALWAYS: ErrorStatus[] = [429];

/**
 * A table row's 4xx statuses, from what it is: 400 when it takes input, 401 when it needs a
 * session, 403 for admin and owner procedures and for paths naming a `{userId}` (the caller's own
 * unless an admin asks), 404 when the path names a resource; plus the row's own `errors`.
 */
export function errorStatusesOf(options: {
  access: 'public' | 'user' | 'admin' | 'owner';
  hasInput: boolean;
  pathParams: string[];
  extra?: ReadonlyArray<ErrorStatus>;
}): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(ALWAYS);
  if (options.hasInput) statuses.add(400);
  if (options.access !== 'public') statuses.add(401);
  if (options.access === 'admin' || options.access === 'owner' || options.pathParams.includes('userId')) {
    statuses.add(403);
  }
  if (options.pathParams.length > 0) statuses.add(404);
  for (const status of options.extra ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

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
    description: 'The file type is not accepted (recognised by its bytes)',
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

const IDEMPOTENCY_KEY_PARAMETER = {
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

const SUCCESS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No content',
  '303': 'See other',
};

type ErrorExample = ApiError;

const SERVER_ERROR = {
  name: 'ServerError',
  description: 'The server could not answer: 500, or 503 while the database is unavailable; retry',
  example: {
    message: 'Service unavailable, please retry',
    code: 'SERVICE_UNAVAILABLE',
    error: 'service-unavailable',
  } satisfies ApiError,
};

/** The name of the error schema under components.schemas. */
export const ERROR_SCHEMA = 'Error';

type Json = Record<string, unknown>;
type Operation = Json & {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: Json; example?: unknown }> } & Json;
  responses?: Record<string, Json & { content?: Record<string, { schema?: Json; example?: unknown }> }>;
  parameters?: Json[];
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;
const ref = (name: string) => `#/components/schemas/${name}`;
const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/** Each operation of a document, with its path and method. */
export function operationsOf(document: Json): Array<{ path: string; method: string; operation: Operation }> {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      path,
      method,
      operation: item[method] as Operation,
    })),
  );
}

/** `{}` alongside `{type: null}` in an anyOf is "any value": say it once (Redocly flags the other). */
function simplify(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplify);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) out[key] = simplify(value);
  const anyOf = out.anyOf as unknown[] | undefined;
  if (Array.isArray(anyOf) && anyOf.some((branch) => isEmptyObject(branch))) {
    delete out.anyOf;
  }
  return out;
}
const isEmptyObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

/** The served document, finished (see the top of this file). */
export function finishOpenApiDocument(document: Json): Json {
  const doc = structuredClone(document) as Json & { components?: Json };
  const components = (doc.components ?? {}) as Json & { schemas?: Record<string, Json>; responses?: Json };
  const schemas: Record<string, Json> = { ...(components.schemas ?? {}) };
  const responses: Record<string, Json> = {};
  const byShape = new Map<string, string>();
  for (const [name, schema] of Object.entries(schemas)) byShape.set(JSON.stringify(schema), name);

  /** A body schema by reference: an existing component of the same shape, or a new one named `name`. */
  const hoist = (schema: Json | undefined, name: string): Json | undefined => {
    if (!schema || typeof schema.$ref === 'string') return schema;
    const simple = simplify(schema) as Json;
    const key = JSON.stringify(simple);
    const known = byShape.get(key);
    if (known) return { $ref: ref(known) };
    let unique = name;
    for (let n = 2; schemas[unique]; n++) unique = `${name}${n}`;
    schemas[unique] = simple;
    byShape.set(key, unique);
    return { $ref: ref(unique) };
  };

  const errorResponse = (status: ErrorStatus | '5XX') => {
    const { name, description, example } = status === '5XX' ? SERVER_ERROR : ERROR_RESPONSES[status];
    responses[name] ??= {
      description,
      content: { 'application/json': { schema: { $ref: ref(ERROR_SCHEMA) }, example } },
    };
    return { $ref: `#/components/responses/${name}` };
  };

  for (const { method, operation } of operationsOf(doc)) {
    const examples = operation['x-examples'] as OperationExamples | undefined;
    delete operation['x-examples'];
    delete operation['x-api-key-scope'];
    const id = operation.operationId;
    if (!id) continue; // the tests name it; the document must still be served to be linted
    const errors = (operation['x-errors'] ?? []) as ErrorStatus[];
    // Every POST takes an Idempotency-Key: 422 for another body under a key, 409 while the first
    // request with it is still running.
    if (method === 'post') {
      operation.parameters = [
        ...(operation.parameters ?? []),
        { $ref: '#/components/parameters/IdempotencyKey' },
      ];
      for (const status of [409, 422] as const) if (!errors.includes(status)) errors.push(status);
      errors.sort((a, b) => a - b);
    }
    delete operation['x-errors'];
    const fileField = operation['x-multipart-file'] as string | undefined;
    delete operation['x-multipart-file'];

    if (fileField) {
      operation.requestBody = {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: [fileField],
              properties: {
                [fileField]: {
                  type: 'string',
                  contentMediaType: 'application/octet-stream',
                  description: 'The file: the one part of the body',
                },
              },
              additionalProperties: false,
            },
          },
        },
      };
    }

    const requestContent = operation.requestBody?.content?.['application/json'];
    if (requestContent) {
      requestContent.schema = hoist(requestContent.schema, `${pascal(id)}Body`);
      if (examples?.request !== undefined) requestContent.example = examples.request;
    }
    if (operation.parameters) {
      for (const parameter of operation.parameters) {
        if (parameter.schema) parameter.schema = simplify(parameter.schema);
      }
    }

    const answers: Record<string, Json> = {};
    for (const [status, answer] of Object.entries(operation.responses ?? {})) {
      if (status === '4XX') continue;
      if (status === '5XX') {
        answers[status] = errorResponse('5XX');
        continue;
      }
      for (const [type, media] of Object.entries(answer.content ?? {})) {
        if (type === 'application/json') {
          media.schema = hoist(media.schema, `${pascal(id)}Answer`);
        }
        if (examples?.response !== undefined) media.example = examples.response;
      }
      if (answer.description === 'Default Response') answer.description = SUCCESS_TEXT[status] ?? 'OK';
      answers[status] = answer;
    }
    for (const status of errors) answers[String(status)] = errorResponse(status);
    operation.responses = Object.fromEntries(Object.entries(answers).sort(([a], [b]) => a.localeCompare(b)));
  }

  // Only what the document refers to (the input and output variants of a named shape both exist).
  const used = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
          const name = child.slice('#/components/schemas/'.length);
          if (!used.has(name)) {
            used.add(name);
            visit(schemas[name]);
          }
        } else visit(child);
      }
    }
  };
  visit(doc.paths);
  visit(responses);

  // Relative: the server that serves this document (APP_URL), whatever its address.
  doc.servers = [{ url: '/', description: 'The server serving this document' }];
  doc.components = {
    ...components,
    schemas: Object.fromEntries(
      Object.entries(schemas)
        .filter(([name]) => used.has(name))
        .map(([name, schema]): [string, unknown] => [name, simplify(schema)])
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
    parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
  };
  return doc;
}
