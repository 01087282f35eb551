import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../shared/schemas/webhook-events';
import { buildTestApp, setupTestDatabase, testDeps } from '../test/harness';
import {
  documentOperations,
  documentValidator,
  type OpenApiDocument,
  type OpenApiOperation,
} from '../test/openapi-schemas';

/**
 * What the served document promises an integrator's tools beyond its paths' bodies: declared tags,
 * the API key's scheme and scopes, every answer's headers, the statuses a body brings, the
 * webhooks and their bodies, and the calendar's range. server/rest/openapi.test.ts calls every
 * operation; server/test/contract.ts checks every answer of the server suite.
 */

const database = setupTestDatabase();
let app: FastifyInstance;
let doc: OpenApiDocument;
let check: ReturnType<typeof documentValidator>;

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db));
  doc = (await app.inject('/api/openapi.json')).json();
  check = documentValidator(doc);
});
afterAll(() => app.close());

const JSON_TYPE = 'application/json';
const label = (method: string, path: string, operation: OpenApiOperation) =>
  operation.operationId ?? `${method.toUpperCase()} ${path}`;

describe("what an integrator's tools read in the document", () => {
  const answersOf = (operation: OpenApiOperation) =>
    Object.keys(operation.responses).map((status) => ({ status, answer: check.response(operation, status) }));

  it('declares every tag an operation uses, each with a description, and tags every operation', () => {
    const declared = new Map(
      (doc.tags as Array<{ name: string; description?: string }>).map((tag) => [tag.name, tag.description]),
    );
    for (const { method, path, operation } of documentOperations(doc)) {
      const tags = operation.tags as string[] | undefined;
      expect(tags?.length, `${label(method, path, operation)} has no tag`).toBeGreaterThan(0);
      for (const tag of tags ?? []) expect(declared.get(tag), `tag ${tag}`).toMatch(/\w/);
    }
  });

  it('says what an API key needs: apiKey and x-required-scopes where keys may call, 403 where one may be refused', () => {
    for (const { method, path, operation } of documentOperations(doc)) {
      const id = label(method, path, operation);
      const schemes = (operation.security ?? []).flatMap((entry) => Object.keys(entry as object));
      if (schemes.length === 0) continue;
      const scopes = operation['x-required-scopes'] as string[] | undefined;
      if (schemes.includes('apiKey')) {
        expect(scopes, `${id}: x-required-scopes`).toBeInstanceOf(Array);
        if (scopes?.length) expect(Object.keys(operation.responses), id).toContain('403');
      } else {
        // Keys are refused: 403, and no scopes to hold.
        expect(scopes, id).toBeUndefined();
        expect(Object.keys(operation.responses), id).toContain('403');
        expect(operation.description, id).toContain('API keys: refused (403)');
      }
    }
    const apiKey = (doc.components as unknown as { securitySchemes: Record<string, { description: string }> })
      .securitySchemes.apiKey;
    expect(apiKey?.description).toContain('Authorization: Bearer bpk_');
  });

  it('declares its headers: X-Request-Id and X-RateLimit-* on every answer, Retry-After on 429, Idempotent-Replayed on POST answers', () => {
    for (const { method, path, operation } of documentOperations(doc)) {
      const id = label(method, path, operation);
      for (const { status, answer } of answersOf(operation)) {
        const headers = Object.keys(answer?.headers ?? {});
        expect(headers, `${id} ${status}`).toEqual(
          expect.arrayContaining([
            'X-Request-Id',
            'X-RateLimit-Limit',
            'X-RateLimit-Remaining',
            'X-RateLimit-Reset',
          ]),
        );
        if (status === '429') expect(headers, `${id} 429`).toContain('Retry-After');
        if (method === 'post' && status.startsWith('2'))
          expect(headers, `${id} ${status}`).toContain('Idempotent-Replayed');
      }
    }
  });

  it('documents 413 and 415 wherever a body is taken', () => {
    for (const { method, path, operation } of documentOperations(doc)) {
      if (!operation.requestBody) continue;
      expect(Object.keys(operation.responses), label(method, path, operation)).toEqual(
        expect.arrayContaining(['413', '415']),
      );
    }
  });

  it("documents 403 on every signed-in operation outside /api/auth: the owner's second-factor policy", () => {
    const signedIn = documentOperations(doc).filter(
      ({ path, operation }) =>
        !path.startsWith('/api/auth/') &&
        ((operation.security ?? []) as Array<Record<string, unknown>>).some(
          (scheme) => 'bearerAuth' in scheme,
        ),
    );
    expect(signedIn.map(({ operation }) => operation.operationId)).toContain('archivesVerify');
    for (const { method, path, operation } of signedIn) {
      expect(Object.keys(operation.responses), label(method, path, operation)).toContain('403');
    }
  });

  it('documents each webhook event type with the body it is sent with', () => {
    const webhooks = doc.webhooks as Record<string, { post: OpenApiOperation }>;
    expect(Object.keys(webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const [type, { post }] of Object.entries(webhooks)) {
      const schema = post.requestBody?.content[JSON_TYPE]?.schema ?? {};
      const body = { type, timestamp: '2026-11-21T12:00:00.000Z', data: {} };
      // The envelope takes this type only, and `data` must be the event's resource.
      expect(check.problems(schema, body), type).toMatch(/data/);
      expect(check.problems(schema, { ...body, type: 'transaction.exploded' }), type).toMatch(/type/);
    }
    // A checklist item's event carries the transactionId the item's own schema has no room for.
    const item = (doc.components.schemas.ChecklistItemEventData ?? {}) as { properties?: object };
    expect(Object.keys(item.properties ?? {})).toEqual(expect.arrayContaining(['transactionId', 'status']));
  });

  it("says GET /api/calendar's 400-day limit, and that from and to are days", () => {
    const calendar = doc.paths['/api/calendar']?.get as OpenApiOperation & {
      parameters: Array<{ name: string; schema: { format?: string } }>;
      responses: Record<string, { description?: string }>;
    };
    expect(calendar.description).toContain('400 days');
    expect(calendar.responses['400']?.description).toContain('400 days');
    for (const name of ['from', 'to']) {
      expect(calendar.parameters.find((parameter) => parameter.name === name)?.schema.format).toBe('date');
    }
  });
});
