import { createHash } from 'node:crypto';
import { apiMessages } from '../../shared/messages';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { sqlRows } from '../db/sql';
import { AppError } from '../errors';

/**
 * The sign-in, registration, reset and refresh limits (docs/API.md, "Accounts and sessions"). They are checked
 * before any password is hashed, so a flood of guesses costs one short statement, not argon2.
 *
 * Fixed windows per key, counted in PostgreSQL (table rate_limit_windows) so that every instance
 * behind the load balancer shares one count: with per-process counts, N instances gave an
 * attacker N times each budget. Each check is a single atomic upsert that counts and answers in
 * one round trip, so instances counting the same key at the same moment never lose a count.
 * Time comes from the injected Clock, never from the database's now(), so tests move through
 * windows with a TestClock (and instances should keep their clocks in sync, as NTP does).
 */

export type LimitRule = { max: number; windowMs: number };

const MINUTE = 60_000;

export const AUTH_LIMITS = {
  /** Failed sign-ins for one account from one address. */
  loginFailuresPerAccount: { max: 10, windowMs: 15 * MINUTE },
  /** Every sign-in attempt from one address; SIGN_IN_LIMIT_PER_IP sets the max (limitRulesOf). */
  loginPerIp: { max: 100, windowMs: 15 * MINUTE },
  registerPerIp: { max: 20, windowMs: 60 * MINUTE },
  /** Reset and verification-resend requests for one address, and from one IP. */
  resetPerEmail: { max: 5, windowMs: 15 * MINUTE },
  resetPerIp: { max: 30, windowMs: 15 * MINUTE },
  refreshPerIp: { max: 60, windowMs: 15 * MINUTE },
  /** Passkey sign-in challenges handed out to one address (each is a row until it expires); the answers count as loginPerIp. */
  passkeyOptionsPerIp: { max: 100, windowMs: 15 * MINUTE },
  /** Every second-factor attempt (POST /api/auth/2fa/verify) from one address. */
  secondFactorPerIp: { max: 100, windowMs: 15 * MINUTE },
  /** Wrong second-factor codes for one account, over all its challenges. */
  secondFactorFailuresPerAccount: { max: 10, windowMs: 15 * MINUTE },
  /** Every call of the public signing paths (/api/sign/...) from one address: a token is the only credential. */
  signingPerIp: { max: 120, windowMs: 15 * MINUTE },
  /** Each step of single sign-on (start, callback, exchange) from one address. */
  ssoPerIp: { max: 60, windowMs: 15 * MINUTE },
  /** Calls of one API key; API_KEY_RATE_LIMIT_PER_MIN sets the max (limitRulesOf). */
  apiKeyCalls: { max: 600, windowMs: MINUTE },
} as const satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof AUTH_LIMITS;

/** The limits with what the configuration sets (sign-ins per address, API key calls per minute). */
export function limitRulesOf(config: {
  signInLimitPerIp: number;
  apiKeyRateLimitPerMin: number;
}): Record<LimitName, LimitRule> {
  return {
    ...AUTH_LIMITS,
    loginPerIp: { max: config.signInLimitPerIp, windowMs: AUTH_LIMITS.loginPerIp.windowMs },
    apiKeyCalls: { max: config.apiKeyRateLimitPerMin, windowMs: MINUTE },
  };
}

/** One event to count: which limit, and the key (an address, an e-mail...) it counts against. */
export type LimitEvent = readonly [name: LimitName, key: string];

/** The limit that refused a count, and when its window ends. */
export type LimitRefusal = { limit: number; resetAt: Date };

/**
 * The 429 of a refused count: Retry-After and X-RateLimit-Reset in seconds until the window that
 * refused ends, X-RateLimit-Limit its maximum, X-RateLimit-Remaining 0.
 */
export function tooManyRequests(refusal: LimitRefusal, now: Date): AppError {
  const error = new AppError('TOO_MANY_REQUESTS', apiMessages.tooManyRequests);
  const seconds = String(Math.max(1, Math.ceil((refusal.resetAt.getTime() - now.getTime()) / 1000)));
  error.headers = {
    'retry-after': seconds,
    'x-ratelimit-limit': String(refusal.limit),
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': seconds,
  };
  return error;
}

export type RateLimiter = {
  /**
   * Counts one event against every key given, unless one of them has already used up its window
   * (then nothing is counted). False means: answer 429 (`refused`) and do nothing else.
   */
  take(...events: LimitEvent[]): Promise<boolean>;
  /**
   * The 429 for events `take` refused, naming the limit that refused them: of the windows used
   * up, the one that ends last (the request cannot pass before).
   */
  refused(...events: LimitEvent[]): Promise<AppError>;
  /** `take`, throwing its 429 (`refused`) when the events are refused. */
  check(...events: LimitEvent[]): Promise<void>;
  /** Forgets one key's window at once (a successful sign-in clears its failures). */
  reset(name: LimitName, key: string): Promise<void>;
};

/**
 * How often one instance deletes expired windows. A row is only ever needed until its window
 * ends, so this bounds the table to the windows of the last few minutes and costs one indexed
 * DELETE per minute per instance, on a request that would write anyway.
 */
export const SWEEP_INTERVAL_MS = MINUTE;

/**
 * Keys are stored as SHA-256 hashes: an e-mail key holds whatever was typed into the e-mail
 * field (people type passwords there), which has no business lying in a table. It also bounds
 * a key's size whatever was sent.
 */
function keyHash(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/**
 * A database failure here answers 503 with the outage message, like any other outage: failing
 * open would let a guesser through uncounted exactly when nobody is looking, and the request
 * would need the database next anyway. The cause stays attached for the server log (its first
 * line only, see describeErrorForLog), never for the answer.
 */
function unavailable(cause: unknown): AppError {
  const error = new AppError('SERVICE_UNAVAILABLE', apiMessages.serviceUnavailable);
  error.cause = cause;
  return error;
}

export function createRateLimiter(
  db: Db,
  clock: Clock,
  rules: Record<LimitName, LimitRule> = AUTH_LIMITS,
): RateLimiter {
  /** When this instance last swept; the first count after start sweeps whatever expired meanwhile. */
  let lastSweepAt = Number.NEGATIVE_INFINITY;

  async function sweep(now: Date): Promise<void> {
    // SKIP LOCKED: rows that a concurrent count is renewing are left alone, so the sweep never
    // waits on a sign-in (nor deadlocks with one that locks two rows); they are not expired anyway.
    await sqlRows(
      db,
      Prisma.sql`DELETE FROM rate_limit_windows
                  WHERE resets_at <= ${now}::timestamptz
                    AND (name, key) IN (SELECT name, key FROM rate_limit_windows
                                         WHERE resets_at <= ${now}::timestamptz
                                           FOR UPDATE SKIP LOCKED)`,
      { prepared: true },
    );
  }

  async function count(
    events: readonly LimitEvent[],
    now: Date,
  ): Promise<Array<{ name: LimitName; count: number }>> {
    const windowEnds = events.map(([name]) => new Date(now.getTime() + rules[name].windowMs));
    // One statement, one round trip: nothing is counted if any key has used up its window (as a
    // refused request counts nothing); otherwise each key is counted atomically (an expired
    // window starts again at 1) and its new count returned. Two instances counting the same key
    // at once both land, one after the other on the row lock, so the caller decides on the
    // count *after* its own event: with max - 1 already counted, exactly one of them gets max.
    // Rows are locked in (name, key) order, so two counts of the same keys cannot deadlock.
    return sqlRows<{ name: LimitName; count: number }>(
      db,
      Prisma.sql`
        WITH wanted AS (
          SELECT w.name, w.key, w.max, w.resets_at
            FROM unnest(${events.map(([name]) => name)}::text[], ${events.map(([, key]) => keyHash(key))}::bytea[],
                        ${events.map(([name]) => rules[name].max)}::int[], ${windowEnds}::timestamptz[])
                   AS w(name, key, max, resets_at)
        )
        INSERT INTO rate_limit_windows AS r (name, key, count, resets_at)
        SELECT name, key, 1, resets_at FROM wanted
         WHERE NOT EXISTS (SELECT 1 FROM rate_limit_windows u JOIN wanted w USING (name, key)
                            WHERE u.resets_at > ${now}::timestamptz AND u.count >= w.max)
         ORDER BY name, key
        ON CONFLICT (name, key) DO UPDATE
          SET count = CASE WHEN r.resets_at <= ${now}::timestamptz THEN 1 ELSE r.count + 1 END,
              resets_at = CASE WHEN r.resets_at <= ${now}::timestamptz THEN EXCLUDED.resets_at ELSE r.resets_at END
        RETURNING r.name, r.count`,
      { prepared: true },
    );
  }

  const limiter: RateLimiter = {
    async take(...events) {
      if (events.length === 0) return true;
      const now = clock.now();
      const sweepDue = now.getTime() - lastSweepAt >= SWEEP_INTERVAL_MS;
      if (sweepDue) lastSweepAt = now.getTime();
      let counted: Array<{ name: LimitName; count: number }>;
      try {
        // The sweep runs beside the count, on another pooled connection: no extra wait.
        [counted] = await Promise.all([count(events, now), sweepDue ? sweep(now) : undefined]);
      } catch (error) {
        throw unavailable(error);
      }
      // No rows: a key had already used up its window. Rows: each count includes this event.
      return counted.length === events.length && counted.every((row) => row.count <= rules[row.name].max);
    },

    async refused(...events) {
      const now = clock.now();
      let rows: Array<{ name: LimitName; count: number; resets_at: Date }>;
      try {
        rows = await sqlRows(
          db,
          Prisma.sql`SELECT r.name, r.count, r.resets_at FROM rate_limit_windows r
                      JOIN unnest(${events.map(([name]) => name)}::text[],
                                  ${events.map(([, key]) => keyHash(key))}::bytea[]) AS w(name, key)
                        ON r.name = w.name AND r.key = w.key
                     WHERE r.resets_at > ${now}::timestamptz`,
          { prepared: true },
        );
      } catch (error) {
        throw unavailable(error);
      }
      const usedUp = rows
        .filter((row) => row.count >= rules[row.name].max)
        .map((row) => ({ limit: rules[row.name].max, resetAt: row.resets_at }))
        .sort((a, b) => b.resetAt.getTime() - a.resetAt.getTime());
      // A window that ended between the count and this read: the first limit, a whole window on.
      const [first] = events;
      const fallback = first
        ? { limit: rules[first[0]].max, resetAt: new Date(now.getTime() + rules[first[0]].windowMs) }
        : { limit: 0, resetAt: now };
      return tooManyRequests(usedUp[0] ?? fallback, now);
    },

    async check(...events) {
      if (!(await limiter.take(...events))) throw await limiter.refused(...events);
    },

    async reset(name, key) {
      try {
        await sqlRows(
          db,
          Prisma.sql`DELETE FROM rate_limit_windows WHERE name = ${name} AND key = ${keyHash(key)}`,
          { prepared: true },
        );
      } catch (error) {
        throw unavailable(error);
      }
    },
  };
  return limiter;
}
