import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../../shared/messages';
import { twoFactorMessages } from '../../../shared/two-factor-messages';
import type { AppDeps } from '../../deps';
import { createSealer } from '../../security/sealing';
import { hashSecretToken, newSecretToken } from '../../security/secret-tokens';
import { createUser, DEFAULT_PASSWORD } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { MAX_CHALLENGE_ATTEMPTS } from './challenge';
import { codeAt, TOTP_PERIOD_SECONDS } from './totp-codes';

/**
 * Two-factor sign-in through the REST paths, on a clock the test moves: the setup and its first
 * code, the login challenge, the window of one step either side, a code accepted once, five wrong
 * codes, recovery codes used once, and turning it off.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-12-11T10:00:05.000Z'));
let app: FastifyInstance;
let deps: AppDeps;
const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = await buildTestApp(deps);
});
afterAll(() => app?.close());

type Json = Record<string, unknown>;
async function call(method: 'GET' | 'POST', url: string, payload?: Json, token?: string) {
  const res = await app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.statusCode, body: res.json<Json>() };
}

const login = (email: string, password = DEFAULT_PASSWORD) =>
  call('POST', '/api/auth/login', { email, password });

/** A user with two-factor sign-in on: its secret, recovery codes and a password session. */
async function userWithTotp() {
  const user = await createUser(database.db);
  const session = (await login(user.email)).body as { token: string };
  const setup = await call('POST', '/api/auth/2fa/totp/setup', undefined, session.token);
  expect(setup.status).toBe(200);
  const secret = setup.body.secret as string;
  expect(setup.body.otpauthUrl).toContain(`secret=${secret}`);
  const enabled = await call(
    'POST',
    '/api/auth/2fa/totp/enable',
    { code: codeAt(secret, clock.now()) },
    session.token,
  );
  expect(enabled.status).toBe(200);
  // Later codes come from later steps: the one enabling it is used.
  clock.advance(STEP_MS);
  return { user, secret, token: session.token, recoveryCodes: enabled.body.recoveryCodes as string[] };
}

async function challengeFor(email: string): Promise<string> {
  const answer = await login(email);
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
  expect(answer.body).not.toHaveProperty('token');
  return answer.body.challenge as string;
}

const verify = (challenge: string, proof: { code: string } | { recoveryCode: string }) =>
  call('POST', '/api/auth/2fa/verify', { challenge, ...proof });

describe('setting up an authenticator', () => {
  it('keeps the secret pending until a right code, then hands out 10 recovery codes once', async () => {
    const user = await createUser(database.db);
    const { token } = (await login(user.email)).body as { token: string };
    const setup = await call('POST', '/api/auth/2fa/totp/setup', undefined, token);
    const secret = setup.body.secret as string;
    const stored = await database.db.totpAuthenticator.findUniqueOrThrow({ where: { userId: user.id } });
    expect(stored.enabledAt).toBeNull();
    // Sealed at rest: the secret itself is nowhere in the row.
    expect(stored.sealedSecret).not.toContain(secret);

    const wrong = await call('POST', '/api/auth/2fa/totp/enable', { code: '000000' }, token);
    expect(wrong.status).toBe(400);
    expect((await login(user.email)).body).toHaveProperty('token');

    const enabled = await call(
      'POST',
      '/api/auth/2fa/totp/enable',
      { code: codeAt(secret, clock.now()) },
      token,
    );
    const codes = enabled.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const rows = await database.db.recoveryCode.findMany({ where: { userId: user.id } });
    expect(rows.map((row) => row.codeHash)).not.toContain(codes[0]);

    const again = await call('POST', '/api/auth/2fa/totp/setup', undefined, token);
    expect(again).toMatchObject({ status: 409, body: { message: twoFactorMessages.alreadyOn } });
    const status = await call('GET', '/api/auth/2fa', undefined, token);
    expect(status.body).toEqual({ totpEnabled: true, recoveryCodesLeft: 10, setupRequired: false });
    const audit = await database.db.auditEvent.findMany({
      where: { entityId: user.id, action: 'user.two-factor-enable' },
    });
    expect(audit).toHaveLength(1);
  });
});

describe('the login challenge', () => {
  it('trades a right code for a session whose tokens say totp', async () => {
    const { user, secret } = await userWithTotp();
    const challenge = await challengeFor(user.email);
    const answer = await verify(challenge, { code: codeAt(secret, clock.now()) });
    expect(answer.status).toBe(200);
    expect(decodeJwt(answer.body.token as string).mfa).toBe('totp');
    // Spent: the same challenge does not open a second session.
    clock.advance(STEP_MS);
    const reused = await verify(challenge, { code: codeAt(secret, clock.now()) });
    expect(reused).toMatchObject({ status: 401, body: { message: twoFactorMessages.invalidCode } });
  });

  it('accepts a code one step either side of now, never two steps off', async () => {
    const { user, secret } = await userWithTotp();
    clock.advance(5 * STEP_MS);
    const now = clock.now().getTime();
    const early = await verify(await challengeFor(user.email), {
      code: codeAt(secret, new Date(now - STEP_MS)),
    });
    expect(early.status).toBe(200);
    const late = await verify(await challengeFor(user.email), {
      code: codeAt(secret, new Date(now + STEP_MS)),
    });
    expect(late.status).toBe(200);
    clock.advance(5 * STEP_MS);
    const far = clock.now().getTime();
    const tooOld = await verify(await challengeFor(user.email), {
      code: codeAt(secret, new Date(far - 2 * STEP_MS)),
    });
    expect(tooOld.status).toBe(401);
    const tooNew = await verify(await challengeFor(user.email), {
      code: codeAt(secret, new Date(far + 2 * STEP_MS)),
    });
    expect(tooNew.status).toBe(401);
  });

  it('accepts a code once: the same step again, or an earlier one, is refused', async () => {
    const { user, secret } = await userWithTotp();
    const code = codeAt(secret, clock.now());
    expect((await verify(await challengeFor(user.email), { code })).status).toBe(200);
    const replay = await verify(await challengeFor(user.email), { code });
    expect(replay).toMatchObject({ status: 401, body: { message: twoFactorMessages.invalidCode } });
    const earlier = codeAt(secret, new Date(clock.now().getTime() - STEP_MS));
    expect((await verify(await challengeFor(user.email), { code: earlier })).status).toBe(401);
  });

  it('ends the challenge after 5 wrong codes, answering then as for an unknown one', async () => {
    const { user, secret } = await userWithTotp();
    const challenge = await challengeFor(user.email);
    for (let i = 0; i < MAX_CHALLENGE_ATTEMPTS; i++) {
      const wrong = await verify(challenge, { code: '000000' });
      expect(wrong).toMatchObject({ status: 401, body: { message: twoFactorMessages.invalidCode } });
    }
    const right = await verify(challenge, { code: codeAt(secret, clock.now()) });
    expect(right).toMatchObject({ status: 401, body: { message: twoFactorMessages.invalidCode } });
    const unknown = await verify('no-such-challenge', { code: codeAt(secret, clock.now()) });
    expect(unknown).toEqual(right);
  });

  it('expires a challenge after 5 minutes', async () => {
    const { user, secret } = await userWithTotp();
    const challenge = await challengeFor(user.email);
    clock.advance(5 * 60 * 1000);
    expect((await verify(challenge, { code: codeAt(secret, clock.now()) })).status).toBe(401);
  });

  it('accepts each recovery code once, typed in any case and grouping', async () => {
    const { user, recoveryCodes } = await userWithTotp();
    const [first = ''] = recoveryCodes;
    const typed = first.toUpperCase().replaceAll('-', ' ');
    const answer = await verify(await challengeFor(user.email), { recoveryCode: typed });
    expect(answer.status).toBe(200);
    expect(decodeJwt(answer.body.token as string).mfa).toBe('recovery');
    const again = await verify(await challengeFor(user.email), { recoveryCode: first });
    expect(again).toMatchObject({ status: 401, body: { message: twoFactorMessages.invalidCode } });
  });

  it('after JWT_SECRET changed, refuses codes as wrong (never a 500) and still takes recovery codes', async () => {
    const { user, secret, recoveryCodes } = await userWithTotp();
    const foreign = createSealer('another-secret-that-is-long-enough-0123456789', 'totp-secret-v1');
    await database.db.totpAuthenticator.update({
      where: { userId: user.id },
      data: { sealedSecret: foreign.seal(secret) },
    });
    const challenge = await challengeFor(user.email);
    const refused = await verify(challenge, { code: codeAt(secret, clock.now()) });
    expect(refused).toMatchObject({ status: 401, body: { message: twoFactorMessages.invalidCode } });
    expect((await verify(challenge, { recoveryCode: recoveryCodes[1] ?? '' })).status).toBe(200);
  });

  it('refuses a code and a recovery code together, or neither, with 400', async () => {
    const both = await call('POST', '/api/auth/2fa/verify', {
      challenge: 'x',
      code: '123456',
      recoveryCode: 'abc',
    });
    expect(both.status).toBe(400);
    const neither = await call('POST', '/api/auth/2fa/verify', { challenge: 'x' });
    expect(neither.status).toBe(400);
  });

  it('counts wrong codes per account over its challenges: 429 after 10', async () => {
    const { user } = await userWithTotp();
    for (let i = 0; i < 10; i++) {
      expect((await verify(await challengeFor(user.email), { code: '000000' })).status).toBe(401);
    }
    const limited = await verify(await challengeFor(user.email), { code: '000000' });
    expect(limited).toMatchObject({ status: 429, body: { message: apiMessages.tooManyRequests } });
    clock.advance(15 * 60 * 1000);
  });
});

describe('a password reset', () => {
  it('leaves the second factor on: the next sign-in still asks for the code', async () => {
    const { user } = await userWithTotp();
    const token = newSecretToken();
    await database.db.emailToken.create({
      data: {
        userId: user.id,
        purpose: 'reset_password',
        tokenHash: hashSecretToken(token),
        expiresAt: new Date(clock.now().getTime() + 60_000),
      },
    });
    const password = 'A brand new passphrase 1';
    const reset = await call('POST', '/api/auth/reset/confirm', {
      token,
      password,
      confirmPassword: password,
    });
    expect(reset.status).toBe(200);
    const answer = await login(user.email, password);
    expect(answer.body).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
  });
});

describe('turning it off', () => {
  it('needs the password, is audited and mailed, and sign-in asks for the password alone again', async () => {
    const { user, token } = await userWithTotp();
    const wrong = await call('POST', '/api/auth/2fa/totp/disable', { password: 'not-the-password' }, token);
    expect(wrong).toMatchObject({ status: 400, body: { message: twoFactorMessages.wrongPassword } });
    expect(await database.db.totpAuthenticator.count({ where: { userId: user.id } })).toBe(1);

    const off = await call('POST', '/api/auth/2fa/totp/disable', { password: DEFAULT_PASSWORD }, token);
    expect(off.status).toBe(200);
    expect(await database.db.recoveryCode.count({ where: { userId: user.id } })).toBe(0);
    const audit = await database.db.auditEvent.findMany({
      where: { entityId: user.id, action: 'user.two-factor-disable' },
    });
    expect(audit).toHaveLength(1);
    const mails = await database.db.mailOutbox.findMany({
      where: { userId: user.id, kind: 'account.two-factor-off' },
    });
    expect(mails).toHaveLength(1);
    expect((await login(user.email)).body).toHaveProperty('token');
  });
});
