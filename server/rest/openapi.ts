import {
  ERROR_SCHEMA_NAME,
  type ErrorStatus,
  errorResponseComponent,
  IDEMPOTENCY_KEY_PARAMETER,
  SUCCESS_TEXT,
} from './openapi-errors';

export type { ErrorStatus };

import { RESPONSE_HEADERS, responseHeaders } from './openapi-headers';
import { applyApiKeyScope, SECURITY_SCHEMES } from './openapi-security';
import { declaredTags } from './openapi-tags';
import { webhooksSection } from './openapi-webhooks';
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
 *   `components.responses` with the one error schema; `x-error-notes` this operation's own words
 *   for some of them;
 * - `x-multipart-file`: the name of the one file part of a multipart body;
 * - `x-api-key-scope`: what an API key needs to call it (server/rest/scopes.ts reads it on each
 *   call; the REST plugin refuses to start with a documented operation that lacks one);
 * - `x-examples`: an example of the request body and of the answer.
 *
 * This pass turns them into the document: the error answers become references, every request and
 * answer body becomes a named schema under `components.schemas` (shapes named in
 * server/rest/schema-names.ts keep their name; identical bodies share one), the examples are
 * attached to their bodies, and components nothing refers to go. The scope becomes the API key's
 * `security` and `x-required-scopes` (openapi-security.ts); statuses that follow from the method
 * (413 for a body, 409/422 for an Idempotency-Key) or the scope (403) are added; every answer
 * declares its headers (openapi-headers.ts); the tags are declared (openapi-tags.ts) and the
 * webhooks documented (openapi-webhooks.ts).
 */

/** An example of an operation's request body and of its answer. */
export type OperationExamples = { request?: unknown; response?: unknown };

export type OperationFacts = {
  operationId: string;
  security: Array<Record<string, string[]>>;
  'x-errors': ErrorStatus[];
  'x-multipart-file'?: string;
  'x-api-key-scope': PathScope;
  'x-examples'?: OperationExamples;
  'x-error-notes'?: ErrorNotes;
};

/** What an error status means for one operation, where it says more than the shared answer. */
export type ErrorNotes = Partial<Record<ErrorStatus, string>>;

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
 * A table row's 4xx statuses, from what it is: 400 when it takes input, 401 always (a session is
 * needed, or a public path was sent a key that no longer works), 403 for admin and owner
 * procedures and for paths naming a `{userId}` (the caller's own unless an admin asks), 404 when
 * the path names a resource; plus the row's own `errors`.
 */
export function errorStatusesOf(options: {
  access: 'public' | 'user' | 'admin' | 'owner';
  hasInput: boolean;
  pathParams: string[];
  extra?: ReadonlyArray<ErrorStatus>;
}): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(ALWAYS);
  if (options.hasInput) statuses.add(400);
  // Public procedures too: an API key that no longer works is 401 wherever it is presented.
  statuses.add(401);
  if (options.access === 'admin' || options.access === 'owner' || options.pathParams.includes('userId')) {
    statuses.add(403);
  }
  if (options.pathParams.length > 0) statuses.add(404);
  for (const status of options.extra ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

/** The name of the error schema under components.schemas. */
export const ERROR_SCHEMA = ERROR_SCHEMA_NAME;

type Json = Record<string, unknown>;
type Operation = Json & {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: Json; example?: unknown }> } & Json;
  responses?: Record<string, Json & { content?: Record<string, { schema?: Json; example?: unknown }> }>;
  parameters?: Json[];
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);
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

/** An operation a signed-in person calls (a `bearerAuth` session), not a public one. */
function needsSession(operation: Operation): boolean {
  const security = operation.security as Array<Record<string, unknown>> | undefined;
  return security?.some((scheme) => 'bearerAuth' in scheme) ?? false;
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

/** A multipart body of one file part named `field`. */
const multipartBody = (field: string) => ({
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: [field],
        properties: {
          [field]: {
            type: 'string',
            contentMediaType: 'application/octet-stream',
            description: 'The file: the one part of the body',
          },
        },
        additionalProperties: false,
      },
    },
  },
});

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

  const errorResponse = (status: ErrorStatus | '5XX', note?: string) => {
    const { name, response } = errorResponseComponent(status, ref(ERROR_SCHEMA));
    responses[name] ??= response;
    // A reference's description overrides the component's (OpenAPI 3.1): this operation's words.
    return { $ref: `#/components/responses/${name}`, ...(note ? { description: note } : {}) };
  };
  const tags = new Set<string>();

  for (const { path, method, operation } of operationsOf(doc)) {
    const examples = operation['x-examples'] as OperationExamples | undefined;
    const scope = operation['x-api-key-scope'] as PathScope | undefined;
    const notes = (operation['x-error-notes'] ?? {}) as ErrorNotes;
    for (const key of ['x-examples', 'x-api-key-scope', 'x-error-notes']) delete operation[key];
    for (const tag of (operation.tags ?? []) as string[]) tags.add(tag);
    const id = operation.operationId;
    if (!id) continue; // the tests name it; the document must still be served to be linted
    const errors = new Set((operation['x-errors'] ?? []) as ErrorStatus[]);
    delete operation['x-errors'];
    if (applyApiKeyScope(operation, scope).keyMayBeRefused) errors.add(403);
    // The owner's policy may hold back an admin whose session proved no second factor, on every
    // signed-in path outside /api/auth (server/trpc/second-factor-gate.ts).
    if (needsSession(operation) && !path.startsWith('/api/auth/')) errors.add(403);
    // Every POST takes an Idempotency-Key: 422 for another body under a key, 409 while the first
    // request with it is still running.
    const replayable = method === 'post';
    if (replayable) {
      operation.parameters = [
        ...(operation.parameters ?? []),
        { $ref: '#/components/parameters/IdempotencyKey' },
      ];
      errors.add(409).add(422);
    }
    // Fastify reads a body sent with any POST, PUT, PATCH or DELETE, whatever the operation takes:
    // JSON that parses (400), 1 MiB at most (413), of a content type it parses (415).
    if (BODY_METHODS.has(method) || operation.requestBody) errors.add(400).add(413).add(415);
    const fileField = operation['x-multipart-file'] as string | undefined;
    delete operation['x-multipart-file'];
    if (fileField) operation.requestBody = multipartBody(fileField);

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
      answer.headers = { ...responseHeaders({ replayable }), ...((answer.headers as Json) ?? {}) };
      answers[status] = answer;
    }
    for (const status of [...errors].sort((a, b) => a - b)) {
      answers[String(status)] = errorResponse(status, notes[status]);
    }
    // Any operation can fail on the server's side (500), or while the database is away (503).
    answers['5XX'] ??= errorResponse('5XX');
    operation.responses = Object.fromEntries(Object.entries(answers).sort(([a], [b]) => a.localeCompare(b)));
  }

  const section = webhooksSection();
  Object.assign(schemas, section.schemas);
  doc.webhooks = section.webhooks;
  tags.add('webhooks');
  doc.tags = declaredTags(tags);

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
  visit(doc.webhooks);
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
    headers: RESPONSE_HEADERS,
    securitySchemes: SECURITY_SCHEMES,
  };
  return doc;
}
