import type { DashboardAnswer } from '../../../shared/schemas/dashboard';
import { Prisma } from '../../db/generated/client';
import { withinTransaction } from '../../db/sql';
import type { ServiceContext } from '../context';
import { usersOfOfficeNamedSql, usersOfOfficeSql } from '../reach';
import type { QueueFigures } from './queue';
import type { DayRange } from './range';
import { AGENT_TURNAROUNDS, rowsOverRange } from './rollups';
import { agentsOfOfficeSql, type Histogram, locate, percentileOf, TURNAROUND_TIMEOUT_MS } from './turnaround';

/**
 * The dashboard's offices: per office the caller reaches, its share of the review queue now
 * (queue.ts) and the median turnaround of the range's decisions on the files of the agents now
 * in it, exact as turnaround.ts computes it: the agents' turnaround counts (rollups.ts) summed
 * per office and bucket place the median's ranks, form_versions_agent_turnaround_idx reads them (migration
 * 20261203100000), both in one snapshot.
 */

type OfficeBucketRow = { office_id: string; bucket: number; decisions: number };
type OfficeProbe = { office: string; bucket: number; offset: number };

/** Decisions per office and turnaround bucket, over the offices settled (`office`; null: all). */
export function officeBucketsSql(range: DayRange, office: string | null): Prisma.Sql {
  // One office: its agents' rows by agent and time, as bucketCountsSql reads them. Left to the
  // join alone, the planner read every office's rows of the range (a parallel sequential scan of
  // review_agent_turnarounds: 370 ms against about 200 on the benchmark's 1,000,000
  // transactions, an office of 51 agents, 365 days). Every read is index-only: one office's by
  // the primary keys (agent first), every office's by the indexes on the day and on the month.
  const agents =
    office === null ? Prisma.empty : Prisma.sql`AND r.agent_id = ANY (${agentsOfOfficeSql(office)})`;
  const offices = office === null ? Prisma.sql`u.office_id IS NOT NULL` : usersOfOfficeSql(office);
  const rows = rowsOverRange(range, AGENT_TURNAROUNDS, Prisma.sql`r.agent_id, r.bucket, r.decisions`, agents);
  return Prisma.sql`
    SELECT u.office_id::text AS office_id, r.bucket, sum(r.decisions)::int AS decisions
      FROM (${rows}) AS r JOIN users u ON u.id = r.agent_id
     WHERE ${offices}
     GROUP BY u.office_id, r.bucket
    HAVING sum(r.decisions) > 0
     ORDER BY u.office_id, r.bucket`;
}

export function officeProbesSql(range: DayRange, probes: OfficeProbe[]): Prisma.Sql {
  const seconds = Prisma.sql`review_turnaround_seconds(v.uploaded_at, v.decided_at)`;
  return Prisma.sql`
    SELECT p.i::int AS i, x.seconds
      FROM unnest(${probes.map((probe) => probe.bucket)}::int[],
                  ${probes.map((probe) => probe.office)}::uuid[],
                  ${probes.map((probe) => probe.offset)}::int[]) WITH ORDINALITY AS p(bucket, office, skip, i)
     CROSS JOIN LATERAL (
       SELECT ${seconds} AS seconds
         FROM form_versions v
        WHERE v.decided_at IS NOT NULL AND review_turnaround_bucket(${seconds}) = p.bucket
          AND v.decided_at >= ${range.start} AND v.decided_at < ${range.end}
          AND v.agent_id = ANY (ARRAY(SELECT u.id FROM users u WHERE ${usersOfOfficeNamedSql(Prisma.sql`p.office`)}))
        ORDER BY 1
       OFFSET p.skip LIMIT 1) AS x`;
}

/** Each office's median turnaround in whole seconds (rounded half up); absent: no decision. */
async function officeMedians(ctx: ServiceContext, range: DayRange, office: string | null) {
  return withinTransaction(ctx.db, { timeoutMs: TURNAROUND_TIMEOUT_MS, snapshot: true }, async (query) => {
    const histograms = new Map<string, Histogram>();
    for (const row of await query<OfficeBucketRow>(officeBucketsSql(range, office))) {
      const histogram = histograms.get(row.office_id) ?? { total: 0, buckets: [] };
      histograms.set(row.office_id, histogram);
      histogram.total += row.decisions;
      histogram.buckets.push([row.bucket, row.decisions]);
    }
    const plans = [...histograms].map(([id, histogram]) => {
      const percentile = percentileOf(0.5, histogram.total);
      return {
        id,
        percentile,
        probes: percentile.ranks.map((rank) => ({ office: id, ...locate(histogram, rank) })),
      };
    });
    const probes = plans.flatMap((plan) => plan.probes);
    const read =
      probes.length === 0 ? [] : await query<{ i: number; seconds: number }>(officeProbesSql(range, probes));
    const values = new Map(read.map((row) => [row.i, row.seconds]));
    let next = 1;
    const medians = new Map<string, number>();
    for (const plan of plans) {
      const found = plan.probes.map(() => values.get(next++));
      // The counts and the index come from one snapshot: a missing value is a broken invariant.
      if (found.some((value) => value === undefined))
        throw new Error('review_agent_turnarounds disagrees with form_versions');
      medians.set(plan.id, Math.round(plan.percentile.combine(found as number[])));
    }
    return medians;
  });
}

/**
 * The offices settled (`office`; null: all) and their median turnarounds: read beside the other
 * figures, at once, then joined with the queue's counts by officesOf.
 */
export async function officeTurnarounds(ctx: ServiceContext, range: DayRange, office: string | null) {
  const [offices, medians] = await Promise.all([
    ctx.db.office.findMany({
      where: office === null ? {} : { id: office },
      select: { id: true, name: true, reviewTargetHours: true },
      orderBy: { name: 'asc' },
    }),
    officeMedians(ctx, range, office),
  ]);
  return { offices, medians };
}

export function officesOf(
  { offices, medians }: Awaited<ReturnType<typeof officeTurnarounds>>,
  queue: QueueFigures,
): DashboardAnswer['offices'] {
  return offices.map((row) => ({
    office: { _id: row.id, name: row.name },
    queueSize: queue.byOffice.get(row.id)?.size ?? 0,
    overdue: queue.byOffice.get(row.id)?.overdue ?? 0,
    medianTurnaroundSeconds: medians.get(row.id) ?? null,
    targetHours: row.reviewTargetHours,
  }));
}

export async function officeFigures(
  ctx: ServiceContext,
  range: DayRange,
  office: string | null,
  queue: QueueFigures,
): Promise<DashboardAnswer['offices']> {
  return officesOf(await officeTurnarounds(ctx, range, office), queue);
}
