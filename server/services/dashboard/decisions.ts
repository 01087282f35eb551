import { DASHBOARD_ROWS, TOP_REASONS } from '../../../shared/schemas/dashboard';
import { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';
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

export function totalsSql(range: DayRange): Prisma.Sql {
  return Prisma.sql`
    SELECT count(*)::int AS reviewed,
           count(*) FILTER (WHERE v.decision_status = 'rejected')::int AS rejected,
           round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ${seconds}))::int AS median,
           round(percentile_cont(0.9) WITHIN GROUP (ORDER BY ${seconds}))::int AS p90
      FROM form_versions v
     WHERE ${inRange(range)}`;
}

/** Reviewers are the desk's admins, a handful: not capped. */
export function byReviewerSql(range: DayRange): Prisma.Sql {
  return Prisma.sql`
    SELECT r.decided_by::text AS id, u.first_name, u.last_name, r.reviewed, r.median
      FROM (SELECT v.decided_by, count(*)::int AS reviewed,
                   round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ${seconds}))::int AS median
              FROM form_versions v
             WHERE ${inRange(range)} AND v.decided_by IS NOT NULL
             GROUP BY v.decided_by) AS r
      JOIN users u ON u.id = r.decided_by
     ORDER BY r.reviewed DESC, u.last_name, u.first_name, r.decided_by`;
}

export function byDocumentSql(range: DayRange): Prisma.Sql {
  return Prisma.sql`
    SELECT v.label, count(*)::int AS reviewed,
           count(*) FILTER (WHERE v.decision_status = 'rejected')::int AS rejected
      FROM form_versions v
     WHERE ${inRange(range)} AND v.label IS NOT NULL
     GROUP BY v.label
     ORDER BY rejected DESC, reviewed DESC, v.label
     LIMIT ${DASHBOARD_ROWS}`;
}

export function byAgentSql(range: DayRange): Prisma.Sql {
  return Prisma.sql`
    SELECT a.agent_id::text AS id, u.first_name, u.last_name, a.reviewed, a.rejected
      FROM (SELECT v.agent_id, count(*)::int AS reviewed,
                   count(*) FILTER (WHERE v.decision_status = 'rejected')::int AS rejected
              FROM form_versions v
             WHERE ${inRange(range)} AND v.agent_id IS NOT NULL
             GROUP BY v.agent_id
             ORDER BY rejected DESC, reviewed DESC, v.agent_id
             LIMIT ${DASHBOARD_ROWS}) AS a
      JOIN users u ON u.id = a.agent_id
     ORDER BY a.rejected DESC, a.reviewed DESC, a.agent_id`;
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

type Totals = { reviewed: number; rejected: number; median: number | null; p90: number | null };
type PersonRow = { id: string; first_name: string; last_name: string };
const personOf = (row: PersonRow) => ({ _id: row.id, firstName: row.first_name, lastName: row.last_name });

export async function decisionFigures(ctx: ServiceContext, range: DayRange) {
  // Five statements on five connections of the pool: the planner runs each as one scan.
  const [[totals], reviewers, documents, agents, reasons] = await Promise.all([
    sqlRows<Totals>(ctx.db, totalsSql(range)),
    sqlRows<PersonRow & { reviewed: number; median: number | null }>(ctx.db, byReviewerSql(range)),
    sqlRows<{ label: string; reviewed: number; rejected: number }>(ctx.db, byDocumentSql(range)),
    sqlRows<PersonRow & { reviewed: number; rejected: number }>(ctx.db, byAgentSql(range)),
    sqlRows<{ code: string; label: string; count: number }>(ctx.db, topReasonsSql(range)),
  ]);
  const reviewed = totals?.reviewed ?? 0;
  return {
    turnaround: {
      reviewed,
      medianSeconds: totals?.median ?? null,
      p90Seconds: totals?.p90 ?? null,
      byReviewer: reviewers.map((row) => ({
        user: personOf(row),
        reviewed: row.reviewed,
        medianSeconds: row.median,
      })),
    },
    rejections: {
      rate: rateOf(totals?.rejected ?? 0, reviewed),
      byDocument: documents.map((row) => ({ ...row, rate: rateOf(row.rejected, row.reviewed) })),
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
