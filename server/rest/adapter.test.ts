import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { API_ERROR_IDS, idSchema, messageAnswer, pagingInput } from '../../shared/schemas/common';
import { accessTokenFor, createAdmin } from '../test/factories';
import { buildTestApp, setupTestDatabase, testDeps } from '../test/harness';
import { testRest } from '../test/rest-meta';
import { adminProcedure, protectedProcedure, publicProcedure, router } from '../trpc/init';
import { restPlugin } from './adapter';
import { BEARER, type OperationFacts } from './openapi';

const thing = z.object({ _id: idSchema, name: z.string(), page: z.number(), limit: z.number() });
const thingsRouter = router({
  things: router({
    get: protectedProcedure
      .meta(testRest('GET', '/api/things/:id', { summary: 'One thing', tag: 'things' }))
      .input(pagingInput.extend({ id: idSchema }))
      .output(thing)
      .query(({ input }) => ({ _id: input.id, name: 'Thing', page: input.page, limit: input.limit })),
    rename: adminProcedure
      .meta(
        testRest('PUT', '/api/things/:id', { summary: 'Rename a thing', tag: 'things', successStatus: 201 }),
      )
      .input(z.object({ id: idSchema, name: z.string().min(1) }))
      .output(thing)
      .mutation(({ input }) => ({ _id: input.id, name: input.name, page: 1, limit: 10 })),
    remove: adminProcedure
      .meta(
        testRest('DELETE', '/api/things/:id', {
          summary: 'Remove a thing',
          tag: 'things',
          successStatus: 204,
        }),
      )
      .input(z.object({ id: idSchema }))
      .mutation(() => undefined),
    /** Refined across fields, like the password forms: only the procedure's schema can check it. */
    setCode: adminProcedure
      .meta(testRest('POST', '/api/things/:id/code', { summary: 'Set a code', tag: 'things' }))
      .input(
        z
          .object({ id: idSchema, code: z.string(), confirmCode: z.string() })
          .refine((value) => value.code === value.confirmCode, {
            error: 'Codes do not match',
            path: ['confirmCode'],
          }),
      )
      .output(messageAnswer)
      .mutation(({ input }) => ({ message: `${input.id}:${input.code}` })),
  }),
  version: publicProcedure
    .meta(testRest('GET', '/api/version', { summary: 'Version', tag: 'meta', scope: 'any' }))
    .output(messageAnswer)
    .query(() => ({ message: '1.0' })),
  /** Callable over tRPC only: its meta declares no REST path. */
  unmounted: protectedProcedure.output(messageAnswer).query(() => ({ message: 'tRPC only' })),
  /** Answers the fields its input arrived with (a loose object: unknown ones, inherited too, kept). */
  echo: protectedProcedure
    .meta(testRest('GET', '/api/echo/:id', { summary: 'Echo', tag: 'meta' }))
    .input(z.looseObject({ id: idSchema }))
    .output(z.object({ fields: z.array(z.string()) }))
    .query(({ input }) => ({ fields: Object.keys(input).sort() })),
});

/** A body's schema, following its reference to components.schemas. */
function schemaOf(
  doc: { components: { schemas: Record<string, unknown> } },
  media: { schema: { $ref?: string } },
) {
  const ref = media.schema.$ref;
  return (ref ? doc.components.schemas[ref.replace('#/components/schemas/', '')] : media.schema) as {
    properties: Record<string, unknown>;
    required: string[];
  };
}

const database = setupTestDatabase();
let app: FastifyInstance;
let adminToken: string;
const id = '6f1c2b9e-4d3a-4c1b-9a7e-1234567890ab';

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db), { api: { router: thingsRouter } });
  adminToken = await accessTokenFor(await createAdmin(database.db));
});
afterAll(() => app.close());

const auth = () => ({ authorization: `Bearer ${adminToken}` });

describe('REST adapter', () => {
  test('path, query and body reach the procedure; query strings are coerced by its schema', async () => {
    const res = await app.inject({ url: `/api/things/${id}?page=3&limit=20`, headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ _id: id, name: 'Thing', page: 3, limit: 20 });

    const defaults = await app.inject({ url: `/api/things/${id}`, headers: auth() });
    expect(defaults.json()).toMatchObject({ page: 1, limit: 10 });

    const bad = await app.inject({ url: `/api/things/${id}?page=0`, headers: auth() });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toEqual([{ path: 'page', message: expect.any(String) }]);
  });

  test('the success status of the row is used; 204 has no body', async () => {
    const renamed = await app.inject({
      method: 'PUT',
      url: `/api/things/${id}`,
      payload: { name: 'New' },
      headers: auth(),
    });
    expect(renamed.statusCode).toBe(201);
    expect(renamed.json()).toMatchObject({ _id: id, name: 'New' });

    const removed = await app.inject({ method: 'DELETE', url: `/api/things/${id}`, headers: auth() });
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
  });

  test('a path parameter wins over a body field of the same name', async () => {
    const other = '0e7d8c9b-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
    const res = await app.inject({
      method: 'PUT',
      url: `/api/things/${id}`,
      payload: { id: other, name: 'Moved' },
      headers: auth(),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ _id: id, name: 'Moved' });
  });

  test('a query field named __proto__ stays a field: it cannot give the input a prototype', async () => {
    // Repeated, the query string makes it an array: assigned rather than defined, it would have
    // become the prototype of the procedure's input, and its items inherited fields ("0", "1").
    const res = await app.inject({ url: `/api/echo/${id}?__proto__=a&__proto__=b&x=1`, headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ fields: ['id', 'x'] });
  });

  test('a body that is not an object reaches the procedure as it is, which names the problem', async () => {
    for (const payload of ['"New"', '[1, 2]', '42']) {
      const res = await app.inject({
        method: 'PUT',
        url: `/api/things/${id}`,
        payload,
        headers: { ...auth(), 'content-type': 'application/json' },
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json(), payload).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: '' }] });
    }
    // No body at all is an object with the path parameters only: the missing field is named.
    const empty = await app.inject({ method: 'PUT', url: `/api/things/${id}`, headers: auth() });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues).toEqual([{ path: 'name', message: expect.any(String) }]);
  });

  test("a refined input is documented field by field and still validated by the procedure's schema", async () => {
    const mismatch = await app.inject({
      method: 'POST',
      url: `/api/things/${id}/code`,
      payload: { code: 'a', confirmCode: 'b' },
      headers: auth(),
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().issues).toEqual([{ path: 'confirmCode', message: 'Codes do not match' }]);
    const set = await app.inject({
      method: 'POST',
      url: `/api/things/${id}/code`,
      payload: { code: 'a', confirmCode: 'a' },
      headers: auth(),
    });
    expect(set.json()).toEqual({ message: `${id}:a` });

    const doc = (await app.inject('/api/openapi.json')).json();
    const body = schemaOf(
      doc,
      doc.paths['/api/things/{id}/code'].post.requestBody.content['application/json'],
    );
    expect(Object.keys(body.properties).sort()).toEqual(['code', 'confirmCode']);
    expect(body.required.sort()).toEqual(['code', 'confirmCode']);
  });

  test('a path parameter that is not a field of the input stops the app from starting', async () => {
    const misnamed = router({
      get: protectedProcedure
        .meta(testRest('GET', '/api/things/:thingId'))
        .input(z.object({ id: idSchema }))
        .output(thing)
        .query(() => ({ _id: id, name: 'Thing', page: 1, limit: 10 })),
    });
    const broken = buildTestApp(testDeps(database.db), { api: { router: misnamed } });
    await expect(broken.ready()).rejects.toThrow(
      "REST route GET /api/things/:thingId: the path parameter :thingId is not a field of get's input",
    );
  });

  test('a procedure without an .output() schema cannot have a REST path (its answer would be undocumented)', async () => {
    const bare = router({
      loose: publicProcedure.meta(testRest('GET', '/api/loose')).query(() => ({ anything: true })),
    });
    const broken = buildTestApp(testDeps(database.db), { api: { router: bare } });
    await expect(broken.ready()).rejects.toThrow(
      'REST route GET /api/loose: loose declares no .output() schema to document its answer',
    );
  });

  test('two procedures declaring one method and path stop the app from starting', async () => {
    const twice = router({
      one: publicProcedure
        .meta(testRest('GET', '/api/twice'))
        .output(z.number())
        .query(() => 1),
      other: publicProcedure
        .meta(testRest('GET', '/api/twice'))
        .output(z.number())
        .query(() => 2),
    });
    const broken = buildTestApp(testDeps(database.db), { api: { router: twice } });
    await expect(broken.ready()).rejects.toThrow(
      'REST route GET /api/twice is declared by both one and other',
    );
  });

  test('a REST path without an API key scope does not compile', () => {
    publicProcedure.meta({
      // @ts-expect-error `scope` is required: what may an API key do with this path?
      rest: { method: 'GET', path: '/api/unscoped', summary: 's', tag: 't', examples: {} },
    });
  });

  test('a documented route of its own that takes a bearer token but declares no scope stops the app', async () => {
    const unscoped: FastifyPluginAsync = async (extension) => {
      const facts = { operationId: 'unscoped', security: BEARER, 'x-errors': [401, 429] };
      extension.get('/api/unscoped', { schema: { ...(facts as Partial<OperationFacts>) } }, async () => ({}));
    };
    const bare = Fastify({ logger: false });
    bare.register(restPlugin, {
      deps: testDeps(database.db),
      router: router({}),
      version: 'test',
      extensions: [unscoped],
    });
    await expect(bare.ready()).rejects.toThrow('No API key scope is declared for GET /api/unscoped');
    await bare.close();
  });

  test('a DELETE declaring deleteWithBody takes its input from the JSON body, never the query string', async () => {
    const secretive = router({
      forget: publicProcedure
        .meta(testRest('DELETE', '/api/secrets/:id', { deleteWithBody: true }))
        .input(z.object({ id: z.string(), password: z.string().optional() }))
        .output(z.object({ id: z.string(), password: z.string().nullable() }))
        .mutation(({ input }) => ({ id: input.id, password: input.password ?? null })),
    });
    const withBody = buildTestApp(testDeps(database.db), { api: { router: secretive } });
    const sent = await withBody.inject({
      method: 'DELETE',
      url: '/api/secrets/7',
      payload: { password: 'p4ss' },
    });
    expect(sent.json()).toEqual({ id: '7', password: 'p4ss' });
    const inUrl = await withBody.inject({ method: 'DELETE', url: '/api/secrets/7?password=p4ss' });
    expect(inUrl.json()).toEqual({ id: '7', password: null });
    const doc = (await withBody.inject('/api/openapi.json')).json();
    expect(doc.paths['/api/secrets/{id}'].delete.requestBody).toBeDefined();
    await withBody.close();
  });

  test('a procedure without REST facts has no REST path', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/unmounted' });
    expect(res.statusCode).toBe(404);
    const doc = (await app.inject('/api/openapi.json')).json();
    const described = Object.values(doc.paths).flatMap((item) =>
      Object.values(item as Record<string, { description?: string }>).map(
        (operation) => operation.description,
      ),
    );
    expect(described.some((text) => text?.includes('`unmounted`'))).toBe(false);
  });

  test('the OpenAPI document describes each row from its schemas and its procedure', async () => {
    const doc = (await app.inject('/api/openapi.json')).json();
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/echo/{id}',
      '/api/things/{id}',
      '/api/things/{id}/code',
      '/api/version',
    ]);

    const get = doc.paths['/api/things/{id}'].get;
    expect(get.summary).toBe('One thing');
    expect(get.description).toBe(
      'Calls the tRPC procedure `things.get`. Access: any signed-in user. API keys: refused (403); only a signed-in person may call it.',
    );
    expect(get.operationId).toBe('thingsGet');
    expect(get.security).toEqual([{ bearerAuth: [] }]);
    expect(get.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`).sort()).toEqual([
      'path:id',
      'query:limit',
      'query:page',
    ]);
    // The query's bounds are the procedure's own: what the server enforces is what is documented.
    const limit = get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 100, default: 10 });
    expect(schemaOf(doc, get.responses['200'].content['application/json']).properties).toHaveProperty('_id');
    // Its 4xx: input (400), a session (401), a path API keys may not call (403), an id in the path
    // (404), the rate limit (429); each refers to one documented answer with the one error schema.
    expect(Object.keys(get.responses).sort()).toEqual(['200', '400', '401', '403', '404', '429', '5XX']);
    expect(get['x-required-scopes']).toBeUndefined();
    expect(get.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(doc.components.responses.NotFound.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(doc.components.schemas.Error.required).toEqual(['message', 'code', 'error']);
    // Every published error id is documented, for a generated client to switch on.
    expect(doc.components.schemas.Error.properties.error.enum).toEqual([...API_ERROR_IDS]);

    const put = doc.paths['/api/things/{id}'].put;
    expect(put.description).toContain('Access: admins');
    // The body is the input without the path parameters.
    expect(Object.keys(schemaOf(doc, put.requestBody.content['application/json']).properties)).toEqual([
      'name',
    ]);
    expect(put.responses).toHaveProperty('201');
    // Admin procedures add 403.
    expect(put.responses).toHaveProperty('403');
    // A body: 413 (too large) and 415 (not JSON) too.
    expect(put.responses).toHaveProperty('413');
    expect(put.responses).toHaveProperty('415');
    const remove = doc.paths['/api/things/{id}'].delete;
    expect(remove.responses['204']).toEqual({
      description: 'No content',
      headers: expect.objectContaining({ 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } }),
    });
    expect(remove.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true })]);

    const version = doc.paths['/api/version'].get;
    expect(version.security).toEqual([]);
    expect(version.operationId).toBe('version');
    // Public: 401 only for an API key that no longer works.
    expect(Object.keys(version.responses).sort()).toEqual(['200', '401', '429', '5XX']);
    expect(version.description).toContain('Access: anyone');
  });
});
