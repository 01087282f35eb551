import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DECLARED_HEADERS } from '../rest/openapi-headers';
import { documentValidator, type OpenApiDocument, type OpenApiResponse } from './openapi-schemas';

/**
 * The API's contract, checked on every answer a server test gets: each app buildTestApp makes
 * carries an onSend hook that looks up the answered operation in the document that same app
 * serves and records a violation when the document does not list the status, when a JSON body
 * does not match that status's schema (ajv), when another body's content type is not listed, or
 * when a documented header (X-Request-Id, X-RateLimit-*, Retry-After, Idempotent-Replayed) comes
 * on an answer that does not declare it. server/test/contract-setup.ts fails the test file that
 * recorded any. Routes the document does not describe (tRPC, files, the document itself) pass.
 */

const violations = new Set<string>();

/** The violations recorded since the last call, and forgets them. */
export function takeContractViolations(): string[] {
  const found = [...violations];
  violations.clear();
  return found;
}

export function recordContractViolation(text: string): void {
  violations.add(text);
}

type Checker = { doc: OpenApiDocument; check: ReturnType<typeof documentValidator> };
const checkers = new WeakMap<object, Checker>();

/** The validator of a served document, made once per document. */
export function checkerOf(doc: OpenApiDocument): Checker {
  let checker = checkers.get(doc);
  if (!checker) {
    checker = { doc, check: documentValidator(doc) };
    checkers.set(doc, checker);
  }
  return checker;
}

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const JSON_TYPE = 'application/json';

/** Registers the check on `app`; every route registered by its plugins gets it. */
export function installContractCheck(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    try {
      checkAnswer(req, reply, payload);
    } catch (error) {
      recordContractViolation(`${req.method} ${req.url}: the contract check failed: ${String(error)}`);
    }
    done(null, payload);
  });
}

function checkAnswer(req: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  const template = req.routeOptions.url;
  const serve = (req.server as { swagger?: () => unknown }).swagger;
  if (!template || typeof serve !== 'function') return;
  const doc = serve.call(req.server) as OpenApiDocument;
  const path = openApiPath(template);
  const operation = doc.paths?.[path]?.[req.method.toLowerCase()];
  if (!operation) return;
  const { check } = checkerOf(doc);
  const status = String(reply.statusCode);
  const name = `${operation.operationId ?? ''} (${req.method} ${path}) ${status}`;
  const answer = check.response(operation, status) ?? check.response(operation, `${status.charAt(0)}XX`);
  if (!answer) {
    recordContractViolation(`${name}: status ${status} is not documented`);
    return;
  }
  checkHeaders(name, reply, answer);
  if (reply.getHeader('content-encoding')) return; // compressed: the test asked for it
  const type =
    String(reply.getHeader('content-type') ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? null : undefined;
  const empty = payload === null || payload === undefined || payload === '';
  if (empty) return;
  const documented = answer.content ?? {};
  if (!(type in documented)) {
    recordContractViolation(
      `${name}: content type ${type || '(none)'} is not documented (${Object.keys(documented).join(', ') || 'no body'})`,
    );
    return;
  }
  // A stream or a file: its status and type are checked, not its bytes.
  if (type !== JSON_TYPE || text === undefined) return;
  const schema = documented[type]?.schema;
  if (!schema) return;
  let body: unknown;
  try {
    body = JSON.parse(text ?? (payload as Buffer).toString('utf8'));
  } catch {
    recordContractViolation(`${name}: the body is not JSON`);
    return;
  }
  const problem = check.firstProblem(schema, body);
  if (problem) recordContractViolation(`${name}: the body does not match its schema: ${problem}`);
}

function checkHeaders(name: string, reply: FastifyReply, answer: OpenApiResponse): void {
  const declared = new Set(Object.keys(answer.headers ?? {}).map((header) => header.toLowerCase()));
  for (const header of Object.keys(reply.getHeaders())) {
    const lower = header.toLowerCase();
    if (DECLARED_HEADERS.has(lower) && !declared.has(lower)) {
      recordContractViolation(`${name}: the header ${header} is sent but not declared for this answer`);
    }
  }
}

/**
 * Each webhook body a test file's changes recorded (webhook_events holds the very bytes every
 * attempt sends) against the document's `webhooks` section: its event type must be documented,
 * and the body must match that type's schema.
 */
export function checkWebhookBodies(
  doc: OpenApiDocument,
  events: ReadonlyArray<{ type: string; body: string }>,
): void {
  const { check } = checkerOf(doc);
  const webhooks = (doc.webhooks ?? {}) as Record<
    string,
    { post?: { requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> } } }
  >;
  for (const { type, body } of events) {
    const schema = webhooks[type]?.post?.requestBody?.content?.[JSON_TYPE]?.schema;
    if (!schema) {
      recordContractViolation(`webhook ${type}: the event type is not in the document's webhooks`);
      continue;
    }
    const problem = check.firstProblem(schema, JSON.parse(body));
    if (problem) recordContractViolation(`webhook ${type}: the body does not match its schema: ${problem}`);
  }
}
