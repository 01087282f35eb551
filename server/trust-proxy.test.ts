import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { TrustProxy } from './config';
import { AUTH_LIMITS } from './security/rate-limits';
import { createUser, DEFAULT_PASSWORD } from './test/factories';
import { buildTestApp, setupTestDatabase, testConfig, testDeps } from './test/harness';

/**
 * TRUST_PROXY decides which address the per-address sign-in limits count against. Behind the
 * load balancer every request arrives from the proxy, so without it all users would share one
 * budget; but believing X-Forwarded-For from anyone would let a guesser name a fresh address on
 * every attempt and never be limited. Driven through the real app and the real limits in
 * PostgreSQL: 10 failures for one account from one client address make the next attempt 429.
 */

const database = setupTestDatabase();
let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

function appTrusting(trustProxy: TrustProxy): FastifyInstance {
  app = buildTestApp(testDeps(database.db, { config: testConfig({ trustProxy }) }));
  return app;
}

type Origin = { peer: string; forwardedFor?: string };

async function signIn(email: string, password: string, { peer, forwardedFor }: Origin): Promise<number> {
  if (!app) throw new Error('build the app first');
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: peer,
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  });
  return res.statusCode;
}

const FAILURES = AUTH_LIMITS.loginFailuresPerAccount.max;

describe('TRUST_PROXY and the address the sign-in limits use', () => {
  it('unset: X-Forwarded-For is ignored, so naming a new address on every guess does not escape the limit', async () => {
    appTrusting(false);
    const user = await createUser(database.db);
    for (let i = 0; i < FAILURES; i++) {
      const status = await signIn(user.email, `wrong-${i}-pass`, {
        peer: '192.0.2.10',
        forwardedFor: `198.51.100.${i + 1}`,
      });
      expect(status).toBe(401);
    }
    expect(
      await signIn(user.email, DEFAULT_PASSWORD, { peer: '192.0.2.10', forwardedFor: '198.51.100.200' }),
    ).toBe(429);
  });

  it('a trusted proxy: each forwarded client has its own budget, and a forged entry before it changes nothing', async () => {
    appTrusting(['10.0.0.0/24']);
    const user = await createUser(database.db);
    for (let i = 0; i < FAILURES; i++) {
      const status = await signIn(user.email, `wrong-${i}-pass`, {
        peer: '10.0.0.2',
        forwardedFor: '203.0.113.7',
      });
      expect(status).toBe(401);
    }
    // Another user of the same account behind the same proxy is not locked out...
    expect(
      await signIn(user.email, DEFAULT_PASSWORD, { peer: '10.0.0.2', forwardedFor: '203.0.113.8' }),
    ).toBe(200);
    // ...the client that failed is, through either replica's proxy address...
    expect(
      await signIn(user.email, DEFAULT_PASSWORD, { peer: '10.0.0.3', forwardedFor: '203.0.113.7' }),
    ).toBe(429);
    // ...and prepending a made-up address to the header does not help it: only entries added by
    // trusted proxies count, and the right-most untrusted one is the client.
    expect(
      await signIn(user.email, DEFAULT_PASSWORD, {
        peer: '10.0.0.2',
        forwardedFor: '198.51.100.99, 203.0.113.7',
      }),
    ).toBe(429);
  });

  it('a peer outside the trusted ranges is not believed', async () => {
    appTrusting(['10.0.0.0/24']);
    const user = await createUser(database.db);
    for (let i = 0; i < FAILURES; i++) {
      const status = await signIn(user.email, `wrong-${i}-pass`, {
        peer: '192.0.2.20',
        forwardedFor: `198.51.100.${i + 1}`,
      });
      expect(status).toBe(401);
    }
    expect(
      await signIn(user.email, DEFAULT_PASSWORD, { peer: '192.0.2.20', forwardedFor: '198.51.100.201' }),
    ).toBe(429);
  });
});
