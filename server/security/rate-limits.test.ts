import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../shared/messages';
import { createDb, type Db } from '../db/client';
import { loggerOptions } from '../logger';
import { createUser, DEFAULT_PASSWORD } from '../test/factories';
import { buildTestApp, countingHasher, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { captureLogs } from '../test/log-capture';
import { until } from '../test/until';
import {
  AUTH_LIMITS,
  createRateLimiter,
  type LimitName,
  type LimitRule,
  SWEEP_INTERVAL_MS,
} from './rate-limits';

/**
 * The sign-in, registration, reset and refresh limits counted in PostgreSQL: one count
 * per key for every instance on the database. "Another instance" here is what it is in
 * production: its own limiter on its own connection pool (and, for the HTTP tests, its own app)
 * on the same database. Every test counts against addresses and keys of its own; the table is
 * shared by the whole file.
 */

const database = setupTestDatabase();
/** A second pool on the same database: the connections of another instance. */
let otherDb: Db;
const apps: FastifyInstance[] = [];

beforeAll(() => {
  otherDb = createDb(database.url, { poolSize: 5 });
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
afterAll(async () => {
  await otherDb.$disconnect();
});

async function rows(name?: LimitName): Promise<number> {
  const [row] = await database.db.$queryRaw<[{ n: number }]>`
    SELECT count(*)::int AS n FROM rate_limit_windows WHERE ${name ?? null}::text IS NULL OR name = ${name ?? null}`;
  return row.n;
}

describe('the limiter', () => {
  it('allows exactly `max` events per window, then refuses until the window ends', async () => {
    const clock = new TestClock();
    const limiter = createRateLimiter(database.db, clock);
    const { max, windowMs } = AUTH_LIMITS.registerPerIp;
    for (let i = 0; i < max; i++) expect(await limiter.take(['registerPerIp', '10.1.0.1'])).toBe(true);
    expect(await limiter.take(['registerPerIp', '10.1.0.1'])).toBe(false);

    clock.advance(windowMs - 1);
    expect(await limiter.take(['registerPerIp', '10.1.0.1'])).toBe(false);
    clock.advance(1);
    // A new window: counted from 1 again, so the full budget is back.
    for (let i = 0; i < max; i++) expect(await limiter.take(['registerPerIp', '10.1.0.1'])).toBe(true);
    expect(await limiter.take(['registerPerIp', '10.1.0.1'])).toBe(false);
  });

  it('keeps keys and limits apart', async () => {
    const limiter = createRateLimiter(database.db, new TestClock());
    for (let i = 0; i < AUTH_LIMITS.refreshPerIp.max; i++) await limiter.take(['refreshPerIp', '10.2.0.1']);
    expect(await limiter.take(['refreshPerIp', '10.2.0.1'])).toBe(false);
    expect(await limiter.take(['refreshPerIp', '10.2.0.2'])).toBe(true);
    expect(await limiter.take(['registerPerIp', '10.2.0.1'])).toBe(true);
  });

  it('counts several keys together: nothing is counted when one of them is used up', async () => {
    const limiter = createRateLimiter(database.db, new TestClock());
    for (let i = 0; i < AUTH_LIMITS.resetPerEmail.max; i++)
      expect(await limiter.take(['resetPerEmail', 'full@example.com'], ['resetPerIp', '10.3.0.1'])).toBe(
        true,
      );
    // The e-mail is used up: refused, and the address is not charged for it.
    for (let i = 0; i < 10; i++)
      expect(await limiter.take(['resetPerEmail', 'full@example.com'], ['resetPerIp', '10.3.0.1'])).toBe(
        false,
      );
    const [row] = await database.db.$queryRaw<[{ count: number }]>`
      SELECT count FROM rate_limit_windows WHERE name = 'resetPerIp' AND key = sha256(convert_to('10.3.0.1', 'UTF8'))`;
    expect(row.count).toBe(AUTH_LIMITS.resetPerEmail.max);
  });

  it('a refusal names the limit that refused and when its window ends, the latest of those used up', async () => {
    const clock = new TestClock();
    const limiter = createRateLimiter(database.db, clock);
    const email = ['resetPerEmail', 'later@example.com'] as const;
    const ip = ['resetPerIp', '10.3.1.1'] as const;
    for (let i = 0; i < AUTH_LIMITS.resetPerEmail.max; i++) expect(await limiter.take(email, ip)).toBe(true);
    clock.advance(60_000);
    expect(await limiter.take(email, ip)).toBe(false);
    const refusal = await limiter.refused(email, ip);
    expect(refusal.code).toBe('TOO_MANY_REQUESTS');
    // The e-mail's window began a minute ago: it ends in its 15 minutes less that minute.
    const seconds = String(AUTH_LIMITS.resetPerEmail.windowMs / 1000 - 60);
    expect(refusal.headers).toEqual({
      'retry-after': seconds,
      'x-ratelimit-limit': String(AUTH_LIMITS.resetPerEmail.max),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': seconds,
    });
    await expect(limiter.check(email, ip)).rejects.toMatchObject({ headers: refusal.headers });
  });

  it('reset clears one key at once, and only that key', async () => {
    const limiter = createRateLimiter(database.db, new TestClock());
    const { max } = AUTH_LIMITS.loginFailuresPerAccount;
    for (let i = 0; i < max; i++) {
      await limiter.take(['loginFailuresPerAccount', 'a@example.com\u000010.4.0.1']);
      await limiter.take(['loginFailuresPerAccount', 'b@example.com\u000010.4.0.1']);
    }
    await limiter.reset('loginFailuresPerAccount', 'a@example.com\u000010.4.0.1');
    expect(await limiter.take(['loginFailuresPerAccount', 'a@example.com\u000010.4.0.1'])).toBe(true);
    expect(await limiter.take(['loginFailuresPerAccount', 'b@example.com\u000010.4.0.1'])).toBe(false);
  });

  it('two instances counting the same key at once lose no count and let exactly `max` through', async () => {
    const clock = new TestClock();
    const roomy: Record<LimitName, LimitRule> = {
      ...AUTH_LIMITS,
      loginPerIp: { max: 1_000, windowMs: 60_000 },
    };
    const a = createRateLimiter(database.db, clock, roomy);
    const b = createRateLimiter(otherDb, clock, roomy);
    const takes = 200;
    const answers = await Promise.all(
      Array.from({ length: takes }, (_, i) => (i % 2 ? a : b).take(['loginPerIp', '10.5.0.1'])),
    );
    expect(answers.every(Boolean)).toBe(true);
    const [row] = await database.db.$queryRaw<[{ count: number }]>`
      SELECT count FROM rate_limit_windows WHERE name = 'loginPerIp' AND key = sha256(convert_to('10.5.0.1', 'UTF8'))`;
    expect(row.count).toBe(takes);

    // At the production maximum, a burst split over both instances gets exactly `max` yeses.
    const c = createRateLimiter(database.db, clock);
    const d = createRateLimiter(otherDb, clock);
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? c : d).take(['registerPerIp', '10.5.0.2'])),
    );
    expect(burst.filter(Boolean)).toHaveLength(AUTH_LIMITS.registerPerIp.max);
  });

  it('two instances racing for the last place in a window: exactly one gets it', async () => {
    const clock = new TestClock();
    const a = createRateLimiter(database.db, clock);
    const b = createRateLimiter(otherDb, clock);
    const ip = '10.5.0.3';
    const { max } = AUTH_LIMITS.refreshPerIp;
    for (let i = 0; i < max - 1; i++) expect(await a.take(['refreshPerIp', ip])).toBe(true);

    // Hold the row, so that both counts have passed their "already used up?" check (max - 1 is
    // not) before either may write: the worst interleaving, made certain instead of hoped for.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(
        "SELECT 1 FROM rate_limit_windows WHERE name = 'refreshPerIp' AND key = sha256(convert_to($1, 'UTF8')) FOR UPDATE",
        [ip],
      );
      const racing = Promise.all([a.take(['refreshPerIp', ip]), b.take(['refreshPerIp', ip])]);
      await until(async () => {
        const { rows: waiting } = await holder.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        return (waiting[0]?.n ?? 0) >= 2;
      }, 5_000);
      await holder.query('COMMIT');
      expect((await racing).filter(Boolean)).toHaveLength(1);
    } finally {
      await holder.end();
    }
    // Both were counted (no count lost); the one past the maximum was refused.
    const [row] = await database.db.$queryRaw<[{ count: number }]>`
      SELECT count FROM rate_limit_windows WHERE name = 'refreshPerIp' AND key = sha256(convert_to(${ip}, 'UTF8'))`;
    expect(row.count).toBe(max + 1);
  });

  it('sweeps expired windows, at most once a minute per instance, and keeps live ones', async () => {
    await database.db.$executeRaw`DELETE FROM rate_limit_windows`;
    const clock = new TestClock();
    // A 10-second window, to show a row that expired less than a minute after the last sweep.
    const rules = { ...AUTH_LIMITS, resetPerIp: { max: 30, windowMs: 10_000 } };
    const limiter = createRateLimiter(database.db, clock, rules);
    await limiter.take(['registerPerIp', '10.6.0.1']); // a 60-minute window: still live below
    for (let i = 0; i < 50; i++) await limiter.take(['refreshPerIp', `10.6.1.${i}`]);
    expect(await rows()).toBe(51);

    clock.advance(AUTH_LIMITS.refreshPerIp.windowMs);
    await limiter.take(['refreshPerIp', '10.6.2.1']);
    // The 50 expired 15-minute windows are gone; the live one and the new one stay.
    expect(await rows('refreshPerIp')).toBe(1);
    expect(await rows('registerPerIp')).toBe(1);

    // Within the minute after a sweep, nothing is swept: the cost stays one DELETE a minute.
    await limiter.take(['resetPerIp', '10.6.3.1']);
    clock.advance(SWEEP_INTERVAL_MS / 2);
    await limiter.take(['refreshPerIp', '10.6.2.2']);
    expect(await rows('resetPerIp')).toBe(1); // expired 20 s ago, not swept yet
    clock.advance(SWEEP_INTERVAL_MS / 2);
    await limiter.take(['refreshPerIp', '10.6.2.3']);
    expect(await rows('resetPerIp')).toBe(0);
    expect(await rows()).toBe(4); // the live registerPerIp and refreshPerIp windows
  });

  it('stores no key in clear, in an UNLOGGED table', async () => {
    const limiter = createRateLimiter(database.db, new TestClock());
    await limiter.take(['resetPerEmail', 'typed-secret@example.com']);
    const [row] = await database.db.$queryRaw<[{ clear: number; lengths: number[]; persistence: string }]>`
      SELECT (SELECT count(*)::int FROM rate_limit_windows
               WHERE position(convert_to('typed-secret', 'UTF8') IN key) > 0) AS clear,
             (SELECT array_agg(DISTINCT octet_length(key)) FROM rate_limit_windows) AS lengths,
             (SELECT relpersistence::text FROM pg_class WHERE relname = 'rate_limit_windows') AS persistence`;
    expect(row).toEqual({ clear: 0, lengths: [32], persistence: 'u' });
  });
});

describe('every instance shares the limits (two apps on one database)', () => {
  /** Two instances: own app, own limiter, own pool; one database, clocks in step. */
  function twoInstances() {
    const clock = new TestClock();
    const passwords = countingHasher();
    const a = buildTestApp(testDeps(database.db, { clock, passwords }));
    const b = buildTestApp(testDeps(otherDb, { clock, passwords }));
    apps.push(a, b);
    return { a, b, clock, passwords };
  }

  const signIn = (app: FastifyInstance, remoteAddress: string, email: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email, password } });

  it('10 failed sign-ins alternating between A and B lock the account on both, before any hashing', async () => {
    const { a, b, clock, passwords } = twoInstances();
    const user = await createUser(database.db);
    const ip = '10.7.0.1';
    for (let i = 0; i < AUTH_LIMITS.loginFailuresPerAccount.max; i++) {
      const res = await signIn(i % 2 ? b : a, ip, user.email, 'wrong-password-1');
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const hashesBefore = argon2Calls(passwords);
    for (const app of [a, b]) {
      const limited = await signIn(app, ip, user.email, DEFAULT_PASSWORD);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        message: apiMessages.tooManyRequests,
        code: 'TOO_MANY_REQUESTS',
        error: 'rate-limited',
      });
    }
    expect(argon2Calls(passwords)).toBe(hashesBefore);

    clock.advance(AUTH_LIMITS.loginFailuresPerAccount.windowMs);
    expect((await signIn(b, ip, user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('30 guesses at one account at once, over both instances: exactly 10 reach argon2', async () => {
    const { a, b, passwords } = twoInstances();
    const user = await createUser(database.db);
    const hashesBefore = argon2Calls(passwords);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signIn(i % 2 ? b : a, '10.7.0.2', user.email, `wrong-guess-${i}`)),
    );
    const { max } = AUTH_LIMITS.loginFailuresPerAccount;
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - max);
    expect(argon2Calls(passwords) - hashesBefore).toBe(max);
  });

  it('a success on one instance clears the failures counted by the other', async () => {
    const { a, b } = twoInstances();
    const user = await createUser(database.db);
    const ip = '10.7.1.1';
    const failures = AUTH_LIMITS.loginFailuresPerAccount.max - 1;
    for (let i = 0; i < failures; i++) await signIn(a, ip, user.email, 'wrong-password-1');
    expect((await signIn(b, ip, user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < failures; i++)
      expect((await signIn(a, ip, user.email, 'wrong-password-1')).statusCode).toBe(401);
    expect((await signIn(b, ip, user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('100 sign-ins per address, whichever instance they reach; the 101st is 429 on both', async () => {
    const { a, b, passwords } = twoInstances();
    const ip = '10.7.2.1';
    const { max } = AUTH_LIMITS.loginPerIp;
    // Concurrent, split over both: every one of the 100 is answered (401), none limited.
    const answers = await Promise.all(
      Array.from({ length: max }, (_, i) =>
        signIn(i % 2 ? b : a, ip, `nobody${i}@example.com`, 'password-1'),
      ),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array(max).fill(401));
    const hashesBefore = argon2Calls(passwords);
    expect((await signIn(a, ip, 'someone@example.com', 'password-1')).statusCode).toBe(429);
    expect((await signIn(b, ip, 'someone@example.com', 'password-1')).statusCode).toBe(429);
    expect(argon2Calls(passwords)).toBe(hashesBefore);
  });

  it('30 registrations at once over both instances: exactly 20 are accepted, the rest 429 unhashed', async () => {
    const { a, b, passwords } = twoInstances();
    const hashesBefore = argon2Calls(passwords);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? b : a).inject({
          method: 'POST',
          url: '/api/auth/register',
          remoteAddress: '10.7.3.1',
          payload: {
            firstName: 'Nadia',
            lastName: 'Reyes',
            company: 'Harbor Realty',
            email: `shared-limit-${i}@example.com`,
            phoneNumber: '+1 (555) 010-2030',
            password: 'a long enough password',
            confirmPassword: 'a long enough password',
          },
        }),
      ),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(AUTH_LIMITS.registerPerIp.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - AUTH_LIMITS.registerPerIp.max);
    expect(argon2Calls(passwords) - hashesBefore).toBe(AUTH_LIMITS.registerPerIp.max);
  });
});

describe('when the limits cannot be counted', () => {
  const broken = setupTestDatabase();

  it('a database error answers 503 with the outage message, not 500 and not an uncounted guess', async () => {
    // Not a connection failure (those are recognised everywhere): a statement that fails.
    await broken.db.$executeRaw`DROP TABLE rate_limit_windows`;
    const user = await createUser(broken.db);
    const passwords = countingHasher();
    const logs = captureLogs(loggerOptions('warn'));
    const app = buildTestApp(testDeps(broken.db, { passwords }), { loggerInstance: logs.logger });
    apps.push(app);

    const calls: Array<[string, object]> = [
      ['/api/auth/login', { email: user.email, password: DEFAULT_PASSWORD }],
      ['/api/auth/refresh', { refreshToken: 'a'.repeat(43) }],
      ['/api/auth/reset', { email: user.email }],
      [
        '/api/auth/register',
        {
          firstName: 'Nadia',
          lastName: 'Reyes',
          company: 'Harbor Realty',
          email: 'outage@example.com',
          phoneNumber: '+1 (555) 010-2030',
          password: 'a long enough password',
          confirmPassword: 'a long enough password',
        },
      ],
    ];
    for (const [url, payload] of calls) {
      const res = await app.inject({ method: 'POST', url, payload });
      expect(res.statusCode, url).toBe(503);
      expect(res.json()).toEqual({
        message: apiMessages.serviceUnavailable,
        code: 'SERVICE_UNAVAILABLE',
        error: 'service-unavailable',
      });
    }
    expect(argon2Calls(passwords)).toBe(0);

    // The log says why (the database's own first line), never the statement.
    const failures = logs.entries().filter((entry) => entry.level === 50);
    expect(failures).toHaveLength(calls.length);
    expect(JSON.stringify(failures)).toContain('rate_limit_windows');
    expect(JSON.stringify(failures)).not.toMatch(/INSERT|ON CONFLICT|DELETE FROM/i);
  });

  it('an unreachable database answers 503 before any hashing', async () => {
    const gone = createDb('postgresql://nobody:nothing@127.0.0.1:9/none', { poolSize: 1 });
    const passwords = countingHasher();
    const app = buildTestApp(testDeps(gone, { passwords }));
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'someone@example.com', password: 'password-1' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
      expect(argon2Calls(passwords)).toBe(0);
    } finally {
      await app.close();
      await gone.$disconnect();
    }
  });
});

/** Every argon2 call, hash or check. */
const argon2Calls = (passwords: ReturnType<typeof countingHasher>) =>
  passwords.calls.hash + passwords.calls.verify;
