import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { idSchema, messageAnswer, pagingInput } from '../../shared/schemas/common';
import { accessTokenFor, createAdmin } from '../test/factories';
import { buildTestApp, setupTestDatabase, testDeps } from '../test/harness';
import { adminProcedure, protectedProcedure, publicProcedure, router } from '../trpc/init';
import { type RestRoute, restRoute } from './adapter';

const thing = z.object({ _id: idSchema, name: z.string(), page: z.number(), limit: z.number() });
const thingsRouter = router({
  things: router({
    get: protectedProcedure
      .input(pagingInput.extend({ id: idSchema }))
      .output(thing)
      .query(({ input }) => ({ _id: input.id, name: 'Thing', page: input.page, limit: input.limit })),
    rename: adminProcedure
      .input(z.object({ id: idSchema, name: z.string().min(1) }))
      .output(thing)
      .mutation(({ input }) => ({ _id: input.id, name: input.name, page: 1, limit: 10 })),
    remove: adminProcedure.input(z.object({ id: idSchema })).mutation(() => undefined),
  }),
  version: publicProcedure.output(messageAnswer).query(() => ({ message: '1.0' })),
});

const routes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/things/:id',
    summary: 'One thing',
    tag: 'things',
    procedure: thingsRouter.things.get,
    input: ({ params, query }) => ({ ...(query as object), id: params.id ?? '' }),
    params: z.object({ id: idSchema }),
    query: pagingInput,
    response: thing,
  }),
  restRoute({
    method: 'PUT',
    url: '/api/things/:id',
    summary: 'Rename a thing',
    tag: 'things',
    procedure: thingsRouter.things.rename,
    input: ({ params, body }) => ({ ...(body as { name: string }), id: params.id ?? '' }),
    params: z.object({ id: idSchema }),
    body: z.object({ name: z.string() }),
    response: thing,
    successStatus: 201,
  }),
  restRoute({
    method: 'DELETE',
    url: '/api/things/:id',
    summary: 'Remove a thing',
    tag: 'things',
    procedure: thingsRouter.things.remove,
    input: ({ params }) => ({ id: params.id ?? '' }),
    successStatus: 204,
  }),
  restRoute({
    method: 'GET',
    url: '/api/version',
    summary: 'Version',
    tag: 'meta',
    procedure: thingsRouter.version,
    response: messageAnswer,
  }),
];

const database = setupTestDatabase();
let app: FastifyInstance;
let adminToken: string;
const id = '6f1c2b9e-4d3a-4c1b-9a7e-1234567890ab';

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db), { api: { router: thingsRouter, routes } });
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

  test('a row whose procedure is not in the mounted router stops the app from starting', async () => {
    const stray = router({ other: publicProcedure.query(() => 1) });
    const broken = buildTestApp(testDeps(database.db), {
      api: {
        router: thingsRouter,
        routes: [
          restRoute({ method: 'GET', url: '/api/stray', summary: 's', tag: 't', procedure: stray.other }),
        ],
      },
    });
    await expect(broken.ready()).rejects.toThrow(
      'REST route GET /api/stray calls a procedure that is not in the mounted router',
    );
  });

  test('the OpenAPI document describes each row from its schemas and its procedure', async () => {
    const doc = (await app.inject('/api/openapi.json')).json();
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/things/{id}', '/api/version']);

    const get = doc.paths['/api/things/{id}'].get;
    expect(get.summary).toBe('One thing');
    expect(get.description).toBe('Calls the tRPC procedure `things.get`. Access: any signed-in user.');
    expect(get.security).toEqual([{ bearerAuth: [] }]);
    expect(get.parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`).sort()).toEqual([
      'path:id',
      'query:limit',
      'query:page',
    ]);
    expect(get.responses['200'].content['application/json'].schema.properties).toHaveProperty('_id');
    expect(get.responses['4XX'].content['application/json'].schema.required).toEqual(['message', 'code']);

    const put = doc.paths['/api/things/{id}'].put;
    expect(put.description).toContain('Access: admins');
    expect(put.requestBody.content['application/json'].schema.properties).toHaveProperty('name');
    expect(put.responses).toHaveProperty('201');
    const remove = doc.paths['/api/things/{id}'].delete;
    expect(remove.responses['204']).toEqual({ description: 'No content' });
    // The row gave no params schema: the adapter describes the path parameter itself.
    expect(remove.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true })]);

    const version = doc.paths['/api/version'].get;
    expect(version.security).toBeUndefined();
    expect(version.description).toContain('Access: anyone');
  });
});
