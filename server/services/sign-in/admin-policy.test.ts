import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../../shared/messages';
import type { AppDeps } from '../../deps';
import { hashApiKeySecret, newApiKey } from '../../security/api-keys';
import { accessTokenFor, createAdmin, createOwner, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { openSession } from './session';

/**
 * The owner's policy for admins: while it is on, an admin whose session proved no second factor
 * is answered 403 everywhere but the paths that lead to one (/api/auth, its own settings) and,
 * for the owner, the policy itself; agents and admins whose session proved one are not touched,
 * and neither are API keys.
 */

const database = setupTestDatabase();
let app: FastifyInstance;
let deps: AppDeps;

beforeAll(async () => {
  deps = testDeps(database.db, { clock: new TestClock() });
  app = await buildTestApp(deps);
});
afterAll(() => app?.close());

async function call(method: 'GET' | 'PUT', url: string, token: string, payload?: object) {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
}

const setupRequired = {
  status: 403,
  body: { message: apiMessages.twoFactorSetupRequired, code: 'FORBIDDEN', error: 'second-factor-required' },
};

describe('requiring a second factor of admins', () => {
  it('lets admins read the policy and only the owner change it, audited', async () => {
    const owner = await createOwner(database.db);
    const admin = await createAdmin(database.db);
    const agent = await createUser(database.db);
    const ownerToken = await accessTokenFor(owner);
    const adminToken = await accessTokenFor(admin);
    expect(await call('GET', '/api/admin/security', adminToken)).toEqual({
      status: 200,
      body: { requireTwoFactorForAdmins: false },
    });
    const refused = await call('PUT', '/api/admin/security', adminToken, { requireTwoFactorForAdmins: true });
    expect(refused.status).toBe(403);
    expect((await call('GET', '/api/admin/security', await accessTokenFor(agent))).status).toBe(403);

    const on = await call('PUT', '/api/admin/security', ownerToken, { requireTwoFactorForAdmins: true });
    expect(on).toEqual({ status: 200, body: { requireTwoFactorForAdmins: true } });
    const events = await database.db.auditEvent.findMany({ where: { action: 'sign-in-policy.update' } });
    expect(events.map((event) => event.after)).toEqual([{ requireTwoFactorForAdmins: true }]);

    try {
      // The admin now: refused on admin paths and lists, open on /api/auth and its own settings.
      expect(await call('GET', '/api/users', adminToken)).toMatchObject(setupRequired);
      expect(await call('GET', `/api/transactions/${agent.id}`, adminToken)).toMatchObject(setupRequired);
      expect(await call('GET', '/api/admin/security', adminToken)).toMatchObject(setupRequired);
      expect(await call('GET', `/api/settings/getUser/${owner.id}`, adminToken)).toMatchObject(setupRequired);
      expect((await call('GET', `/api/settings/getUser/${admin.id}`, adminToken)).status).toBe(200);
      const status = await call('GET', '/api/auth/2fa', adminToken);
      expect(status.body).toMatchObject({ setupRequired: true });

      // The owner without a second factor can still change the policy, and nothing else.
      expect((await call('GET', '/api/admin/security', ownerToken)).status).toBe(200);
      expect(await call('GET', '/api/users', ownerToken)).toMatchObject(setupRequired);

      // Agents are not concerned; an admin whose session proved a second factor passes.
      expect((await call('GET', `/api/transactions/${agent.id}`, await accessTokenFor(agent))).status).toBe(
        200,
      );
      const proved = await openSession(deps, { ...admin, officeId: null }, 'totp');
      expect((await call('GET', '/api/users', proved.token)).status).toBe(200);
      expect((await call('GET', `/api/transactions/${agent.id}`, proved.token)).status).toBe(200);
      expect((await call('GET', '/api/auth/2fa', proved.token)).body).toMatchObject({ setupRequired: false });

      // An API key is not a session: the admin who made it made it, and it keeps working.
      const { id, secret, key } = newApiKey();
      await database.db.apiKey.create({
        data: {
          id,
          name: 'Policy key',
          scopes: ['users:read'],
          secretHash: new Uint8Array(hashApiKeySecret(secret)),
          createdBy: admin.id,
        },
      });
      expect((await call('GET', '/api/users', key)).status).toBe(200);
    } finally {
      const off = await call('PUT', '/api/admin/security', ownerToken, { requireTwoFactorForAdmins: false });
      expect(off.status).toBe(200);
    }
    expect((await call('GET', '/api/users', adminToken)).status).toBe(200);
  });
});
