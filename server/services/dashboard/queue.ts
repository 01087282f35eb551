import { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';
import type { ServiceContext } from '../context';

type QueueRow = { size: number; oldest: number | null; median: number | null };

/**
 * What the review queue holds now (services/transactions/review-queue.ts: undecided uploads and
 * requested waivers of open, undeleted transactions), read from its two partial indexes. Waits
 * are measured from the clock's now, whole seconds: the oldest rounded down as the queue shows
 * each wait, the median (percentile_cont, the middle of an even count interpolated) rounded.
 */
export function queueSql(now: Date): Prisma.Sql {
  // Each entry's transaction is looked up in transactions_queued_idx (the open ones with an
  // entry; queue_count > 0 holds for every transaction with an entry), LIMIT 1 in a LATERAL keeping
  // it a nested loop: left to itself, the planner hashed the whole transactions table.
  const open = Prisma.sql`CROSS JOIN LATERAL (SELECT 1 FROM transactions t
     WHERE t.id = f.transaction_id AND t.queue_count > 0 AND t.closed_at IS NULL AND t.deleted_at IS NULL
     LIMIT 1) AS t`;
  return Prisma.sql`
    WITH entries AS (
      SELECT f.submitted_at AS queued_at FROM transaction_forms f ${open}
       WHERE f.file_key IS NOT NULL AND f.status = 'pending'
      UNION ALL
      SELECT f.waiver_requested_at FROM transaction_forms f ${open}
       WHERE f.waiver_status = 'requested'
    ), waits AS (
      SELECT greatest(0, extract(epoch FROM ${now}::timestamptz - queued_at))::float8 AS s FROM entries
    )
    SELECT count(*)::int AS size, floor(max(s))::int AS oldest,
           round(percentile_cont(0.5) WITHIN GROUP (ORDER BY s))::int AS median
      FROM waits`;
}

export async function queueFigures(ctx: ServiceContext, now: Date) {
  const [row] = await sqlRows<QueueRow>(ctx.db, queueSql(now));
  return {
    size: row?.size ?? 0,
    oldestWaitingSeconds: row?.oldest ?? null,
    medianWaitingSeconds: row?.median ?? null,
  };
}
