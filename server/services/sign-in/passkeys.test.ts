import type { FastifyInstance } from 'fastify';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { passkeyMessages } from '../../../shared/passkey-messages';
import type { AppDeps } from '../../deps';
import { accessTokenFor, createUser, DEFAULT_PASSWORD } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../../test/harness';
import {
  type Page,
  post,
  registerPasskey,
  signInWithPasskey,
  startRegistration,
} from '../../test/passkey-ceremonies';
import { CHALLENGE_TTL_MS } from './webauthn-challenges';

/**
 * Passkeys end to end through the REST paths, real PostgreSQL, real @simplewebauthn/server: the
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

const auditActions = async (userId: string) =>
  (
    await database.db.auditEvent.findMany({
      where: { entityId: userId, action: { startsWith: 'user.passkey' } },
      orderBy: { createdAt: 'asc' },
      select: { action: true },
    })
  ).map((event) => event.action);

describe('adding a passkey', () => {
  it('registers a discoverable, user-verified passkey and lists it by its name', async () => {
    const { user, token } = await signedInUser();
    const options = await post(app, '/api/auth/passkeys/register/options', {}, token);
    expect(options.json()).toMatchObject({
      rp: { id: 'portal.test', name: 'Brokerage Portal' },
      user: { name: user.email },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });

    const { id } = await registerPasskey(app, token, PAGE, 'Work laptop');
    const list = await call('GET', '/api/auth/passkeys', token);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      items: [{ _id: id, name: 'Work laptop', createdAt: clock.now().toISOString(), lastUsedAt: null }],
    });
    const row = await database.db.passkey.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ userId: user.id, counter: 0n, backedUp: true, deviceType: 'multiDevice' });
    expect(row.transports).toEqual(['internal', 'hybrid']);
    expect(await auditActions(user.id)).toEqual(['user.passkey-add']);
  });

  it('refuses an answer from another origin or made for another relying party, and spends the challenge', async () => {
    const { token } = await signedInUser();
    for (const page of [
      { ...PAGE, origin: 'https://evil.test' },
      { ...PAGE, rpId: 'evil.test' },
    ]) {
      const { response } = await startRegistration(app, token, page);
      const refused = await post(app, '/api/auth/passkeys/register/verify', { response }, token);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(passkeyMessages.registrationFailed);
      const again = await post(app, '/api/auth/passkeys/register/verify', { response }, token);
      expect(again.json().message).toBe(passkeyMessages.challengeExpired);
    }
    expect((await call('GET', '/api/auth/passkeys', token)).json().items).toEqual([]);
  });

  it("refuses an answer to another user's challenge, and one that comes after five minutes", async () => {
    const { token } = await signedInUser();
    const other = await signedInUser();
    const { response } = await startRegistration(app, other.token, PAGE);
    const foreign = await post(app, '/api/auth/passkeys/register/verify', { response }, token);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(passkeyMessages.challengeExpired);

    const late = await startRegistration(app, token, PAGE);
    clock.advance(CHALLENGE_TTL_MS + 1);
    const tooLate = await post(app, '/api/auth/passkeys/register/verify', { response: late.response }, token);
    expect(tooLate.json().message).toBe(passkeyMessages.challengeExpired);
  });

  it('answers 409 for a passkey registered already, and 400 for answers that are not WebAuthn', async () => {
    const { token } = await signedInUser();
    const { response } = await startRegistration(app, token, PAGE);
    expect((await post(app, '/api/auth/passkeys/register/verify', { response }, token)).statusCode).toBe(201);
    // The same credential answering a new challenge (an authenticator that ignored excludeCredentials).
    const { challenge } = (await post(app, '/api/auth/passkeys/register/options', {}, token)).json();
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.create', challenge, origin: PAGE.origin, crossOrigin: false }),
    ).toString('base64url');
    const twice = await post(
      app,
      '/api/auth/passkeys/register/verify',
      { response: { ...response, response: { ...response.response, clientDataJSON } } },
      token,
    );
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(passkeyMessages.alreadyRegistered);

    for (const broken of [
      { ...response, response: { ...response.response, clientDataJSON: 'bm90IGpzb24' } },
      { ...response, response: { ...response.response, attestationObject: 'AAAA' } },
      { ...response, type: 'password' },
      { ...response, id: 'has spaces' },
    ]) {
      const answer = await post(app, '/api/auth/passkeys/register/verify', { response: broken }, token);
      expect(answer.statusCode, JSON.stringify(broken).slice(0, 80)).toBe(400);
    }
  });
});

describe('managing passkeys', () => {
  it("renames and removes one's own passkeys only; every removal is audited", async () => {
    const { user, token } = await signedInUser();
    const other = await signedInUser();
    const first = await registerPasskey(app, token, PAGE, 'Laptop');
    const second = await registerPasskey(app, token, PAGE, 'Phone');

    const renamed = await call('PUT', `/api/auth/passkeys/${first.id}`, token, { name: '  Desk laptop ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Desk laptop');
    expect((await call('PUT', `/api/auth/passkeys/${first.id}`, token, { name: ' ' })).statusCode).toBe(400);
    expect(
      (await call('PUT', `/api/auth/passkeys/${first.id}`, other.token, { name: 'Mine' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/auth/passkeys/${first.id}`, other.token)).statusCode).toBe(404);

    // Not the last one: no password needed.
    expect((await call('DELETE', `/api/auth/passkeys/${first.id}`, token)).statusCode).toBe(204);
    expect(
      (await call('GET', '/api/auth/passkeys', token)).json().items.map((p: { _id: string }) => p._id),
    ).toEqual([second.id]);
    expect(await auditActions(user.id)).toEqual([
      'user.passkey-add',
      'user.passkey-add',
      'user.passkey-rename',
      'user.passkey-remove',
    ]);
  });

  it('needs the password to remove the last passkey, mails the user and audits it', async () => {
    const { user, token } = await signedInUser();
    const { id, credential } = await registerPasskey(app, token, PAGE, 'Only key');
    const noPassword = await call('DELETE', `/api/auth/passkeys/${id}`, token);
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().message).toBe(passkeyMessages.passwordForLast);
    const wrong = await call('DELETE', `/api/auth/passkeys/${id}`, token, { password: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(passkeyMessages.wrongPassword);
    expect(await database.db.passkey.count({ where: { userId: user.id } })).toBe(1);
    expect(await database.db.mailOutbox.count({ where: { userId: user.id } })).toBe(0);

    const removed = await call('DELETE', `/api/auth/passkeys/${id}`, token, { password: DEFAULT_PASSWORD });
    expect(removed.statusCode).toBe(204);
    expect(
      await database.db.mailOutbox.count({ where: { userId: user.id, kind: 'account.passkey-removed' } }),
    ).toBe(1);
    expect(await auditActions(user.id)).toEqual(['user.passkey-add', 'user.passkey-remove-last']);
    // The removed passkey signs in no more.
    expect((await signInWithPasskey(app, credential, PAGE)).statusCode).toBe(401);
  });

  it('removing two passkeys at once without the password leaves one', async () => {
    const { user, token } = await signedInUser();
    const first = await registerPasskey(app, token, PAGE);
    const second = await registerPasskey(app, token, PAGE);
    const answers = await Promise.all([
      call('DELETE', `/api/auth/passkeys/${first.id}`, token),
      call('DELETE', `/api/auth/passkeys/${second.id}`, token),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([204, 400]);
    expect(await database.db.passkey.count({ where: { userId: user.id } })).toBe(1);
  });

  it('is for signed-in users: 401 without a session', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/auth/passkeys' })).statusCode).toBe(401);
    expect((await post(app, '/api/auth/passkeys/register/options', {})).statusCode).toBe(401);
  });
});
