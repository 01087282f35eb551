import { DEFAULT_REVIEW_TARGET_HOURS } from '../../../shared/schemas/compliance';
import { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';
import type { ServiceContext } from '../context';
import { transactionsOfOfficeSql } from '../reach';

type QueueRow = {
  whole: boolean;
  office_id: string | null;
  size: number;
  overdue: number;
  oldest: number | null;
  median: number | null;
};

/**
 * What the review queue holds now (services/transactions/review-queue.ts: undecided uploads and
 * requested waivers of open, undeleted transactions, of `office` when one is given: settled by
 * services/reach.ts officeOfLists), read from its two partial indexes. Waits are measured from
 * the clock's now, whole seconds: the oldest rounded down as the queue shows each wait, the
 * median (percentile_cont, the middle of an even count interpolated) rounded. One row for the
 * whole (`whole`), then one per office with entries: its size and how many of them wait longer
 * than its review target (as the queue's `overdue`).
 */
export function queueSql(now: Date, office: string | null = null): Prisma.Sql {
  // Each entry's transaction is looked up in transactions_queued_idx (the open ones with an
  // entry, with their office; queue_count > 0 holds for every transaction with an entry), LIMIT 1
  // in a LATERAL keeping it a nested loop: left to itself, the planner hashed the whole
  // transactions table.
  const open = Prisma.sql`CROSS JOIN LATERAL (SELECT t.office_id FROM transactions t
     WHERE t.id = f.transaction_id AND t.queue_count > 0 AND t.closed_at IS NULL AND t.deleted_at IS NULL
       AND ${transactionsOfOfficeSql(office)}
     LIMIT 1) AS t`;
  return Prisma.sql`
    WITH entries AS (
      SELECT f.submitted_at AS queued_at, t.office_id FROM transaction_forms f ${open}
       WHERE f.file_key IS NOT NULL AND f.status = 'pending'
      UNION ALL
      SELECT f.waiver_requested_at, t.office_id FROM transaction_forms f ${open}
       WHERE f.waiver_status = 'requested'
    ), waits AS (
      SELECT e.office_id, greatest(0, extract(epoch FROM ${now}::timestamptz - e.queued_at))::float8 AS s,
             coalesce(o.review_target_hours, ${DEFAULT_REVIEW_TARGET_HOURS}) * 3600 AS target
        FROM entries e LEFT JOIN offices o ON o.id = e.office_id
    )
    SELECT GROUPING(office_id) = 1 AS whole, office_id::text AS office_id, count(*)::int AS size,
           count(*) FILTER (WHERE s > target)::int AS overdue, floor(max(s))::int AS oldest,
           -- numeric: round() of a float8 breaks ties to even; the figures round half up throughout.
           round(percentile_cont(0.5) WITHIN GROUP (ORDER BY s)::numeric)::int AS median
      FROM waits
     GROUP BY GROUPING SETS ((), (office_id))`;
}

export type QueueFigures = {
  size: number;
  oldestWaitingSeconds: number | null;
  medianWaitingSeconds: number | null;
  /** Per office with entries: how many, and how many past its review target. */
  byOffice: Map<string, { size: number; overdue: number }>;
};

export async function queueFigures(
  ctx: ServiceContext,
  now: Date,
  office: string | null = null,
): Promise<QueueFigures> {
  const rows = await sqlRows<QueueRow>(ctx.db, queueSql(now, office));
  const whole = rows.find((row) => row.whole);
  const byOffice = new Map<string, { size: number; overdue: number }>();
  for (const row of rows) {
    if (!row.whole && row.office_id !== null)
      byOffice.set(row.office_id, { size: row.size, overdue: row.overdue });
  }
  return {
    size: whole?.size ?? 0,
    oldestWaitingSeconds: whole?.oldest ?? null,
    medianWaitingSeconds: whole?.median ?? null,
    byOffice,
  };
}
