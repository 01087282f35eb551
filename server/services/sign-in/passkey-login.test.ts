import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { authMessages } from '../../../shared/messages';
import { passkeyMessages } from '../../../shared/passkey-messages';
import type { AppDeps } from '../../deps';
import { AUTH_LIMITS } from '../../security/rate-limits';
import { accessTokenFor, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../../test/harness';
import {
  assert,
  loginChallenge,
  type Page,
  post,
  registerPasskey,
  signInWithPasskey,
} from '../../test/passkey-ceremonies';
import { CHALLENGE_TTL_MS } from './webauthn-challenges';

/**
 * Signing in with a passkey, end to end through the REST paths, real PostgreSQL, real @simplewebauthn/server: the
 * software authenticator (server/test/software-authenticator.ts) makes genuine attestations and
 * signed assertions, so every check the library makes (origin, relying party, challenge,
 * signature, user verification) is the one a real browser's answer meets.
 */

const database = setupTestDatabase();
const PAGE: Page = { rpId: 'portal.test', origin: 'https://portal.test' };
let app: FastifyInstance;
let deps: AppDeps;
let clock: TestClock;

function build(config: Parameters<typeof testConfig>[0] = {}) {
  clock = new TestClock();
  deps = testDeps(database.db, { clock, config: testConfig({ appUrl: PAGE.origin, ...config }) });
  app = buildTestApp(deps);
}

beforeEach(async () => {
  await app?.close();
  await database.db.$executeRaw`DELETE FROM rate_limit_windows`;
  build();
});
afterAll(() => app?.close());

async function signedInUser(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(database.db, overrides);
  return { user, token: await accessTokenFor(user, { now: clock.now() }) };
}

function call(method: 'GET' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

describe('signing in with a passkey', () => {
  it('opens a session that proved a second factor and records the use', async () => {
    const { user, token } = await signedInUser();
    const { credential, id } = await registerPasskey(app, token, PAGE);
    clock.advance(60_000);
    const signedIn = await signInWithPasskey(app, credential, PAGE);
    expect(signedIn.statusCode).toBe(200);
    const answer = signedIn.json();
    expect(answer._id).toBe(user.id);
    expect(decodeJwt(answer.token)).toMatchObject({ sub: user.id, mfa: 'passkey' });
    const family = await database.db.refreshToken.findFirstOrThrow({ where: { userId: user.id } });
    expect(family.secondFactor).toBe('passkey');
    const row = await database.db.passkey.findUniqueOrThrow({ where: { id } });
    expect(row.counter).toBe(1n);
    expect(row.lastUsedAt?.toISOString()).toBe(clock.now().toISOString());
    // The session works: its token reads the caller's passkeys.
    expect((await call('GET', '/api/auth/passkeys', answer.token)).statusCode).toBe(200);
  });

  it('refuses a replayed answer: a challenge is answered once', async () => {
    const { token } = await signedInUser();
    const { credential } = await registerPasskey(app, token, PAGE);
    const { challengeId, challenge } = await loginChallenge(app);
    const response = assert(credential, { ...PAGE, challenge });
    const body = { challengeId, response };
    expect((await post(app, '/api/auth/passkeys/login/verify', body)).statusCode).toBe(200);
    const replayed = await post(app, '/api/auth/passkeys/login/verify', body);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().message).toBe(passkeyMessages.challengeExpired);
  });

  it('refuses a signature counter that does not move up (a cloned authenticator)', async () => {
    const { token } = await signedInUser();
    const { credential, id } = await registerPasskey(app, token, PAGE);
    expect((await signInWithPasskey(app, credential, PAGE, { signCount: 5 })).statusCode).toBe(200);
    for (const signCount of [5, 3]) {
      const cloned = await signInWithPasskey(app, credential, PAGE, { signCount });
      expect(cloned.statusCode).toBe(401);
      expect(cloned.json().message).toBe(passkeyMessages.counterRegressed);
    }
    expect((await database.db.passkey.findUniqueOrThrow({ where: { id } })).counter).toBe(5n);
    expect((await signInWithPasskey(app, credential, PAGE, { signCount: 6 })).statusCode).toBe(200);
  });

  it('accepts an authenticator that never counts (always 0)', async () => {
    const { token } = await signedInUser();
    const { credential } = await registerPasskey(app, token, PAGE);
    for (let i = 0; i < 2; i++) {
      expect((await signInWithPasskey(app, credential, PAGE, { signCount: 0 })).statusCode).toBe(200);
    }
  });

  it('refuses a wrong origin, a wrong relying party, no user verification and a wrong key', async () => {
    const { token } = await signedInUser();
    const { credential } = await registerPasskey(app, token, PAGE);
    const { credential: stranger } = await registerPasskey(app, (await signedInUser()).token, PAGE);
    const cases = [
      () => signInWithPasskey(app, credential, { ...PAGE, origin: 'https://evil.test' }),
      () => signInWithPasskey(app, credential, { ...PAGE, rpId: 'evil.test' }),
      () => signInWithPasskey(app, credential, PAGE, { unverified: true }),
      // Another passkey's private key signing under this one's id.
      () =>
        signInWithPasskey(app, { ...stranger, id: credential.id, userHandle: credential.userHandle }, PAGE),
      // This passkey claiming to be another user's.
      () => signInWithPasskey(app, { ...credential, userHandle: stranger.userHandle }, PAGE),
    ];
    for (const attempt of cases) {
      const refused = await attempt();
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe(passkeyMessages.signInFailed);
      expect(refused.body).not.toMatch(/stack|origin|expected/i);
    }
  });

  it('refuses an unknown passkey, an unknown or expired challenge, and broken answers with 4xx', async () => {
    const { token } = await signedInUser();
    const { credential } = await registerPasskey(app, token, PAGE);
    const unknown = await signInWithPasskey(
      app,
      { ...credential, id: Buffer.alloc(16, 7).toString('base64url') },
      PAGE,
    );
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe(passkeyMessages.unknownPasskey);

    const { challengeId, challenge } = await loginChallenge(app);
    clock.advance(CHALLENGE_TTL_MS + 1);
    const late = await post(app, '/api/auth/passkeys/login/verify', {
      challengeId,
      response: assert(credential, { ...PAGE, challenge }),
    });
    expect(late.json().message).toBe(passkeyMessages.challengeExpired);

    const fresh = await loginChallenge(app);
    const good = assert(credential, { ...PAGE, challenge: fresh.challenge });
    for (const response of [
      { ...good, response: { ...good.response, authenticatorData: 'AAAA' } },
      { ...good, response: { ...good.response, signature: 'AAAA' } },
      { ...good, response: { ...good.response, clientDataJSON: 'bm90IGpzb24' } },
    ]) {
      const next = await loginChallenge(app);
      const answer = await post(app, '/api/auth/passkeys/login/verify', {
        challengeId: next.challengeId,
        response,
      });
      expect([400, 401]).toContain(answer.statusCode);
    }
    const missing = await post(app, '/api/auth/passkeys/login/verify', { challengeId: fresh.challengeId });
    expect(missing.statusCode).toBe(400);
  });

  it('refuses accounts that may not sign in, as password sign-in does', async () => {
    const pending = await signedInUser();
    const { credential } = await registerPasskey(app, pending.token, PAGE);
    await database.db.user.update({ where: { id: pending.user.id }, data: { isAdminApproved: false } });
    const refused = await signInWithPasskey(app, credential, PAGE);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(authMessages.awaitingApproval);

    const unverified = await signedInUser();
    const second = await registerPasskey(app, unverified.token, PAGE);
    await database.db.user.update({ where: { id: unverified.user.id }, data: { emailVerifiedAt: null } });
    const notVerified = await signInWithPasskey(app, second.credential, PAGE);
    expect(notVerified.statusCode).toBe(403);
    expect(notVerified.json().message).toBe(authMessages.emailNotVerified);
  });

  it('accepts every origin WEBAUTHN_ORIGINS lists, under WEBAUTHN_RP_ID', async () => {
    await app.close();
    build({ webauthnRpId: 'portal.test', webauthnOrigins: ['https://portal.test', 'https://m.portal.test'] });
    const { token } = await signedInUser();
    const mobile = { rpId: 'portal.test', origin: 'https://m.portal.test' };
    const { credential } = await registerPasskey(app, token, mobile);
    expect((await signInWithPasskey(app, credential, PAGE)).statusCode).toBe(200);
    expect((await signInWithPasskey(app, credential, mobile)).statusCode).toBe(200);
  });

  it('limits the challenges one address may ask for (429)', async () => {
    for (let i = 0; i < AUTH_LIMITS.passkeyOptionsPerIp.max; i++) await loginChallenge(app);
    const limited = await post(app, '/api/auth/passkeys/login/options', {});
    expect(limited.statusCode).toBe(429);
  });
});
