import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, createAdmin, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, testDeps } from '../test/harness';
import { accessOf, type Meta } from '../trpc/init';
import { inputSchemaOf, procedureMetaOf, proceduresOf } from '../trpc/internals';
import { appRouter } from '../trpc/router';
import { pathParamNames } from './adapter';
import { restRoutesOf } from './routes';

/** The REST paths the procedures declare, as the running app serves them. */

const restRoutes = restRoutesOf(appRouter);

const database = setupTestDatabase();
let app: FastifyInstance;
beforeAll(() => {
  app = buildTestApp(testDeps(database.db));
});
afterAll(() => app.close());

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe("the procedures' REST paths", () => {
  it('has no two procedures on one method and path', () => {
    const keys = restRoutes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('lists exactly the procedures whose meta declares a REST path, each with a scope', () => {
    const declared = [...proceduresOf(appRouter)]
      .filter(([, procedure]) => procedureMetaOf<Meta>(procedure)?.rest)
      .map(([path]) => path);
    expect(restRoutes.map((route) => route.procedurePath)).toEqual(declared);
    for (const route of restRoutes) expect(route.scope, route.procedurePath).toBeTruthy();
  });

  it("names in each path only fields of its procedure's input", () => {
    for (const route of restRoutes) {
      const input = inputSchemaOf(route.procedure) as { shape?: Record<string, unknown> } | undefined;
      const fields = Object.keys(input?.shape ?? {});
      for (const name of pathParamNames(route.path)) {
        expect(fields, `${route.method} ${route.path}: :${name}`).toContain(name);
      }
    }
  });

  it('every one is in the OpenAPI document, with bearer auth exactly when the procedure needs it (security: [] otherwise), and an API key where its scope lets keys call it', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const route of restRoutes) {
      const operation = document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      const where = `${route.method} ${route.path}`;
      expect(operation, where).toBeDefined();
      if (accessOf(route.procedure) === 'public') {
        expect(operation.security, where).toEqual([]);
        // No credential needed, but a key sent along is held to the path's scope.
        if (route.scope !== 'any') expect(operation.responses, where).toHaveProperty('403');
      } else if (route.scope === 'personal') {
        expect(operation.security, where).toEqual([{ bearerAuth: [] }]);
        expect(operation['x-required-scopes'], where).toBeUndefined();
        expect(operation.responses, where).toHaveProperty('403');
      } else {
        expect(operation.security, where).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
        expect(operation['x-required-scopes'], where).toEqual(route.scope === 'any' ? [] : [route.scope]);
        if (route.scope !== 'any') expect(operation.responses, where).toHaveProperty('403');
      }
    }
  });

  it('includes every documented auth and user path', () => {
    const listed = restRoutes.map((route) => `${route.method} ${route.path}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        'POST /api/auth/register',
        'POST /api/auth/verify-email',
        'POST /api/auth/verify-email/resend',
        'POST /api/auth/login',
        'POST /api/auth/refresh',
        'POST /api/auth/logout',
        'POST /api/auth/reset',
        'POST /api/auth/reset/confirm',
        'GET /api/settings/getUser/:userId',
        'GET /api/users',
        'GET /api/users/activate/:id',
        'GET /api/users/deactivated/:id',
      ]),
    );
  });

  it('a literal `search` segment is never taken for an id: search and history both answer', async () => {
    // The documented paths overlap (Redocly's no-ambiguous-paths, accepted in .redocly.lint-ignore.yaml).
    const admin = await createAdmin(database.db);
    const agent = await createUser(database.db);
    const created = await createTransaction(database.db, {
      userId: agent.id,
      streetAddress: '1 History Lane',
    });
    const headers = { authorization: `Bearer ${await accessTokenFor(admin)}` };
    const search = await app.inject({ url: '/api/admin/transactions/search/history', headers });
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().transactions.map((t: { _id: string }) => t._id)).toEqual([created.id]);
    const history = await app.inject({ url: `/api/admin/transactions/${created.id}/history`, headers });
    expect(history.statusCode, history.body).toBe(200);
  });
});
