import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiMessages, authMessages, validation } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { smtpMailer } from '../mail/mailer';
import { ACCESS_TOKEN_TTL_SECONDS } from '../security/access-tokens';
import { AUTH_LIMITS } from '../security/rate-limits';
import { hashSecretToken } from '../security/secret-tokens';
import { RESET_PASSWORD_TTL_MS, VERIFY_EMAIL_TTL_MS } from '../services/auth';
import { SESSION_MAX_LIFETIME_MS } from '../services/sign-in/session';
import { createAdmin, createOwner, createUser, DEFAULT_PASSWORD } from '../test/factories';
import {
  buildTestApp,
  countingHasher,
  setupTestDatabase,
  TestClock,
  testConfig,
  testDeps,
} from '../test/harness';
import { runTestJobs } from '../test/jobs';
import { linkIn, type SmtpInbox, startSmtpInbox } from '../test/smtp-inbox';

/**
 * Accounts end to end through the documented REST paths: real
 * PostgreSQL, real argon2, mail over real SMTP. Every argon2 call is counted, so "429 before
 * any hashing" is proven rather than assumed.
 */

const database = setupTestDatabase();
const APP_URL = 'http://portal.test';
let inbox: SmtpInbox;
let app: FastifyInstance;
let clock: TestClock;
let deps: AppDeps;
let argon2Calls: { hash: number; verify: number };

beforeAll(async () => {
  inbox = await startSmtpInbox();
});
// Mail leaves through the outbox and its job: the engine sends to the test inbox.
runTestJobs(database, () =>
  testDeps(database.db, {
    config: testConfig({ appUrl: APP_URL }),
    mailer: smtpMailer(inbox.url, 'Portal <no-reply@portal.test>'),
  }),
);
afterAll(async () => {
  await app?.close();
  await inbox.close();
});

/**
 * A fresh app, clock and rate-limit counters for every test; the database is shared. The counters
 * live in the database (rate_limit_windows), and every test starts its clock at the same instant,
 * so they are emptied here: each test counts from zero, as each did with a counter of its own.
 */
beforeEach(async () => {
  await app?.close();
  await database.db.$executeRaw`DELETE FROM rate_limit_windows`;
  clock = new TestClock();
  const hasher = countingHasher();
  argon2Calls = hasher.calls;
  deps = testDeps(database.db, {
    clock,
    config: testConfig({ appUrl: APP_URL }),
    mailer: smtpMailer(inbox.url, 'Portal <no-reply@portal.test>'),
    passwords: hasher,
  });
  app = buildTestApp(deps);
});

function post(url: string, payload: unknown, token?: string) {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

function get(url: string, token?: string) {
  return app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

let emailCounter = 0;
function registration(overrides: Record<string, string> = {}) {
  emailCounter++;
  return {
    firstName: 'Nadia',
    lastName: 'Reyes',
    company: 'Harbor Realty',
    email: `nadia${emailCounter}@example.com`,
    phoneNumber: '+1 (555) 010-2030',
    password: 'a long enough password',
    confirmPassword: 'a long enough password',
    ...overrides,
  };
}

async function tokenFromMail(to: string, path: string, after = 0): Promise<string> {
  const mail = await inbox.waitFor(to, { after });
  const url = linkIn(mail.text, `${APP_URL}${path}/`);
  expect(mail.html).toContain(`href="${url}"`);
  return url.slice(`${APP_URL}${path}/`.length);
}

async function signIn(email: string, password = DEFAULT_PASSWORD) {
  const res = await post('/api/auth/login', { email, password });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { token: string; refreshToken: string; _id: string };
}

async function ownerToken() {
  const owner = await createOwner(database.db, { email: `owner${++emailCounter}@example.com` }).catch(
    async () => database.db.user.findFirstOrThrow({ where: { isOwner: true } }),
  );
  return { owner, session: await signIn(owner.email) };
}

describe('registration, verification and approval', () => {
  it('register -> e-mailed link -> verify -> owner approves -> sign in', async () => {
    const input = registration();
    const registered = await post('/api/auth/register', input);
    expect(registered.statusCode).toBe(201);
    expect(registered.json()).toEqual({ message: apiMessages.registered });

    // Unverified and unapproved: the verification message wins, and only after the password matched.
    const beforeVerify = await post('/api/auth/login', { email: input.email, password: input.password });
    expect(beforeVerify.statusCode).toBe(403);
    expect(beforeVerify.json()).toEqual({
      message: authMessages.emailNotVerified,
      code: 'FORBIDDEN',
      error: 'email-not-verified',
    });

    const token = await tokenFromMail(input.email, '/auth/verify-email');
    const verified = await post('/api/auth/verify-email', { token });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ message: authMessages.verified });

    const beforeApproval = await post('/api/auth/login', { email: input.email, password: input.password });
    expect(beforeApproval.statusCode).toBe(403);
    expect(beforeApproval.json()).toEqual({
      message: authMessages.awaitingApproval,
      code: 'FORBIDDEN',
      error: 'forbidden',
    });

    const { session } = await ownerToken();
    const user = await database.db.user.findUniqueOrThrow({ where: { email: input.email } });
    const approved = await get(`/api/users/activate/${user.id}`, session.token);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ _id: user.id, isAdminApproved: true, isEmailVerified: true });

    // Addresses are matched case-insensitively.
    const signedIn = await signIn(input.email.toUpperCase(), input.password);
    expect(signedIn._id).toBe(user.id);
    expect(decodeJwt(signedIn.token)).toMatchObject({ sub: user.id, role: 'user' });

    const profile = await get(`/api/settings/getUser/${user.id}`, signedIn.token);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toEqual({
      _id: user.id,
      firstName: 'Nadia',
      lastName: 'Reyes',
      company: 'Harbor Realty',
      email: input.email,
      phoneNumber: input.phoneNumber,
      role: 'user',
      isAdminApproved: true,
      isEmailVerified: true,
      isOwner: false,
      status: 'active',
      deactivatedAt: null,
      createdAt: user.createdAt.toISOString(),
      officeId: null,
      coordinatesFor: [],
      isCoordinator: false,
      commissionPlanId: null,
    });
  });

  it('the users list tells an unverified registration, one awaiting approval, an active and a deactivated account apart', async () => {
    const input = registration();
    expect((await post('/api/auth/register', input)).statusCode).toBe(201);
    const { session } = await ownerToken();
    const statusOf = async () => {
      const res = await get(`/api/users?query=${encodeURIComponent(input.email)}`, session.token);
      expect(res.statusCode).toBe(200);
      const [found] = res.json().users as Array<{ status: string; deactivatedAt: string | null }>;
      return found && { status: found.status, deactivatedAt: found.deactivatedAt };
    };
    expect(await statusOf()).toEqual({ status: 'emailUnverified', deactivatedAt: null });

    const user = await database.db.user.findUniqueOrThrow({ where: { email: input.email } });
    // Refusing a registration that was never approved does not make it "deactivated".
    expect((await get(`/api/users/deactivated/${user.id}`, session.token)).statusCode).toBe(200);
    expect(await statusOf()).toEqual({ status: 'emailUnverified', deactivatedAt: null });

    await post('/api/auth/verify-email', { token: await tokenFromMail(input.email, '/auth/verify-email') });
    expect(await statusOf()).toEqual({ status: 'awaitingApproval', deactivatedAt: null });

    expect((await get(`/api/users/activate/${user.id}`, session.token)).json().status).toBe('active');
    expect(await statusOf()).toEqual({ status: 'active', deactivatedAt: null });

    const deactivated = await get(`/api/users/deactivated/${user.id}`, session.token);
    expect(deactivated.json()).toMatchObject({
      status: 'deactivated',
      isAdminApproved: false,
      deactivatedAt: clock.now().toISOString(),
    });
    expect(await statusOf()).toEqual({ status: 'deactivated', deactivatedAt: clock.now().toISOString() });

    await get(`/api/users/activate/${user.id}`, session.token);
    expect(await statusOf()).toEqual({ status: 'active', deactivatedAt: null });
  });

  it('a wrong password on an unverified account is a plain 401: the gates say nothing before the password', async () => {
    const input = registration();
    expect((await post('/api/auth/register', input)).statusCode).toBe(201);
    const res = await post('/api/auth/login', { email: input.email, password: 'not the password' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      message: authMessages.invalidCredentials,
      code: 'UNAUTHORIZED',
      error: 'unauthenticated',
    });
  });

  it('a taken address answers 409 and changes nothing, whatever its case', async () => {
    const input = registration();
    expect((await post('/api/auth/register', input)).statusCode).toBe(201);
    const before = await database.db.user.count();
    const again = await post('/api/auth/register', {
      ...input,
      email: input.email.toUpperCase(),
      firstName: 'Other',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: apiMessages.emailTaken, code: 'CONFLICT', error: 'conflict' });
    expect(await database.db.user.count()).toBe(before);
    expect((await database.db.user.findUniqueOrThrow({ where: { email: input.email } })).firstName).toBe(
      'Nadia',
    );
  });

  it('invalid input answers 400 with the product messages per field and creates nothing', async () => {
    const before = await database.db.user.count();
    const res = await post('/api/auth/register', {
      ...registration(),
      firstName: '  ',
      email: 'someone@example',
      phoneNumber: '555 0100',
      confirmPassword: 'something else entirely',
    });
    expect(res.statusCode).toBe(400);
    const body = res.json() as { code: string; issues: Array<{ path: string; message: string }> };
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: 'firstName', message: validation.fieldRequired },
        { path: 'email', message: validation.invalidEmailAddress },
        { path: 'phoneNumber', message: validation.phoneFormatRegister },
        { path: 'confirmPassword', message: validation.passwordsDoNotMatch },
      ]),
    );
    expect(await database.db.user.count()).toBe(before);
    expect(argon2Calls.hash).toBe(0);
  });

  it('accepts both phone styles the product shows', async () => {
    for (const phoneNumber of ['123-456-7890', '+44 20 7946 0958']) {
      expect((await post('/api/auth/register', registration({ phoneNumber }))).statusCode).toBe(201);
    }
  });

  it('a verification link works once and expires after 48 hours', async () => {
    const first = registration();
    await post('/api/auth/register', first);
    const token = await tokenFromMail(first.email, '/auth/verify-email');
    expect((await post('/api/auth/verify-email', { token })).statusCode).toBe(200);
    const reused = await post('/api/auth/verify-email', { token });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({
      message: authMessages.linkInvalid,
      code: 'BAD_REQUEST',
      error: 'validation',
    });

    const second = registration();
    await post('/api/auth/register', second);
    const late = await tokenFromMail(second.email, '/auth/verify-email');
    clock.advance(VERIFY_EMAIL_TTL_MS);
    expect((await post('/api/auth/verify-email', { token: late })).statusCode).toBe(400);
    const user = await database.db.user.findUniqueOrThrow({ where: { email: second.email } });
    expect(user.emailVerifiedAt).toBeNull();

    expect((await post('/api/auth/verify-email', { token: 'made-up-token' })).statusCode).toBe(400);
  });

  it('resend: a new link for an unverified address retires the old one; unknown addresses get the same answer', async () => {
    const input = registration();
    await post('/api/auth/register', input);
    const oldToken = await tokenFromMail(input.email, '/auth/verify-email');
    const mailCount = inbox.messages.length;

    const resent = await post('/api/auth/verify-email/resend', { email: input.email });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ message: apiMessages.verificationResent });
    const newToken = await tokenFromMail(input.email, '/auth/verify-email', mailCount);
    expect(newToken).not.toBe(oldToken);
    expect((await post('/api/auth/verify-email', { token: oldToken })).statusCode).toBe(400);
    expect((await post('/api/auth/verify-email', { token: newToken })).statusCode).toBe(200);

    const before = inbox.messages.length;
    const unknown = await post('/api/auth/verify-email/resend', { email: 'nobody-here@example.com' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ message: apiMessages.verificationResent });
    const verifiedAgain = await post('/api/auth/verify-email/resend', { email: input.email });
    expect(verifiedAgain.json()).toEqual({ message: apiMessages.verificationResent });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(inbox.messages.length).toBe(before);
  });

  it('a registration is kept when the mail server is down', async () => {
    const down = await startSmtpInbox();
    await down.close();
    const broken = buildTestApp({ ...deps, mailer: smtpMailer(down.url, 'x@portal.test') });
    try {
      const input = registration();
      const res = await broken.inject({ method: 'POST', url: '/api/auth/register', payload: input });
      expect(res.statusCode).toBe(201);
      expect(await database.db.user.findUnique({ where: { email: input.email } })).not.toBeNull();
    } finally {
      await broken.close();
    }
  });
});

describe('e-mail addresses', () => {
  it('takes any top-level domain, in a registration and in an account an admin adds', async () => {
    emailCounter++;
    const realty = `nadia${emailCounter}@acme.realty`;
    const registered = await post('/api/auth/register', registration({ email: realty }));
    expect(registered.statusCode, registered.body).toBe(201);
    expect(await database.db.user.count({ where: { email: realty } })).toBe(1);

    const { session } = await ownerToken();
    const homes = `omar${emailCounter}@brokerage.homes`;
    const added = await app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { authorization: `Bearer ${session.token}` },
      payload: {
        firstName: 'Omar',
        lastName: 'Haddad',
        email: homes,
        phoneNumber: '555-010-2040',
        company: 'Harbor Realty',
        role: 'user',
        password: 'a long enough password',
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ email: homes });

    // Still refused: an address with no domain part after the @ to speak of.
    const refused = await post('/api/auth/register', registration({ email: 'nadia@localhost' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toContainEqual({ path: 'email', message: validation.invalidEmailAddress });
  });
});

describe('sign-in', () => {
  it('unknown e-mail and wrong password: same status, same body, one argon2 verification each', async () => {
    const user = await createUser(database.db);
    const wrongPassword = await post('/api/auth/login', { email: user.email, password: 'wrong password!' });
    const verifiesForWrongPassword = argon2Calls.verify;
    const unknownEmail = await post('/api/auth/login', {
      email: 'nobody@example.com',
      password: 'wrong password!',
    });

    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.body).toBe(wrongPassword.body);
    expect(wrongPassword.json()).toEqual({
      message: authMessages.invalidCredentials,
      code: 'UNAUTHORIZED',
      error: 'unauthenticated',
    });
    // The unknown address costs a real argon2 verification too, so timing does not tell them apart.
    expect(verifiesForWrongPassword).toBe(1);
    expect(argon2Calls.verify).toBe(2);
  });

  it('10 failures for one account from one address: the 11th attempt is 429 without hashing, even with the right password', async () => {
    const user = await createUser(database.db);
    for (let i = 0; i < AUTH_LIMITS.loginFailuresPerAccount.max; i++) {
      expect(
        (await post('/api/auth/login', { email: user.email, password: `wrong-${i}-pass` })).statusCode,
      ).toBe(401);
    }
    const verifies = argon2Calls.verify;
    const limited = await post('/api/auth/login', { email: user.email, password: DEFAULT_PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      message: apiMessages.tooManyRequests,
      code: 'TOO_MANY_REQUESTS',
      error: 'rate-limited',
    });
    expect(argon2Calls.verify).toBe(verifies);

    // Another account from the same address is not locked out by someone else's failures.
    const other = await createUser(database.db);
    expect(
      (await post('/api/auth/login', { email: other.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(200);

    clock.advance(AUTH_LIMITS.loginFailuresPerAccount.windowMs);
    expect(
      (await post('/api/auth/login', { email: user.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(200);
  });

  it('a success clears the failure count for that account', async () => {
    const user = await createUser(database.db);
    for (let i = 0; i < AUTH_LIMITS.loginFailuresPerAccount.max - 1; i++) {
      await post('/api/auth/login', { email: user.email, password: 'wrong password' });
    }
    await signIn(user.email);
    for (let i = 0; i < AUTH_LIMITS.loginFailuresPerAccount.max - 1; i++) {
      expect(
        (await post('/api/auth/login', { email: user.email, password: 'wrong password' })).statusCode,
      ).toBe(401);
    }
  });

  it('100 attempts per address in 15 minutes, across accounts; then 429 without hashing', async () => {
    for (let i = 0; i < AUTH_LIMITS.loginPerIp.max; i++) {
      await post('/api/auth/login', { email: `spray${i}@example.com`, password: 'password1' });
    }
    const verifies = argon2Calls.verify;
    const user = await createUser(database.db);
    expect(
      (await post('/api/auth/login', { email: user.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(429);
    expect(argon2Calls.verify).toBe(verifies);
  });

  it('the same answer comes through tRPC', async () => {
    const user = await createUser(database.db);
    const res = await app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      payload: { email: user.email, password: DEFAULT_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data).toMatchObject({ _id: user.id });
    const wrong = await app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      payload: { email: user.email, password: 'not it at all' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.message).toBe(authMessages.invalidCredentials);
  });
});

describe('sessions', () => {
  it('an access token lasts 15 minutes; a refresh then gives a working pair', async () => {
    const user = await createUser(database.db);
    const session = await signIn(user.email);
    clock.advance(ACCESS_TOKEN_TTL_SECONDS * 1000 - 1000);
    expect((await get(`/api/settings/getUser/${user.id}`, session.token)).statusCode).toBe(200);
    clock.advance(1000);
    const expired = await get(`/api/settings/getUser/${user.id}`, session.token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({
      message: apiMessages.sessionInvalid,
      code: 'UNAUTHORIZED',
      error: 'unauthenticated',
    });

    const refreshed = await post('/api/auth/refresh', { refreshToken: session.refreshToken });
    expect(refreshed.statusCode).toBe(200);
    const next = refreshed.json() as { token: string; refreshToken: string; _id: string };
    expect(next._id).toBe(user.id);
    expect(next.refreshToken).not.toBe(session.refreshToken);
    expect((await get(`/api/settings/getUser/${user.id}`, next.token)).statusCode).toBe(200);
  });

  it('refresh tokens are stored hashed, never as issued', async () => {
    const user = await createUser(database.db);
    const { refreshToken } = await signIn(user.email);
    const rows = await database.db.refreshToken.findMany({ where: { userId: user.id } });
    expect(rows.map((r) => r.tokenHash)).toEqual([hashSecretToken(refreshToken)]);
    expect(JSON.stringify(rows)).not.toContain(refreshToken);
  });

  it('replaying a rotated refresh token revokes its whole family, and only that family', async () => {
    const user = await createUser(database.db);
    const stolen = await signIn(user.email);
    const otherDevice = await signIn(user.email);
    const rotated = (await post('/api/auth/refresh', { refreshToken: stolen.refreshToken })).json();

    const replay = await post('/api/auth/refresh', { refreshToken: stolen.refreshToken });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({
      message: apiMessages.sessionInvalid,
      code: 'UNAUTHORIZED',
      error: 'unauthenticated',
    });
    // The legitimate holder's newer token is dead too: the thief cannot keep the session alive.
    expect((await post('/api/auth/refresh', { refreshToken: rotated.refreshToken })).statusCode).toBe(401);
    // The same user's other sign-in is untouched.
    expect((await post('/api/auth/refresh', { refreshToken: otherDevice.refreshToken })).statusCode).toBe(
      200,
    );
  });

  it('two simultaneous refreshes with one token: one wins, the session survives no replay', async () => {
    const user = await createUser(database.db);
    const session = await signIn(user.email);
    const answers = await Promise.all([
      post('/api/auth/refresh', { refreshToken: session.refreshToken }),
      post('/api/auth/refresh', { refreshToken: session.refreshToken }),
    ]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 401]);
    // Using one token twice is a reuse, concurrent or not: the family is gone.
    const winner = answers.find((a) => a.statusCode === 200)?.json();
    expect((await post('/api/auth/refresh', { refreshToken: winner.refreshToken })).statusCode).toBe(401);
  });

  it('a refresh token expires after 30 days unused, and no session outlives 90 days', async () => {
    const user = await createUser(database.db);
    const idle = await signIn(user.email);
    clock.advance(30 * 24 * 3600 * 1000);
    expect((await post('/api/auth/refresh', { refreshToken: idle.refreshToken })).statusCode).toBe(401);

    let session = await signIn(user.email);
    const started = clock.now().getTime();
    while (clock.now().getTime() + 25 * 24 * 3600 * 1000 < started + SESSION_MAX_LIFETIME_MS) {
      clock.advance(25 * 24 * 3600 * 1000);
      const res = await post('/api/auth/refresh', { refreshToken: session.refreshToken });
      expect(res.statusCode).toBe(200);
      session = res.json();
    }
    clock.advance(started + SESSION_MAX_LIFETIME_MS - clock.now().getTime());
    expect((await post('/api/auth/refresh', { refreshToken: session.refreshToken })).statusCode).toBe(401);
  });

  it('refresh is limited to 60 per 15 minutes per address', async () => {
    for (let i = 0; i < AUTH_LIMITS.refreshPerIp.max; i++) {
      expect((await post('/api/auth/refresh', { refreshToken: `nonsense-${i}` })).statusCode).toBe(401);
    }
    const user = await createUser(database.db);
    const session = await signIn(user.email);
    expect((await post('/api/auth/refresh', { refreshToken: session.refreshToken })).statusCode).toBe(429);
  });

  it('logout (204) ends that session only; logging out twice or with junk is harmless', async () => {
    const user = await createUser(database.db);
    const a = await signIn(user.email);
    const b = await signIn(user.email);
    const out = await post('/api/auth/logout', { refreshToken: a.refreshToken });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    expect((await post('/api/auth/refresh', { refreshToken: a.refreshToken })).statusCode).toBe(401);
    expect((await post('/api/auth/refresh', { refreshToken: b.refreshToken })).statusCode).toBe(200);
    expect((await post('/api/auth/logout', { refreshToken: a.refreshToken })).statusCode).toBe(204);
    expect((await post('/api/auth/logout', { refreshToken: 'junk' })).statusCode).toBe(204);
  });

  it('deactivation cuts an existing access token and every refresh token at once', async () => {
    const admin = await createAdmin(database.db);
    const adminSession = await signIn(admin.email);
    const user = await createUser(database.db);
    const session = await signIn(user.email);
    expect((await get(`/api/settings/getUser/${user.id}`, session.token)).statusCode).toBe(200);

    const deactivated = await get(`/api/users/deactivated/${user.id}`, adminSession.token);
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json()).toMatchObject({ _id: user.id, isAdminApproved: false });

    expect((await get(`/api/settings/getUser/${user.id}`, session.token)).statusCode).toBe(401);
    expect((await post('/api/auth/refresh', { refreshToken: session.refreshToken })).statusCode).toBe(401);
    const login = await post('/api/auth/login', { email: user.email, password: DEFAULT_PASSWORD });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toBe(authMessages.awaitingApproval);
  });

  it('a role change applies to the next request, whatever the token says', async () => {
    const user = await createUser(database.db);
    const session = await signIn(user.email);
    expect((await get('/api/users', session.token)).statusCode).toBe(403);
    await database.db.user.update({ where: { id: user.id }, data: { role: 'admin' } });
    expect((await get('/api/users', session.token)).statusCode).toBe(200);
  });
});

describe('password reset', () => {
  it('unknown address: 404 "We didn\'t find your email", and no mail', async () => {
    const before = inbox.messages.length;
    const res = await post('/api/auth/reset', { email: 'nobody-at-all@example.com' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      message: "We didn't find your email",
      code: 'NOT_FOUND',
      error: 'not-found',
    });
    expect(inbox.messages.length).toBe(before);
  });

  it('link by mail -> new password; every session ends, the old password stops working', async () => {
    const user = await createUser(database.db);
    const session = await signIn(user.email);
    const after = inbox.messages.length;
    const requested = await post('/api/auth/reset', { email: user.email });
    expect(requested.statusCode).toBe(200);
    expect(requested.json()).toEqual({ message: apiMessages.resetSent });
    const token = await tokenFromMail(user.email, '/auth/new-password', after);

    const mismatch = await post('/api/auth/reset/confirm', {
      token,
      password: 'brand new password',
      confirmPassword: 'different password',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().issues).toEqual([
      { path: 'confirmPassword', message: validation.passwordsDoNotMatch },
    ]);

    const confirmed = await post('/api/auth/reset/confirm', {
      token,
      password: 'brand new password',
      confirmPassword: 'brand new password',
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ message: authMessages.passwordReset });

    expect((await get(`/api/settings/getUser/${user.id}`, session.token)).statusCode).toBe(401);
    expect((await post('/api/auth/refresh', { refreshToken: session.refreshToken })).statusCode).toBe(401);
    expect(
      (await post('/api/auth/login', { email: user.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(401);
    await signIn(user.email, 'brand new password');

    const reused = await post('/api/auth/reset/confirm', {
      token,
      password: 'another new password',
      confirmPassword: 'another new password',
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({
      message: authMessages.linkInvalid,
      code: 'BAD_REQUEST',
      error: 'validation',
    });
  });

  it('a reset link expires after 1 hour; an invalid one costs no hashing', async () => {
    const user = await createUser(database.db);
    const after = inbox.messages.length;
    await post('/api/auth/reset', { email: user.email });
    const token = await tokenFromMail(user.email, '/auth/new-password', after);
    clock.advance(RESET_PASSWORD_TTL_MS);
    const hashes = argon2Calls.hash;
    const late = await post('/api/auth/reset/confirm', {
      token,
      password: 'brand new password',
      confirmPassword: 'brand new password',
    });
    expect(late.statusCode).toBe(400);
    const forged = await post('/api/auth/reset/confirm', {
      token: 'x'.repeat(43),
      password: 'brand new password',
      confirmPassword: 'brand new password',
    });
    expect(forged.statusCode).toBe(400);
    expect(argon2Calls.hash).toBe(hashes);
    await signIn(user.email);
  });

  it('a verification token cannot reset a password', async () => {
    const input = registration();
    await post('/api/auth/register', input);
    const token = await tokenFromMail(input.email, '/auth/verify-email');
    const res = await post('/api/auth/reset/confirm', {
      token,
      password: 'hijacked password',
      confirmPassword: 'hijacked password',
    });
    expect(res.statusCode).toBe(400);
  });

  it('5 requests per address in 15 minutes, then 429', async () => {
    const user = await createUser(database.db);
    for (let i = 0; i < AUTH_LIMITS.resetPerEmail.max; i++) {
      expect((await post('/api/auth/reset', { email: user.email })).statusCode).toBe(200);
    }
    expect((await post('/api/auth/reset', { email: user.email.toUpperCase() })).statusCode).toBe(429);
  });

  it('a reset no longer waits for the mail server: 200 at once, the mail queued with its token and sent by a job', async () => {
    // The app's own mailer is down; requests never use it now: the job engine sends.
    const down = await startSmtpInbox();
    await down.close();
    const broken = buildTestApp({ ...deps, mailer: smtpMailer(down.url, 'x@portal.test') });
    try {
      const user = await createUser(database.db);
      const after = inbox.messages.length;
      const res = await broken.inject({
        method: 'POST',
        url: '/api/auth/reset',
        payload: { email: user.email },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: apiMessages.resetSent });
      const queued = await database.db.mailOutbox.findFirst({
        where: { userId: user.id, kind: 'account.reset-password' },
        select: { sealed: true },
      });
      // Sealed: the reset link is not readable in the database.
      expect(queued?.sealed).toMatch(/^v1\./);
      expect(queued?.sealed).not.toContain('new-password');
      const token = await tokenFromMail(user.email, '/auth/new-password', after);
      expect(token.length).toBeGreaterThan(20);
    } finally {
      await broken.close();
    }
  });
});

describe('registration limit', () => {
  it('20 registrations per hour per address, then 429 before any hashing', async () => {
    for (let i = 0; i < AUTH_LIMITS.registerPerIp.max; i++) {
      expect((await post('/api/auth/register', registration())).statusCode).toBe(201);
    }
    const hashes = argon2Calls.hash;
    const res = await post('/api/auth/register', registration());
    expect(res.statusCode).toBe(429);
    expect(argon2Calls.hash).toBe(hashes);
    clock.advance(AUTH_LIMITS.registerPerIp.windowMs);
    expect((await post('/api/auth/register', registration())).statusCode).toBe(201);
  });
});

describe('user paths', () => {
  it('a user reads only their own profile (403 before any lookup); admins read anyone; secrets never leave', async () => {
    const user = await createUser(database.db);
    const other = await createUser(database.db);
    const admin = await createAdmin(database.db);
    const mine = await signIn(user.email);
    expect((await get(`/api/settings/getUser/${other.id}`, mine.token)).statusCode).toBe(403);
    expect(
      (await get(`/api/settings/getUser/00000000-0000-4000-8000-000000000000`, mine.token)).statusCode,
    ).toBe(403);

    const adminSession = await signIn(admin.email);
    const read = await get(`/api/settings/getUser/${other.id}`, adminSession.token);
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toMatch(/password|hash|tokenVersion/i);
    expect(
      (await get(`/api/settings/getUser/00000000-0000-4000-8000-000000000000`, adminSession.token))
        .statusCode,
    ).toBe(404);
  });

  it('anonymous calls get 401 whatever their input', async () => {
    expect((await get('/api/settings/getUser/not-a-uuid')).statusCode).toBe(401);
    expect((await get('/api/users?page=abc')).statusCode).toBe(401);
    expect((await get('/api/users/activate/x')).statusCode).toBe(401);
  });

  it('the owner cannot be deactivated, nor an admin deactivate themself', async () => {
    const { owner } = await ownerToken();
    const admin = await createAdmin(database.db);
    const adminSession = await signIn(admin.email);
    const res = await get(`/api/users/deactivated/${owner.id}`, adminSession.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(apiMessages.ownerCannotBeDeactivated);
    const self = await get(`/api/users/deactivated/${admin.id}`, adminSession.token);
    expect(self.statusCode).toBe(403);
    expect((await database.db.user.findUniqueOrThrow({ where: { id: admin.id } })).isAdminApproved).toBe(
      true,
    );
  });

  it('users list: admins only, paged, searchable, newest first', async () => {
    const admin = await createAdmin(database.db);
    const marker = `Zyx${Date.now()}`;
    const a = await createUser(database.db, {
      company: `${marker} Homes`,
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    const b = await createUser(database.db, {
      lastName: marker,
      createdAt: new Date('2026-02-01T00:00:00Z'),
    });
    const session = await signIn(admin.email);
    const res = await get(`/api/users?query=${marker.toLowerCase()}&page=1&limit=10`, session.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.users.map((u: { _id: string }) => u._id)).toEqual([b.id, a.id]);
    expect(body).toMatchObject({ totalUsers: 2, totalPages: 1 });
    const page2 = (await get(`/api/users?query=${marker}&page=2&limit=1`, session.token)).json();
    expect(page2.users.map((u: { _id: string }) => u._id)).toEqual([a.id]);
    expect(page2.totalPages).toBe(2);
    // LIKE wildcards in the query are literal characters, not patterns.
    expect((await get('/api/users?query=%25', session.token)).json().totalUsers).toBe(0);
  });
});
