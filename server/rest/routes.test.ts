import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, createAdmin, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, testDeps } from '../test/harness';
import { accessOf } from '../trpc/init';
import { restRoutes } from './routes';

/** The documented table as the running app serves it. */

const database = setupTestDatabase();
let app: FastifyInstance;
beforeAll(() => {
  app = buildTestApp(testDeps(database.db));
});
afterAll(() => app.close());

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('the REST table', () => {
  it('has no two rows for one method and path', () => {
    const keys = restRoutes.map((route) => `${route.method} ${route.url}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('every row is in the OpenAPI document, with bearer auth exactly when the procedure needs it (security: [] otherwise)', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const route of restRoutes) {
      const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.url}`).toBeDefined();
      expect(operation.security, `${route.method} ${route.url}`).toEqual(
        accessOf(route.procedure) === 'public' ? [] : [{ bearerAuth: [] }],
      );
    }
  });

  it('includes every auth path of the spec and of docs/API.md', () => {
    const listed = restRoutes.map((route) => `${route.method} ${route.url}`);
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
    // The spec's paths overlap (Redocly's no-ambiguous-paths, accepted in .redocly.lint-ignore.yaml).
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
