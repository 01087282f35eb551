import { DASHBOARD_ROWS, TOP_REASONS } from '../../../shared/schemas/dashboard';
import { Prisma } from '../../db/generated/client';
import { sqlRows, sqlRowsWithin } from '../../db/sql';
import type { ServiceContext } from '../context';
import { type DayRange, rateOf } from './range';

/**
 * Turnaround and rejections: every file version decided within the range, read from
 * form_versions_decisions_idx alone (decided_at, with the upload time, the decision, the
 * reviewer, the agent and the item's label beside it: migration 20261129090000). Decisions on
 * transactions deleted since count: the desk did that work.
 *
 * Medians and the 90th percentile are percentile_cont (interpolated between the two middle values
 * of an even count) over whole seconds from upload to decision, rounded to whole seconds.
 */

const inRange = (range: DayRange) =>
  Prisma.sql`v.decided_at IS NOT NULL AND v.decided_at >= ${range.start} AND v.decided_at < ${range.end}`;
const seconds = Prisma.sql`greatest(0, extract(epoch FROM v.decided_at - v.uploaded_at))::float8`;

/**
 * The totals: one sort of the range's turnarounds, which both percentiles share (the array form
 * of percentile_cont).
 */
export function totalsSql(range: DayRange): Prisma.Sql {
  return Prisma.sql`
    SELECT count(*)::int AS reviewed,
           count(*) FILTER (WHERE v.decision_status = 'rejected')::int AS rejected,
           percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY ${seconds}) AS percentiles
      FROM form_versions v
     WHERE ${inRange(range)}`;
}

/**
 * Each reviewer's count and median. The turnarounds are gathered per reviewer by hashing (an
 * ordered-set aggregate under GROUP BY would first sort the whole range by reviewer), then each
 * reviewer's are sorted on their own (docs/PERFORMANCE.md).
 */
export function reviewersSql(range: DayRange): Prisma.Sql {
  return Prisma.sql`
    SELECT r.decided_by::text AS id, u.first_name, u.last_name, r.reviewed,
           (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY s.x))::int FROM unnest(r.turnarounds) AS s(x))
             AS median
      FROM (SELECT v.decided_by, count(*)::int AS reviewed, array_agg(${seconds}) AS turnarounds
              FROM form_versions v
             WHERE ${inRange(range)} AND v.decided_by IS NOT NULL
             GROUP BY v.decided_by) AS r
      JOIN users u ON u.id = r.decided_by
     ORDER BY r.reviewed DESC, r.decided_by`;
}

/**
 * Decisions and rejections by checklist label and by agent, in one scan of the range (GROUPING
 * SETS, hashed), each cut to its DASHBOARD_ROWS most rejected.
 */
export function breakdownSql(range: DayRange): Prisma.Sql {
  return Prisma.sql`
    WITH g AS (
      SELECT GROUPING(v.label) = 0 AS by_label, v.label, v.agent_id, count(*)::int AS reviewed,
             count(*) FILTER (WHERE v.decision_status = 'rejected')::int AS rejected
        FROM form_versions v
       WHERE ${inRange(range)}
       GROUP BY GROUPING SETS ((v.label), (v.agent_id))
    )
    (SELECT true AS by_label, g.label, NULL::text AS id, NULL::text AS first_name, NULL::text AS last_name,
            g.reviewed, g.rejected
       FROM g WHERE g.by_label AND g.label IS NOT NULL
      ORDER BY g.rejected DESC, g.reviewed DESC, g.label
      LIMIT ${DASHBOARD_ROWS})
    UNION ALL
    (SELECT false, NULL, g.agent_id::text, u.first_name, u.last_name, g.reviewed, g.rejected
       FROM g JOIN users u ON u.id = g.agent_id
      WHERE NOT g.by_label
      ORDER BY g.rejected DESC, g.reviewed DESC, g.agent_id
      LIMIT ${DASHBOARD_ROWS})`;
}

/**
 * The reasons the rejections gave (each reason of each rejection once), from
 * form_versions_rejections_idx. A reason is named by its current label; one deleted since by the
 * label the rejections quoted (the greatest, should they differ).
 */
export function topReasonsSql(range: DayRange): Prisma.Sql {
  return Prisma.sql`
    SELECT r.code, coalesce(rr.label, r.quoted) AS label, r.count
      FROM (SELECT e.value->>'code' AS code, max(e.value->>'label') AS quoted, count(*)::int AS count
              FROM form_versions v
             CROSS JOIN LATERAL jsonb_array_elements(
                    CASE WHEN jsonb_typeof(v.decision_reasons) = 'array' THEN v.decision_reasons
                         ELSE '[]'::jsonb END) AS e
             WHERE v.decision_status = 'rejected' AND ${inRange(range)}
               AND e.value->>'code' IS NOT NULL
             GROUP BY 1) AS r
      LEFT JOIN rejection_reasons rr ON rr.code = r.code
     ORDER BY r.count DESC, r.code
     LIMIT ${TOP_REASONS}`;
}

type PersonRow = { id: string; first_name: string; last_name: string };
const personOf = (row: PersonRow) => ({ _id: row.id, firstName: row.first_name, lastName: row.last_name });
type Counts = { reviewed: number; rejected: number };
type BreakdownRow = Counts & {
  by_label: boolean;
  label: string | null;
  id: string | null;
  first_name: string | null;
  last_name: string | null;
};
/** Most rejected first, then most reviewed; the key breaks ties as the SQL does. */
const byRejections =
  <T extends Counts>(key: (row: T) => string) =>
  (a: T, b: T) =>
    b.rejected - a.rejected || b.reviewed - a.reviewed || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** A year of decisions is a few hundred thousand values to sort for the medians. */
const DECISIONS_WORK_MEM_MB = 64;
const DECISIONS_TIMEOUT_MS = 30_000;

export async function decisionFigures(ctx: ServiceContext, range: DayRange) {
  // Four statements on four connections of the pool: the scans of the range run at once.
  const options = { workMemMb: DECISIONS_WORK_MEM_MB };
  const [[totals], reviewers, breakdown, reasons] = await Promise.all([
    sqlRowsWithin<Counts & { percentiles: number[] | null }>(
      ctx.db,
      DECISIONS_TIMEOUT_MS,
      totalsSql(range),
      options,
    ),
    sqlRowsWithin<PersonRow & { reviewed: number; median: number | null }>(
      ctx.db,
      DECISIONS_TIMEOUT_MS,
      reviewersSql(range),
      options,
    ),
    sqlRowsWithin<BreakdownRow>(ctx.db, DECISIONS_TIMEOUT_MS, breakdownSql(range), options),
    sqlRows<{ code: string; label: string; count: number }>(ctx.db, topReasonsSql(range)),
  ]);
  const reviewed = totals?.reviewed ?? 0;
  // Whole seconds, rounded (the percentiles interpolate).
  const [median, p90] = (totals?.percentiles ?? [null, null]).map((value) =>
    value === null || value === undefined ? null : Math.round(value),
  );
  const documents = breakdown
    .filter((row): row is BreakdownRow & { label: string } => row.by_label && row.label !== null)
    .sort(byRejections((row) => row.label));
  const agents = breakdown
    .filter(
      (row): row is BreakdownRow & PersonRow => !row.by_label && row.id !== null && row.first_name !== null,
    )
    .sort(byRejections((row) => row.id));
  return {
    turnaround: {
      reviewed,
      medianSeconds: median ?? null,
      p90Seconds: p90 ?? null,
      byReviewer: reviewers.map((row) => ({
        user: personOf(row),
        reviewed: row.reviewed,
        medianSeconds: row.median,
      })),
    },
    rejections: {
      rate: rateOf(totals?.rejected ?? 0, reviewed),
      byDocument: documents.map((row) => ({
        label: row.label,
        reviewed: row.reviewed,
        rejected: row.rejected,
        rate: rateOf(row.rejected, row.reviewed),
      })),
      byAgent: agents.map((row) => ({
        user: personOf(row),
        reviewed: row.reviewed,
        rejected: row.rejected,
        rate: rateOf(row.rejected, row.reviewed),
      })),
      topReasons: reasons,
    },
  };
}
