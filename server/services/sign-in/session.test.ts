import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps';
import { createUser, DEFAULT_PASSWORD } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { openSession } from './session';

/**
 * A session keeps how its sign-in proved a second factor: the first access token says so, and so
 * does every token a refresh or a password change in that session hands out; a password alone
 * says nothing.
 */

const database = setupTestDatabase();
let app: FastifyInstance;
let deps: AppDeps;

beforeAll(async () => {
  deps = testDeps(database.db, { clock: new TestClock() });
  app = await buildTestApp(deps);
});
afterAll(() => app?.close());

const mfaOf = (token: string) => decodeJwt(token).mfa;

async function refreshed(refreshToken: string) {
  const res = await app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
  expect(res.statusCode).toBe(200);
  return res.json<{ token: string; refreshToken: string }>();
}

describe('sessions and the second factor', () => {
  it('carries the second factor of the sign-in through refreshes and a password change', async () => {
    const user = await createUser(database.db);
    const opened = await openSession(deps, { ...user, officeId: null }, 'totp');
    expect(mfaOf(opened.token)).toBe('totp');

    const first = await refreshed(opened.refreshToken);
    expect(mfaOf(first.token)).toBe('totp');
    const stored = await database.db.refreshToken.findMany({
      where: { userId: user.id },
      select: { secondFactor: true },
    });
    expect(stored.map((row) => row.secondFactor)).toEqual(['totp', 'totp']);

    const changed = await app.inject({
      method: 'POST',
      url: `/api/settings/changePassword/${user.id}`,
      headers: { authorization: `Bearer ${first.token}` },
      payload: {
        currentPassword: DEFAULT_PASSWORD,
        password: 'A new passphrase 2026!',
        confirmPassword: 'A new passphrase 2026!',
      },
    });
    expect(changed.statusCode).toBe(200);
    expect(mfaOf(changed.json<{ token: string }>().token)).toBe('totp');
  });

  it('says nothing of a second factor for a password sign-in, nor after its refresh', async () => {
    const user = await createUser(database.db);
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: DEFAULT_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const session = res.json<{ token: string; refreshToken: string }>();
    expect(mfaOf(session.token)).toBeUndefined();
    expect(mfaOf((await refreshed(session.refreshToken)).token)).toBeUndefined();
  });
});
