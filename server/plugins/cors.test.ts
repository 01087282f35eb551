import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../test/api-calls';
import { accessTokenFor, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../test/harness';

/**
 * CORS for browser integrations: an origin CORS_ORIGINS names gets its preflight answered and
 * may read the answers of /api; any other origin, and every path outside /api, gets no CORS
 * header at all (so the browser keeps the answer from the page). Unset, nothing is shared.
 */

const database = setupTestDatabase();
const CRM = 'https://crm.example.com';
const clock = new TestClock();
let app: FastifyInstance;
let closed: FastifyInstance;

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock, config: testConfig({ corsOrigins: [CRM] }) }));
  closed = buildTestApp(testDeps(database.db));
});
afterAll(async () => {
  await app?.close();
  await closed?.close();
});

const preflight = (target: FastifyInstance, url: string, origin: string) =>
  target.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, idempotency-key',
    },
  });

describe('CORS', () => {
  it('answers the preflight of a named origin on /api with the methods and headers it may use', async () => {
    const res = await preflight(app, '/api/transactions', CRM);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(CRM);
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('idempotency-key');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['access-control-max-age']).toBe('600');
  });

  it('lets the named origin read an answer and its request id', async () => {
    const agent = await createUser(database.db);
    const res = await app.inject({
      method: 'GET',
      url: `/api/settings/getUser/${agent.id}`,
      headers: { origin: CRM, ...bearer(await accessTokenFor(agent, { now: clock.now() })) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(CRM);
    expect(String(res.headers['access-control-expose-headers'])).toContain('X-Request-Id');
  });

  it('shares nothing with another origin, outside /api, or when no origin is configured', async () => {
    for (const res of [
      await preflight(app, '/api/transactions', 'https://evil.example.com'),
      await preflight(app, '/trpc/transactions.list', CRM),
      await preflight(closed, '/api/transactions', CRM),
    ]) {
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});
