import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, complianceMessages, integrationMessages } from '../../shared/messages';
import type { CreatedApiKeyAnswer } from '../../shared/schemas/api-keys';
import { apiError } from '../../shared/schemas/common';
import { bearer } from '../test/api-calls';
import {
  accessTokenFor,
  createAdmin,
  createTemplate,
  createTransaction,
  createUser,
} from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../test/harness';
import { type Actor, restCalls } from '../test/rest-calls';

/**
 * Each published error id, over HTTP on a real path of the product: the body is the one error
 * shape, with `error` beside `code`, and the id is the one integrators switch on.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-28T12:00:00.000Z'));
const RUN = Date.now().toString(36);
const TYPE = `ErrorIds-${RUN}`;
let app: FastifyInstance;
let admin: Actor;
let agent: Actor;

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  admin = await createAdmin(database.db);
  agent = await createUser(database.db);
  await createTemplate(database.db, { type: TYPE, role: 'Seller', documents: ['Disclosure'] });
});
afterAll(() => app?.close());

const { call } = restCalls(() => app, clock);

/** The body, checked against the published error schema (no field beyond it). */
function errorOf(res: LightMyRequestResponse, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  return apiError.strict().parse(res.json());
}

const newDeal = (documents: string[]) =>
  createTransaction(database.db, { userId: agent.id, documents, streetAddress: `${RUN} Error Ids Rd` });

describe('each error id over HTTP', () => {
  it('validation: a query parameter that is not a number', async () => {
    const body = errorOf(await call('GET', '/api/users?limit=abc', admin), 400);
    expect(body).toEqual({
      message: 'limit must be a number',
      code: 'BAD_REQUEST',
      error: 'validation',
      issues: [{ path: 'limit', message: 'limit must be a number' }],
    });
  });

  it("query parameters are refused in the portal's words, never in the validator's", async () => {
    const cases: Array<[string, string]> = [
      ['/api/users?limit=0', 'limit must be at least 1'],
      ['/api/users?limit=2.5', 'limit must be a whole number'],
      ['/api/users?limit=1000', 'limit must be at most 100'],
      ['/api/users?page=two', 'page must be a number'],
      ['/api/users?query=a&query=b', 'query must be given once'],
      [`/api/users?query=${'x'.repeat(201)}`, 'query cannot exceed 200 characters'],
      [
        '/api/admin/transactions?status=open',
        'status must be one of needs-review, rejected, missing, compliant, closed',
      ],
      ['/api/admin/audit?limit=many', 'limit must be a number'],
    ];
    for (const [url, message] of cases) {
      const body = errorOf(await call('GET', url, admin), 400);
      expect(body, url).toMatchObject({ message, code: 'BAD_REQUEST', error: 'validation' });
      expect(JSON.stringify(body), url).not.toMatch(/expected|received|Invalid input|Too (big|small)/);
    }
  });

  it('unauthenticated: no token', async () => {
    expect(errorOf(await call('GET', '/api/users'), 401)).toEqual({
      message: apiMessages.notSignedIn,
      code: 'UNAUTHORIZED',
      error: 'unauthenticated',
    });
  });

  it('forbidden: an agent on an admin path', async () => {
    expect(errorOf(await call('GET', '/api/users', agent), 403)).toEqual({
      message: apiMessages.forbidden,
      code: 'FORBIDDEN',
      error: 'forbidden',
    });
  });

  it('missing-scope: an API key without the scope the path needs; not-for-api-keys on a personal path', async () => {
    const created = await call('POST', '/api/admin/api-keys', admin, {
      name: `Books ${RUN}`,
      scopes: ['transactions:read'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { key } = created.json() as CreatedApiKeyAnswer;
    const withKey = (url: string) =>
      app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

    expect(errorOf(await withKey('/api/users'), 403)).toEqual({
      message: integrationMessages.lacksScope('users:read'),
      code: 'FORBIDDEN',
      error: 'missing-scope',
    });
    expect(errorOf(await withKey('/api/admin/api-keys'), 403)).toEqual({
      message: integrationMessages.notForApiKeys,
      code: 'FORBIDDEN',
      error: 'not-for-api-keys',
    });
    // The scope it holds still opens its paths.
    expect((await withKey('/api/admin/transactions')).statusCode).toBe(200);
  });

  it('not-found: a transaction that does not exist', async () => {
    const body = errorOf(
      await call('GET', '/api/admin/transactions/individual/00000000-0000-4000-8000-000000000000', admin),
      404,
    );
    expect(body).toMatchObject({ code: 'NOT_FOUND', error: 'not-found' });
  });

  it('conflict: closing a transaction already closed', async () => {
    const deal = await newDeal([]);
    expect((await call('POST', `/api/admin/transactions/${deal.id}/close`, admin)).statusCode).toBe(200);
    expect(errorOf(await call('POST', `/api/admin/transactions/${deal.id}/close`, admin), 409)).toEqual({
      message: complianceMessages.alreadyClosed,
      code: 'CONFLICT',
      error: 'conflict',
    });
  });

  it('not-compliant: closing a transaction with a required item still open', async () => {
    const deal = await newDeal(['Purchase Agreement']);
    expect(errorOf(await call('POST', `/api/admin/transactions/${deal.id}/close`, admin), 409)).toEqual({
      message: complianceMessages.notCompliant(1),
      code: 'CONFLICT',
      error: 'not-compliant',
    });
    const row = await database.db.transaction.findUniqueOrThrow({ where: { id: deal.id } });
    expect(row.closedAt).toBeNull();
  });

  it('rate-limited: a call over RATE_LIMIT_PER_MIN', async () => {
    const limited = buildTestApp(
      testDeps(database.db, { clock, config: testConfig({ rateLimitPerMin: 2 }) }),
    );
    try {
      const statuses: number[] = [];
      let last: LightMyRequestResponse | undefined;
      for (let i = 0; i < 3; i++) {
        last = await limited.inject({ method: 'GET', url: '/api/users' });
        statuses.push(last.statusCode);
      }
      expect(statuses).toEqual([401, 401, 429]);
      expect(errorOf(last as LightMyRequestResponse, 429)).toMatchObject({
        code: 'TOO_MANY_REQUESTS',
        error: 'rate-limited',
      });
    } finally {
      await limited.close();
    }
  });

  it('idempotency-mismatch: an Idempotency-Key reused with another body', async () => {
    const deal = (street: string) => ({
      type: TYPE,
      role: 'Seller',
      streetAddress: street,
      city: 'Portland',
      state: 'ME',
      zip: '04101',
    });
    const post = async (street: string) =>
      app.inject({
        method: 'POST',
        url: '/api/transactions',
        payload: deal(street),
        headers: {
          ...bearer(await accessTokenFor(agent, { now: clock.now() })),
          'idempotency-key': `error-ids-${RUN}`,
        },
      });
    expect((await post(`1 First St ${RUN}`)).statusCode).toBe(201);
    expect(errorOf(await post(`2 Second St ${RUN}`), 422)).toEqual({
      message: integrationMessages.idempotencyMismatch,
      code: 'UNPROCESSABLE',
      error: 'idempotency-mismatch',
    });
    expect(await database.db.transaction.count({ where: { streetAddress: `2 Second St ${RUN}` } })).toBe(0);
  });

  it('payload-too-large: a JSON body over 1 MiB', async () => {
    const res = await call('POST', '/api/transactions', agent, {
      streetAddress: 'x'.repeat(1024 * 1024 + 10),
    });
    expect(errorOf(res, 413)).toEqual({
      message: apiMessages.payloadTooLarge,
      code: 'PAYLOAD_TOO_LARGE',
      error: 'payload-too-large',
    });
  });
});
