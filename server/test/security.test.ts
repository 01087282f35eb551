import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_MAX_LENGTH } from '../../shared/constants';
import { apiMessages, validation } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { loggerOptions } from '../logger';
import { smtpMailer } from '../mail/mailer';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from '../security/access-tokens';
import { bearer as bearerOf, injectUpload, multipartBody, TINY_PDF } from './api-calls';
import {
  accessTokenFor,
  createOwner,
  createTemplate,
  createTransaction,
  createUser,
  DEFAULT_PASSWORD,
} from './factories';
import { buildTestApp, setupTestDatabase, TEST_JWT_SECRET, TestClock, testConfig, testDeps } from './harness';
import { expectProtectiveHeaders } from './headers';
import { runTestJobs } from './jobs';
import { captureLogs } from './log-capture';
import { linkIn, type SmtpInbox, startSmtpInbox } from './smtp-inbox';

/**
 * Tokens that must not work, password rules, the protective
 * headers on every kind of answer, and logs that never hold a secret. Each test fails if its
 * control is removed. (Refresh-family revocation, the 90-day session limit, 429 before hashing
 * and enumeration by status and body are in server/routers/auth.test.ts.)
 */

const database = setupTestDatabase();
const APP_URL = 'https://portal.test';
const clock = new TestClock();
// The production logger settings (redaction, serializers) at the chattiest level, where every
// request writes its `incoming request` and `request completed` lines.
const logs = captureLogs(loggerOptions('trace'));
let inbox: SmtpInbox;
let deps: AppDeps;
let app: FastifyInstance;
let agent: Awaited<ReturnType<typeof createUser>>;
let agentToken: string;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  deps = testDeps(database.db, {
    clock,
    config: testConfig({ appUrl: APP_URL, maxUploadBytes: 64 * 1024 }),
    mailer: smtpMailer(inbox.url, 'Portal <no-reply@portal.test>'),
  });
  // Over https (APP_URL), so HSTS is expected on every answer below.
  app = buildTestApp(deps, { loggerInstance: logs.logger });
  agent = await createUser(database.db);
  agentToken = await accessTokenFor(agent, { now: clock.now() });
});
afterAll(async () => {
  await app.close();
  await inbox.close();
});
// The mail job runs with the app's deps and logs: secrets must stay out of its log lines too.
runTestJobs(database, () => ({ ...deps, config: deps.config }));

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const profileOf = (id: string) => `/api/settings/getUser/${id}`;

function getWith(url: string, token: string) {
  return app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
}

describe('access tokens that must not work', () => {
  it('a genuine token works (the baseline every refusal below is measured against)', async () => {
    expect((await getWith(profileOf(agent.id), agentToken)).statusCode).toBe(200);
  });

  it('alg "none", another algorithm, a wrong key and an edited payload are all 401', async () => {
    const now = Math.floor(clock.now().getTime() / 1000);
    const claims = { sub: agent.id, role: 'admin', ver: 0, iat: now, nbf: now, exp: now + 600 };
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
    const [header, , signature] = agentToken.split('.');
    const edited = `${header}.${base64url(claims)}.${signature}`;
    const wrongKey = await signAccessToken(
      { sub: agent.id, role: 'user', ver: 0 },
      'another-secret-that-is-also-long-enough-0123456789',
      clock.now(),
    );
    const { SignJWT } = await import('jose');
    const hs512 = await new SignJWT({ role: 'user', ver: 0 })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(agent.id)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));

    for (const [name, token] of Object.entries({ unsigned, edited, wrongKey, hs512 })) {
      const res = await getWith(profileOf(agent.id), token);
      expect(res.statusCode, name).toBe(401);
      expect(res.json().message, name).toBe(apiMessages.sessionInvalid);
      // Not even an admin path learns anything from a forged admin role.
      expect((await getWith('/api/admin/transactions', token)).statusCode, name).toBe(401);
    }
  });

  it('expired after 15 minutes, not valid before its time', async () => {
    const issued = (offsetSeconds: number) =>
      accessTokenFor(agent, { now: new Date(clock.now().getTime() + offsetSeconds * 1000) });
    expect((await getWith(profileOf(agent.id), await issued(-ACCESS_TOKEN_TTL_SECONDS + 5))).statusCode).toBe(
      200,
    );
    expect((await getWith(profileOf(agent.id), await issued(-ACCESS_TOKEN_TTL_SECONDS - 5))).statusCode).toBe(
      401,
    );
    // Issued ten minutes from now (a skewed or stolen signing clock): refused until then.
    expect((await getWith(profileOf(agent.id), await issued(600))).statusCode).toBe(401);
  });

  it('a refresh token is not an access token, and an access token cannot refresh', async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: agent.email, password: DEFAULT_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const { token, refreshToken } = login.json();
    expect((await getWith(profileOf(agent.id), token)).statusCode).toBe(200);
    expect((await getWith(profileOf(agent.id), refreshToken)).statusCode).toBe(401);
    const refreshWithAccess = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: { refreshToken: token.slice(0, 200) },
    });
    expect(refreshWithAccess.statusCode).toBe(401);
  });
});

describe('password rules', () => {
  const registration = (email: string, password: string) => ({
    firstName: 'Rosa',
    lastName: 'Marin',
    company: 'Harbor Realty',
    email,
    phoneNumber: '+1 (555) 010-2030',
    password,
    confirmPassword: password,
  });

  it('8 characters at least, 256 at most, with the product message; nothing is created when refused', async () => {
    const tooShort = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: registration('short@example.com', '1234567'),
    });
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().message).toBe(validation.passwordMin);
    const tooLong = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: registration('long@example.com', 'x'.repeat(PASSWORD_MAX_LENGTH + 1)),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(
      await database.db.user.count({ where: { email: { in: ['short@example.com', 'long@example.com'] } } }),
    ).toBe(0);

    for (const [email, password] of [
      ['eight@example.com', '12345678'],
      ['longest@example.com', 'y'.repeat(PASSWORD_MAX_LENGTH)],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: registration(email, password),
      });
      expect(res.statusCode, email).toBe(201);
    }
  });

  it('a long password is never truncated: only all of it signs in', async () => {
    // bcrypt would silently ignore everything after byte 72; argon2 must not.
    const password = `${'a'.repeat(100)}-the-part-after-byte-72-matters-${'b'.repeat(60)}`;
    const user = await createUser(database.db, { password });
    const login = (attempt: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: attempt },
      });
    expect((await login(password)).statusCode).toBe(200);
    expect((await login(password.slice(0, 72))).statusCode).toBe(401);
    expect((await login(`${password.slice(0, -1)}c`)).statusCode).toBe(401);
    // Spaces are characters: the password is used exactly as typed.
    expect((await login(` ${password}`)).statusCode).toBe(401);
  });
});

describe('protective headers on every kind of answer', () => {
  it('2xx, 4xx, downloads, tRPC, health and unknown paths all carry them; no CORS even when asked', async () => {
    const owner = await createOwner(database.db);
    const ownerToken = await accessTokenFor(owner, { now: clock.now() });
    const template = await createTemplate(database.db);
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const other = await createTransaction(database.db, { userId: owner.id });
    const bearer = bearerOf(agentToken);
    const pdf = TINY_PDF;
    const multipart = (file: Buffer) => {
      const body = multipartBody(file);
      return { payload: body.payload, headers: { ...bearer, ...body.headers } };
    };
    const uploaded = await app.inject({
      method: 'POST',
      url: `/api/uploads/transactions/${transaction.id}`,
      ...multipart(pdf),
    });
    expect(uploaded.statusCode).toBe(201);
    const download = new URL(uploaded.json().url);

    const requests: Array<[expectedStatus: number, request: InjectOptions]> = [
      [200, { url: `/api/transactions/${agent.id}`, headers: bearer }],
      [
        201,
        {
          method: 'POST',
          url: '/api/transactions',
          headers: bearer,
          payload: {
            type: template.type,
            role: template.role,
            streetAddress: '1 Pier St',
            city: 'Oakland',
            state: 'CA',
            zip: '94607',
          },
        },
      ],
      [201, { method: 'POST', url: `/api/uploads/transactions/${transaction.id}`, ...multipart(pdf) }],
      [400, { method: 'POST', url: '/api/transactions', headers: bearer, payload: {} }],
      [401, { url: `/api/transactions/${agent.id}` }],
      [403, { url: '/api/admin/transactions', headers: bearer }],
      [404, { url: `/api/transactions/individual/${other.id}/${agent.id}`, headers: bearer }],
      [404, { url: '/api/no-such-path' }],
      [
        409,
        {
          method: 'POST',
          url: '/api/admin/forms/transactions/insert',
          headers: { authorization: `Bearer ${ownerToken}` },
          payload: { type: template.type, role: template.role, forms: ['X'] },
        },
      ],
      [
        413,
        {
          method: 'POST',
          url: `/api/uploads/transactions/${transaction.id}`,
          ...multipart(Buffer.concat([pdf, Buffer.alloc(70 * 1024)])),
        },
      ],
      [
        415,
        {
          method: 'POST',
          url: `/api/uploads/transactions/${transaction.id}`,
          ...multipart(Buffer.from('plain text')),
        },
      ],
      [
        200,
        {
          url: `/trpc/transactions.list?input=${encodeURIComponent(JSON.stringify({ userId: agent.id }))}`,
          headers: bearer,
        },
      ],
      [401, { url: '/trpc/transactions.list' }],
      [404, { url: '/trpc/no.such.procedure' }],
      [200, { url: `${download.pathname}${download.search}` }],
      [403, { url: `${download.pathname}?exp=1&sig=forged` }],
      [200, { url: '/healthz' }],
      [200, { url: '/readyz' }],
      [200, { url: '/api/openapi.json' }],
      [404, { url: '/no-client-is-built-in-this-test' }],
    ];
    for (const [expectedStatus, request] of requests) {
      const res = await app.inject({
        ...request,
        headers: { ...request.headers, origin: 'https://evil.example' },
      });
      const label = `${request.method ?? 'GET'} ${request.url} -> ${res.statusCode}`;
      expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBe(expectedStatus);
      expectProtectiveHeaders(res, label, { overHttps: true });
      const url = String(request.url);
      if (/^\/(api|trpc|files)\//.test(url)) expect(res.headers['cache-control'], label).toBe('no-store');
    }
  });
});

describe('logs', () => {
  it('a whole account journey leaves no password, token, signature or Authorization value in the log', async () => {
    logs.lines.length = 0;
    const secrets: string[] = [];
    const password = 'journey-password-1';
    const newPassword = 'journey-password-2';
    secrets.push(password, newPassword);
    const email = 'journey@example.com';
    const post = (url: string, payload: object, token?: string) =>
      app.inject({
        method: 'POST',
        url,
        payload,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });

    expect(
      (
        await post('/api/auth/register', {
          firstName: 'June',
          lastName: 'Ray',
          company: 'Harbor Realty',
          email,
          phoneNumber: '+1 (555) 010-2030',
          password,
          confirmPassword: password,
        })
      ).statusCode,
    ).toBe(201);
    const verifyToken =
      linkIn((await inbox.waitFor(email)).text, `${APP_URL}/auth/verify-email/`)
        .split('/')
        .pop() ?? '';
    secrets.push(verifyToken);
    // The e-mailed link opened as a page, then confirmed through the API.
    await app.inject(`/auth/verify-email/${verifyToken}`);
    expect((await post('/api/auth/verify-email', { token: verifyToken })).statusCode).toBe(200);
    await database.db.user.update({ where: { email }, data: { isAdminApproved: true } });

    // A wrong password first: failures are logged too, and must not quote what was typed.
    const wrong = 'wrong-password-typed-9';
    secrets.push(wrong);
    expect((await post('/api/auth/login', { email, password: wrong })).statusCode).toBe(401);
    const session = (await post('/api/auth/login', { email, password })).json();
    secrets.push(session.token, session.refreshToken);
    const refreshed = (await post('/api/auth/refresh', { refreshToken: session.refreshToken })).json();
    secrets.push(refreshed.token, refreshed.refreshToken);
    expect((await getWith(profileOf(refreshed._id), refreshed.token)).statusCode).toBe(200);
    expect(
      (
        await post(
          `/api/settings/changePassword/${refreshed._id}`,
          { currentPassword: password, password: newPassword, confirmPassword: newPassword },
          refreshed.token,
        )
      ).statusCode,
    ).toBe(200);

    const sentBefore = inbox.messages.length;
    expect((await post('/api/auth/reset', { email })).statusCode).toBe(200);
    const resetToken =
      linkIn((await inbox.waitFor(email, { after: sentBefore })).text, `${APP_URL}/auth/new-password/`)
        .split('/')
        .pop() ?? '';
    secrets.push(resetToken);
    const finalPassword = 'journey-password-3';
    secrets.push(finalPassword);
    expect(
      (
        await post('/api/auth/reset/confirm', {
          token: resetToken,
          password: finalPassword,
          confirmPassword: finalPassword,
        })
      ).statusCode,
    ).toBe(200);

    // A download link's signature is a bearer capability for an hour.
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const uploaded = await injectUpload(
      app,
      `/api/uploads/transactions/${transaction.id}`,
      agentToken,
      TINY_PDF,
    );
    const link = new URL(uploaded.json().url);
    secrets.push(agentToken, link.searchParams.get('sig') ?? '');
    expect((await app.inject(`${link.pathname}${link.search}`)).statusCode).toBe(200);
    secrets.push(TEST_JWT_SECRET);

    // Every sign-in attempt is logged by account id (ASVS 16.3.1), never by what was typed.
    const signIns = logs.entries().filter((entry) => entry.event === 'sign-in');
    expect(signIns.map((entry) => entry.outcome)).toEqual(['wrong-password', 'signed-in']);
    expect(signIns.every((entry) => entry.userId === refreshed._id)).toBe(true);

    const everything = logs.lines.join('\n');
    // The capture really saw the journey: requests, their URLs and statuses.
    expect(everything).toContain('/api/auth/login');
    expect(everything).toContain('/files/transactions/');
    expect(logs.lines.length).toBeGreaterThan(20);
    for (const secret of secrets) {
      expect(secret.length, 'every secret was captured').toBeGreaterThan(7);
      expect(everything.includes(secret), `a secret of ${secret.length} characters is in the log`).toBe(
        false,
      );
    }
    expect(everything).not.toMatch(/Bearer\s+\S/i);
    expect(everything).not.toContain('$argon2');
    expect(everything).not.toContain(email);
  });
});
