import { integrationMessages } from '../../shared/messages';
import { Prisma } from '../db/generated/client';
import { sqlRows } from '../db/sql';
import { AppError } from '../errors';
import { sealerFor } from '../security/sealing';
import type { ServiceContext } from './context';

/**
 * Idempotency-Key: a POST sent again with the same key and the same request
 * within 24 h gets the first answer again instead of doing the work twice. One row per (caller,
 * key) in idempotency_keys; its primary key is where two identical requests racing meet: one
 * claims the key and runs, the other waits for the answer (up to REPLAY_WAIT_MS) and replays it.
 * Answers are stored sealed (AES-256-GCM): a sign-in's tokens or a file's signed link are in them.
 */

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A claim with no answer after this long belongs to a request that died (a crashed instance). */
export const ABANDONED_AFTER_MS = 2 * 60 * 1000;
/** How long a second request waits for the first one's answer before 409. */
export const REPLAY_WAIT_MS = 10_000;
const POLL_MS = 25;

export type StoredAnswer = { statusCode: number; contentType: string | null; body: string };

export type Claim =
  /** This request runs; its answer is kept with `keepAnswer` (or the claim released). */
  { kind: 'run' } | { kind: 'replay'; answer: StoredAnswer };

const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;

export function assertIdempotencyKey(key: string): void {
  if (!KEY_SHAPE.test(key)) throw new AppError('BAD_REQUEST', integrationMessages.idempotencyKeyInvalid);
}

type Row = {
  fingerprint: Buffer;
  status_code: number | null;
  headers: { contentType?: string } | null;
  body: string | null;
};

/**
 * Claims `key` for this request, or finds the answer of the one that claimed it. A different
 * request under the same key is 422; one still running past REPLAY_WAIT_MS is 409.
 */
export async function claimIdempotencyKey(
  ctx: ServiceContext,
  { caller, key, fingerprint }: { caller: string; key: string; fingerprint: Buffer },
): Promise<Claim> {
  const waitUntil = Date.now() + REPLAY_WAIT_MS;
  for (;;) {
    const now = ctx.deps.clock.now();
    const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
    const abandonedBefore = new Date(now.getTime() - ABANDONED_AFTER_MS);
    // Insert, or take over a row that is past its 24 h or was abandoned mid-request; either way
    // RETURNING says this request now owns the key. Otherwise the row as it is now.
    const [claimed] = await sqlRows<{ claimed: boolean }>(
      ctx.db,
      Prisma.sql`INSERT INTO idempotency_keys AS k (caller, key, fingerprint, created_at)
                 VALUES (${caller}, ${key}, ${fingerprint}, ${now}::timestamptz)
                 ON CONFLICT (caller, key) DO UPDATE
                   SET fingerprint = EXCLUDED.fingerprint, created_at = EXCLUDED.created_at,
                       status_code = NULL, headers = NULL, body = NULL
                 WHERE k.created_at <= ${expiredBefore}::timestamptz
                    OR (k.status_code IS NULL AND k.created_at <= ${abandonedBefore}::timestamptz)
                 RETURNING true AS claimed`,
      { prepared: true },
    );
    if (claimed) return { kind: 'run' };
    const [row] = await sqlRows<Row>(
      ctx.db,
      Prisma.sql`SELECT fingerprint, status_code, headers, body FROM idempotency_keys
                  WHERE caller = ${caller} AND key = ${key}`,
      { prepared: true },
    );
    if (!row) continue; // released between the two statements: claim again
    if (!row.fingerprint.equals(fingerprint)) {
      throw new AppError('UNPROCESSABLE', integrationMessages.idempotencyMismatch, undefined, {
        error: 'idempotency-mismatch',
      });
    }
    if (row.status_code !== null && row.body !== null) {
      return {
        kind: 'replay',
        answer: {
          statusCode: row.status_code,
          contentType: row.headers?.contentType ?? null,
          body: sealerFor(ctx.deps.config.jwtSecret).open(row.body),
        },
      };
    }
    if (Date.now() >= waitUntil)
      throw new AppError('CONFLICT', integrationMessages.idempotencyInProgress, undefined, {
        error: 'idempotency-in-progress',
      });
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Keeps the answer of the request that claimed the key, for the next 24 h. */
export async function keepIdempotentAnswer(
  ctx: ServiceContext,
  { caller, key }: { caller: string; key: string },
  answer: StoredAnswer,
): Promise<void> {
  await sqlRows(
    ctx.db,
    Prisma.sql`UPDATE idempotency_keys
                  SET status_code = ${answer.statusCode}, headers = ${JSON.stringify({ contentType: answer.contentType })}::jsonb,
                      body = ${sealerFor(ctx.deps.config.jwtSecret).seal(answer.body)}
                WHERE caller = ${caller} AND key = ${key} AND status_code IS NULL`,
    { prepared: true },
  );
}

/**
 * Forgets a claim whose answer is not worth repeating (a 5xx, a 429, a 401: the same request may
 * well succeed later), so a retry with the same key runs again.
 */
export async function releaseIdempotencyKey(
  ctx: ServiceContext,
  { caller, key }: { caller: string; key: string },
): Promise<void> {
  await sqlRows(
    ctx.db,
    Prisma.sql`DELETE FROM idempotency_keys WHERE caller = ${caller} AND key = ${key} AND status_code IS NULL`,
    { prepared: true },
  );
}

/** Deletes answers past their 24 h (a job, daily). */
export async function pruneIdempotencyKeys(ctx: ServiceContext): Promise<number> {
  const before = new Date(ctx.deps.clock.now().getTime() - IDEMPOTENCY_WINDOW_MS);
  const rows = await sqlRows<{ n: number }>(
    ctx.db,
    Prisma.sql`WITH gone AS (DELETE FROM idempotency_keys WHERE created_at <= ${before}::timestamptz RETURNING 1)
               SELECT count(*)::int AS n FROM gone`,
  );
  return rows[0]?.n ?? 0;
}
