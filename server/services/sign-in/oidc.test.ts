import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../../shared/messages';
import { oidcMessages } from '../../../shared/oidc-messages';
import type { AppDeps } from '../../deps';
import type { OidcSettings } from '../../oidc-config';
import { verifyAccessToken } from '../../security/access-tokens';
import { createAdmin, createUser } from '../../test/factories';
import {
  buildTestApp,
  setupTestDatabase,
  TEST_JWT_SECRET,
  TestClock,
  testConfig,
  testDeps,
} from '../../test/harness';
import { captureLogs } from '../../test/log-capture';
import { startTestProvider, TEST_CLIENT, type TestProvider } from '../../test/oidc-provider';
import {
  authorizeAtProvider,
  CALLBACK,
  callBack,
  exchange,
  signInThroughProvider,
  startAt,
} from '../../test/sso-browser';
import { HANDOFF_TTL_MS } from './oidc-handoff';

/**
 * Single sign-on against a real OpenID provider (oidc-provider on a loopback port), driven as a
 * browser would over plain HTTP: start, the provider's sign-in and consent, the callback, the
 * exchange of the one-time code.
 */

const database = setupTestDatabase();
const APP_URL = 'http://localhost:3000';
let provider: TestProvider;
const clock = new TestClock(new Date());
const logs = captureLogs();
let deps: AppDeps;
let app: FastifyInstance;
let autoApp: FastifyInstance;

function settings(overrides: Partial<OidcSettings> = {}): OidcSettings {
  return {
    issuer: provider.issuer,
    clientId: TEST_CLIENT.clientId,
    clientSecret: TEST_CLIENT.clientSecret,
    name: 'Harbor ID',
    autoRegister: false,
    ...overrides,
  };
}

beforeAll(async () => {
  provider = await startTestProvider(`${APP_URL}${CALLBACK}`);
  deps = testDeps(database.db, { clock, config: testConfig({ appUrl: APP_URL, oidc: settings() }) });
  app = buildTestApp(deps, { loggerInstance: logs.logger });
  autoApp = buildTestApp(
    testDeps(database.db, {
      clock,
      config: testConfig({ appUrl: APP_URL, oidc: settings({ autoRegister: true }) }),
    }),
  );
});
afterAll(async () => {
  await app.close();
  await autoApp.close();
  await provider.stop();
});

describe('GET /api/auth/oidc', () => {
  it('tells the sign-in page whether to show the button, and its name', async () => {
    expect((await app.inject('/api/auth/oidc')).json()).toEqual({ enabled: true, name: 'Harbor ID' });
    const off = buildTestApp(testDeps(database.db, { clock }));
    expect((await off.inject('/api/auth/oidc')).json()).toEqual({ enabled: false, name: '' });
    expect((await off.inject('/api/auth/oidc/start')).statusCode).toBe(404);
    expect((await off.inject(`${CALLBACK}?code=x&state=y`)).statusCode).toBe(404);
    await off.close();
  });
});

describe('an existing active user', () => {
  it('signs in with the verified e-mail; the session carries no second factor without one at the provider', async () => {
    const user = await createUser(database.db);
    provider.signInAs({
      sub: `sub-${user.id}`,
      email: user.email.toUpperCase(),
      email_verified: true,
      amr: ['pwd'],
    });
    const { started, landed, answer } = await signInThroughProvider(app, '/home/transactions/42?tab=files');

    expect(started.setCookie).toMatch(
      /^portal_sso=[\w-]{43}; Path=\/api\/auth\/oidc; HttpOnly; SameSite=Lax/,
    );
    const authorize = new URL(started.location);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${APP_URL}${CALLBACK}`);
    for (const name of ['state', 'nonce', 'code_challenge'])
      expect(authorize.searchParams.get(name)).toBeTruthy();

    expect(landed.res.statusCode).toBe(303);
    expect(landed.location).toMatch(/^\/auth\/sso#code=[\w-]{43}&next=/);
    expect(landed.next).toBe('/home/transactions/42?tab=files');
    expect(landed.res.headers['set-cookie']).toMatch(/^portal_sso=; .*Max-Age=0/);

    expect(answer.statusCode, answer.body).toBe(200);
    const session = answer.json();
    expect(session._id).toBe(user.id);
    const claims = await verifyAccessToken(session.token, TEST_JWT_SECRET, clock.now());
    expect(claims?.sub).toBe(user.id);
    expect(claims?.mfa).toBeUndefined();
    const family = await database.db.refreshToken.findFirstOrThrow({ where: { userId: user.id } });
    expect(family.secondFactor).toBeNull();

    const audit = await database.db.auditEvent.findFirst({
      where: { entityId: user.id, action: 'user.sso-sign-in' },
    });
    expect(audit?.after).toMatchObject({ provider: 'Harbor ID', secondFactor: null, amr: ['pwd'] });
    const lines = logs.entries().filter((entry) => entry.event === 'sign-in' && entry.userId === user.id);
    expect(lines.map((entry) => entry.outcome)).toEqual(['provider-verified', 'signed-in']);
    expect(JSON.stringify(lines)).not.toContain(user.email);
  });

  it('gets a session with the second factor "sso" when the provider says it checked several factors (amr)', async () => {
    const admin = await createAdmin(database.db);
    provider.signInAs({
      sub: `sub-${admin.id}`,
      email: admin.email,
      email_verified: true,
      amr: ['pwd', 'mfa', 'otp'],
    });
    const { answer } = await signInThroughProvider(app);
    expect(answer.statusCode, answer.body).toBe(200);
    const claims = await verifyAccessToken(answer.json().token, TEST_JWT_SECRET, clock.now());
    expect(claims?.mfa).toBe('sso');
    const family = await database.db.refreshToken.findFirstOrThrow({ where: { userId: admin.id } });
    expect(family.secondFactor).toBe('sso');
  });
});

describe('refusals, shown on the sign-in page', () => {
  it('refuses an unknown e-mail with "No account for <email>"', async () => {
    provider.signInAs({ sub: 'stranger', email: 'stranger@example.com', email_verified: true });
    const { landed, answer } = await signInThroughProvider(app);
    expect(landed.location).toMatch(/^\/auth\/sso#code=/);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual({
      message: 'No account for stranger@example.com',
      code: 'FORBIDDEN',
      error: 'forbidden',
    });
    expect(await database.db.user.count({ where: { email: 'stranger@example.com' } })).toBe(0);
  });

  it('refuses an e-mail the provider did not verify, even of an existing user', async () => {
    const user = await createUser(database.db);
    provider.signInAs({ sub: `sub-${user.id}`, email: user.email, email_verified: false });
    const { answer } = await signInThroughProvider(app);
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe(oidcMessages.emailUnverified('Harbor ID'));
    expect(await database.db.refreshToken.count({ where: { userId: user.id } })).toBe(0);
  });

  it('refuses a deactivated user and one awaiting approval', async () => {
    const deactivated = await createUser(database.db, { isAdminApproved: false, deactivatedAt: new Date() });
    const pending = await createUser(database.db, { isAdminApproved: false });
    for (const user of [deactivated, pending]) {
      provider.signInAs({ sub: `sub-${user.id}`, email: user.email, email_verified: true });
      const { answer } = await signInThroughProvider(app);
      expect(answer.json()).toEqual({
        message: authMessages.awaitingApproval,
        code: 'FORBIDDEN',
        error: 'forbidden',
      });
    }
  });

  it('with OIDC_AUTO_REGISTER, makes an agent awaiting approval, who cannot sign in until approved', async () => {
    const admin = await createAdmin(database.db);
    provider.signInAs({
      sub: 'newcomer',
      email: 'newcomer@example.com',
      email_verified: true,
      given_name: 'Nora',
      family_name: 'Newcomer',
    });
    const first = await signInThroughProvider(autoApp);
    expect(first.answer.statusCode).toBe(403);
    expect(first.answer.json().message).toBe(oidcMessages.registeredAwaitingApproval);
    const made = await database.db.user.findUniqueOrThrow({ where: { email: 'newcomer@example.com' } });
    expect(made).toMatchObject({
      firstName: 'Nora',
      lastName: 'Newcomer',
      role: 'user',
      isAdminApproved: false,
    });
    expect(made.emailVerifiedAt).not.toBeNull();
    const audit = await database.db.auditEvent.findFirstOrThrow({
      where: { entityId: made.id, action: 'user.register' },
    });
    expect(audit.after).toMatchObject({ signedUpWith: 'sso' });
    const notices = await database.db.adminNotice.count({
      where: { message: { contains: 'newcomer@example.com' } },
    });
    expect(notices).toBe(1);
    expect(admin.id).toBeTruthy();

    const again = await signInThroughProvider(autoApp);
    expect(again.answer.json()).toEqual({
      message: authMessages.awaitingApproval,
      code: 'FORBIDDEN',
      error: 'forbidden',
    });
    // Its random password is nobody's.
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'newcomer@example.com', password: 'correct-horse-battery' },
    });
    expect(login.statusCode).toBe(401);

    await database.db.user.update({ where: { id: made.id }, data: { isAdminApproved: true } });
    const approved = await signInThroughProvider(autoApp);
    expect(approved.answer.statusCode, approved.answer.body).toBe(200);
    expect(approved.answer.json()._id).toBe(made.id);
  });
});

describe('tampering and replay', () => {
  it('refuses a callback whose state was altered, one from another browser, and a replayed callback', async () => {
    const user = await createUser(database.db);
    provider.signInAs({ sub: `sub-${user.id}`, email: user.email, email_verified: true });

    const started = await startAt(app);
    const callbackUrl = await authorizeAtProvider(started.location);
    const altered = new URL(callbackUrl);
    altered.searchParams.set('state', 'not-the-state');
    const mismatch = await callBack(app, altered, started.cookie);
    expect((await exchange(app, mismatch.code)).json().message).toBe(oidcMessages.flowExpired);

    // The right state from a browser without the cookie (a link sent to someone else) is refused,
    // and the sign-in it belonged to is spent.
    const elsewhere = await callBack(app, callbackUrl, null);
    expect((await exchange(app, elsewhere.code)).json().message).toBe(oidcMessages.flowExpired);
    const replay = await callBack(app, callbackUrl, started.cookie);
    expect((await exchange(app, replay.code)).json().message).toBe(oidcMessages.flowExpired);
  });

  it('takes a callback once, and a one-time code once', async () => {
    const user = await createUser(database.db);
    provider.signInAs({ sub: `sub-${user.id}`, email: user.email, email_verified: true });
    const { started, callbackUrl, answer, landed } = await signInThroughProvider(app);
    expect(answer.statusCode).toBe(200);
    const replayed = await callBack(app, callbackUrl, started.cookie);
    const refused = await exchange(app, replayed.code);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(oidcMessages.flowExpired);
    const again = await exchange(app, landed.code);
    expect(again.json()).toEqual({
      message: oidcMessages.linkInvalid,
      code: 'BAD_REQUEST',
      error: 'validation',
    });
    expect((await exchange(app, 'A'.repeat(43))).statusCode).toBe(400);
  });

  it('refuses a one-time code after two minutes, and a code the provider already redeemed', async () => {
    const user = await createUser(database.db);
    provider.signInAs({ sub: `sub-${user.id}`, email: user.email, email_verified: true });
    const started = await startAt(app);
    const callbackUrl = await authorizeAtProvider(started.location);
    const landed = await callBack(app, callbackUrl, started.cookie);
    clock.advance(HANDOFF_TTL_MS + 1);
    expect((await exchange(app, landed.code)).json().message).toBe(oidcMessages.linkInvalid);

    // The spent code again, inside a fresh sign-in of the same browser: the provider refuses it.
    const fresh = await startAt(app);
    const replayed = new URL(callbackUrl);
    replayed.searchParams.set('state', new URL(fresh.location).searchParams.get('state') ?? '');
    const refused = await exchange(app, (await callBack(app, replayed, fresh.cookie)).code);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(oidcMessages.failed);
  });

  it('refuses a returnTo that leaves the site', async () => {
    for (const returnTo of ['//evil.example', 'https://evil.example/', '/\\evil.example', 'home']) {
      const res = await app.inject({
        method: 'GET',
        url: `/api/auth/oidc/start?${new URLSearchParams({ returnTo })}`,
      });
      expect(res.statusCode, returnTo).toBe(400);
    }
  });
});

describe('the provider itself', () => {
  it('must name exactly the configured issuer in its discovery document, else single sign-on is unavailable', async () => {
    // The same provider reached under another name: its metadata names 127.0.0.1, not localhost.
    const impostor = provider.issuer.replace('127.0.0.1', 'localhost');
    const lookalike = buildTestApp(
      testDeps(database.db, {
        clock,
        config: testConfig({ appUrl: APP_URL, oidc: settings({ issuer: impostor }) }),
      }),
    );
    const res = await lookalike.inject('/api/auth/oidc/start');
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe(oidcMessages.unavailable);
    await lookalike.close();
  });
});

describe('the provider down', () => {
  it('answers a clear 503 (the portal itself keeps running), and works again once the provider is back', async () => {
    const down = await startTestProvider(`${APP_URL}${CALLBACK}`);
    const issuer = down.issuer;
    await down.stop();
    const lonely = buildTestApp(
      testDeps(database.db, { clock, config: testConfig({ appUrl: APP_URL, oidc: settings({ issuer }) }) }),
    );
    const api = await lonely.inject('/api/auth/oidc/start');
    expect(api.statusCode).toBe(503);
    expect(api.json()).toEqual({
      message: oidcMessages.unavailable,
      code: 'SERVICE_UNAVAILABLE',
      error: 'service-unavailable',
    });
    expect(api.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);

    // A browser is sent to the sign-in page, which shows the same words.
    const page = await lonely.inject({ url: '/api/auth/oidc/start', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(303);
    const code = new URLSearchParams(String(page.headers.location).split('#')[1]).get('code') ?? '';
    const shown = await exchange(lonely, code);
    expect(shown.statusCode).toBe(503);
    expect(shown.json().message).toBe(oidcMessages.unavailable);
    expect((await lonely.inject('/healthz')).statusCode).toBe(200);

    // Back on the same port: after the retry pause, the next sign-in discovers it.
    const back = await startTestProvider(`${APP_URL}${CALLBACK}`, Number(new URL(issuer).port));
    clock.advance(10_000);
    const user = await createUser(database.db);
    back.signInAs({ sub: `sub-${user.id}`, email: user.email, email_verified: true });
    const { answer } = await signInThroughProvider(lonely);
    expect(answer.statusCode, answer.body).toBe(200);
    await lonely.close();
    await back.stop();
  });
});
