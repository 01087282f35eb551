import { DASHBOARD_ROWS, TOP_REASONS } from '../../../shared/schemas/dashboard';
import { Prisma } from '../../db/generated/client';
import { sqlRows, sqlRowsWithin } from '../../db/sql';
import type { ServiceContext } from '../context';
import { type DayRange, rateOf } from './range';
import { AGENT_DECISIONS, rowsOverRange } from './rollups';
import { agentsOfOfficeSql, type PersonRow, personOf, turnaroundFigures } from './turnaround';

/**
 * Turnaround (turnaround.ts) and rejections: every file version decided within the range, by
 * the agent and the item's label the version carries (migration 20261129090000). Decisions on
 * transactions deleted since count: the desk did that work. An office's (`office`, settled by
 * services/reach.ts officeOfLists) are the decisions on the files of the agents now in it.
 */

/** The decisions of the agents now in `office`; every decision when null. */
const ofAgents = (office: string | null) =>
  office === null ? Prisma.empty : Prisma.sql`AND v.agent_id = ANY (${agentsOfOfficeSql(office)})`;

const inRange = (range: DayRange) =>
  Prisma.sql`v.decided_at IS NOT NULL AND v.decided_at >= ${range.start} AND v.decided_at < ${range.end}`;

/**
 * Decisions and rejections by checklist label and by agent, summed from the counts the database
 * keeps (review_label_days; by agent, per day and per month: rollups.ts), each cut to
 * its DASHBOARD_ROWS most rejected. A label or an agent whose decisions were all undone since
 * sums to none and is left out. An office's labels are counted from its agents' decisions
 * (form_versions_agent_decisions_idx: the daily counts by label know no agent), its agents'
 * daily counts summed over the agents now in it.
 */
export function breakdownSql(range: DayRange, office: string | null = null): Prisma.Sql {
  const days = Prisma.sql`d.day >= ${range.from}::date AND d.day <= ${range.to}::date`;
  const labels =
    office === null
      ? Prisma.sql`SELECT d.label, sum(d.decisions)::int AS reviewed, sum(d.rejections)::int AS rejected
               FROM review_label_days d WHERE ${days}
              GROUP BY d.label HAVING sum(d.decisions) > 0`
      : Prisma.sql`SELECT v.label, count(*)::int AS reviewed,
                    count(*) FILTER (WHERE v.decision_status = 'rejected')::int AS rejected
               FROM form_versions v
              WHERE ${inRange(range)} AND v.label IS NOT NULL ${ofAgents(office)}
              GROUP BY v.label`;
  const agents =
    office === null ? Prisma.empty : Prisma.sql`AND r.agent_id = ANY (${agentsOfOfficeSql(office)})`;
  const agentRows = rowsOverRange(
    range,
    AGENT_DECISIONS,
    Prisma.sql`r.agent_id, r.decisions, r.rejections`,
    agents,
  );
  return Prisma.sql`
    (SELECT true AS by_label, l.label, NULL::text AS id, NULL::text AS first_name, NULL::text AS last_name,
            l.reviewed, l.rejected
       FROM (${labels}) AS l
      ORDER BY l.rejected DESC, l.reviewed DESC, l.label
      LIMIT ${DASHBOARD_ROWS})
    UNION ALL
    (SELECT false, NULL, a.agent_id::text, u.first_name, u.last_name, a.reviewed, a.rejected
       FROM (SELECT d.agent_id, sum(d.decisions)::int AS reviewed, sum(d.rejections)::int AS rejected
               FROM (${agentRows}) AS d
              GROUP BY d.agent_id HAVING sum(d.decisions) > 0) AS a
       JOIN users u ON u.id = a.agent_id
      ORDER BY a.rejected DESC, a.reviewed DESC, a.agent_id
      LIMIT ${DASHBOARD_ROWS})`;
}

/**
 * The reasons the rejections gave (each reason of each rejection once), from
 * form_versions_rejections_idx. A reason is named by its current label; one deleted since by the
 * label the rejections quoted (the greatest, should they differ).
 */
export function topReasonsSql(range: DayRange, office: string | null = null): Prisma.Sql {
  return Prisma.sql`
    SELECT r.code, coalesce(rr.label, r.quoted) AS label, r.count
      FROM (SELECT e.value->>'code' AS code, max(e.value->>'label') AS quoted, count(*)::int AS count
              FROM form_versions v
             CROSS JOIN LATERAL jsonb_array_elements(
                    CASE WHEN jsonb_typeof(v.decision_reasons) = 'array' THEN v.decision_reasons
                         ELSE '[]'::jsonb END) AS e
             WHERE v.decision_status = 'rejected' AND ${inRange(range)} ${ofAgents(office)}
               AND e.value->>'code' IS NOT NULL
             GROUP BY 1) AS r
      LEFT JOIN rejection_reasons rr ON rr.code = r.code
     ORDER BY r.count DESC, r.code
     LIMIT ${TOP_REASONS}`;
}

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

/** A year by agent is a few hundred thousand daily rows to sum; a minute means something is wrong. */
const DECISIONS_TIMEOUT_MS = 30_000;

export async function decisionFigures(ctx: ServiceContext, range: DayRange, office: string | null = null) {
  // Three statements on three connections of the pool: they run at once.
  const [turnaround, breakdown, reasons] = await Promise.all([
    turnaroundFigures(ctx, range, office),
    sqlRowsWithin<BreakdownRow>(ctx.db, DECISIONS_TIMEOUT_MS, breakdownSql(range, office)),
    sqlRows<{ code: string; label: string; count: number }>(ctx.db, topReasonsSql(range, office)),
  ]);
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
      reviewed: turnaround.reviewed,
      medianSeconds: turnaround.medianSeconds,
      p90Seconds: turnaround.p90Seconds,
      byReviewer: turnaround.byReviewer,
    },
    rejections: {
      rate: rateOf(turnaround.rejected, turnaround.reviewed),
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
