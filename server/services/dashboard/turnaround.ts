import { Prisma } from '../../db/generated/client';
import { withinTransaction } from '../../db/sql';
import type { ServiceContext } from '../context';
import { usersOfOfficeSql } from '../reach';
import type { DayRange } from './range';
import { rowsOverRange, TURNAROUNDS } from './rollups';

/**
 * Turnaround: how many versions were decided within the range, and the median and 90th
 * percentile of their turnarounds (seconds from upload to decision), in all and per reviewer.
 * Exact, as percentile_cont computes them (interpolated between the two values around the rank),
 * without sorting the range's decisions (a year is 640,000 of them: migration 20261130090000):
 *
 * 1. review_turnarounds says, per reviewer and turnaround bucket, how many decisions the range
 *    holds: a few hundred rows summed from a few thousand (its whole months from
 *    review_turnaround_months: rollups.ts). The counts place each rank needed in
 *    a bucket, at an offset among that bucket's decisions.
 * 2. form_versions_turnaround_idx lists each bucket's decisions by reviewer and time: the value
 *    at that offset is read from the bucket's entries in the range (of the one reviewer, when the
 *    rank is a reviewer's), cut to the offset by a bounded sort, in one statement for every rank.
 *
 * Both steps read one snapshot, so a decision made between them cannot shift a rank.
 *
 * An office's turnaround (`office`, settled by services/reach.ts officeOfLists) is that of the
 * decisions on the files of the agents now in it: step 1 sums review_agent_turnarounds over them
 * from review_agent_turnarounds_agent_day_idx alone (migration 20261203130000), step 2 reads
 * form_versions_agent_turnaround_idx (migration 20261203100000).
 */

/** No reviewer recorded (the admin was deleted since): counted in the totals only. */
const NO_REVIEWER = '00000000-0000-0000-0000-000000000000';

export type PersonRow = { id: string; first_name: string; last_name: string };
export const personOf = (row: PersonRow) => ({
  _id: row.id,
  firstName: row.first_name,
  lastName: row.last_name,
});
type Person = ReturnType<typeof personOf>;

export type BucketRow = { reviewer: string; bucket: number; decisions: number; rejections: number };

/** The agents now in an office, for hand-written SQL: an office's figures are summed over them. */
export const agentsOfOfficeSql = (office: string): Prisma.Sql =>
  Prisma.sql`ARRAY(SELECT u.id FROM users u WHERE ${usersOfOfficeSql(office)})`;

export function bucketCountsSql(range: DayRange, office: string | null = null): Prisma.Sql {
  if (office !== null)
    return Prisma.sql`
    SELECT r.reviewer::text AS reviewer, r.bucket, sum(r.decisions)::int AS decisions,
           sum(r.rejections)::int AS rejections
      FROM review_agent_turnarounds r
     WHERE r.agent_id = ANY (${agentsOfOfficeSql(office)})
       AND r.day >= ${range.from}::date AND r.day <= ${range.to}::date
     GROUP BY r.reviewer, r.bucket
    HAVING sum(r.decisions) > 0`;
  const rows = rowsOverRange(range, TURNAROUNDS, Prisma.sql`r.reviewer, r.bucket, r.decisions, r.rejections`);
  return Prisma.sql`
    SELECT r.reviewer::text AS reviewer, r.bucket, sum(r.decisions)::int AS decisions,
           sum(r.rejections)::int AS rejections
      FROM (${rows}) AS r
     GROUP BY r.reviewer, r.bucket
    HAVING sum(r.decisions) > 0`;
}

/** A rank to read: the `offset`-th fastest (from 0) of `bucket`'s decisions, of one reviewer or all. */
type Probe = { reviewer: string | null; bucket: number; offset: number };

type ProbeRow = { i: number; seconds: number };

export function probesSql(range: DayRange, probes: Probe[], office: string | null = null): Prisma.Sql {
  // The same expressions as the index's, so each probe is an index-only range scan of its bucket.
  const seconds = Prisma.sql`review_turnaround_seconds(v.uploaded_at, v.decided_at)`;
  const agents =
    office === null ? Prisma.empty : Prisma.sql`AND v.agent_id = ANY (${agentsOfOfficeSql(office)})`;
  const inBucket = Prisma.sql`v.decided_at IS NOT NULL AND review_turnaround_bucket(${seconds}) = p.bucket
          AND v.decided_at >= ${range.start} AND v.decided_at < ${range.end} ${agents}`;
  // A probe of all reviewers reads the bucket's entries, a reviewer's only that reviewer's: two
  // branches, one left out by its probe's kind. A single condition "no reviewer or this one"
  // cannot bound the scan by reviewer, so every probe read the whole bucket (a year: about 16,000
  // entries each, a third of the dashboard's own work).
  return Prisma.sql`
    SELECT p.i::int AS i, x.seconds
      FROM unnest(${probes.map((probe) => probe.bucket)}::int[],
                  ${probes.map((probe) => probe.reviewer)}::uuid[],
                  ${probes.map((probe) => probe.offset)}::int[]) WITH ORDINALITY AS p(bucket, reviewer, skip, i)
     CROSS JOIN LATERAL (
       SELECT d.seconds
         FROM (SELECT ${seconds} AS seconds FROM form_versions v WHERE p.reviewer IS NULL AND ${inBucket}
               UNION ALL
               SELECT ${seconds} FROM form_versions v WHERE v.decided_by = p.reviewer AND ${inBucket}) AS d
        ORDER BY 1
       OFFSET p.skip LIMIT 1) AS x`;
}

/** Decisions per bucket, ascending by bucket. */
export type Histogram = { total: number; buckets: [bucket: number, decisions: number][] };

/** The bucket holding the rank-th (from 0) decision of the histogram, and its offset there. */
export function locate(histogram: Histogram, rank: number): { bucket: number; offset: number } {
  let before = 0;
  for (const [bucket, decisions] of histogram.buckets) {
    if (rank < before + decisions) return { bucket, offset: rank - before };
    before += decisions;
  }
  throw new Error(`rank ${rank} beyond ${histogram.total} decisions`);
}

/**
 * percentile_cont(fraction) of the histogram's decisions: the ranks it needs (one, or the two it
 * interpolates between) and how to combine their values, as PostgreSQL does (orderedsetaggs.c).
 */
export function percentileOf(fraction: number, total: number) {
  const position = fraction * (total - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return {
    ranks: low === high ? [low] : [low, high],
    /** The values read at `ranks`, in their order. */
    combine: ([first, second]: number[]) => {
      if (first === undefined || (low !== high && second === undefined))
        throw new Error('a rank was not read');
      return second === undefined ? first : first + (second - first) * (position - low);
    },
  };
}

function histogramsOf(rows: BucketRow[]) {
  const add = (histogram: Histogram, row: BucketRow) => {
    histogram.total += row.decisions;
    const last = histogram.buckets.at(-1);
    if (last && last[0] === row.bucket) last[1] += row.decisions;
    else histogram.buckets.push([row.bucket, row.decisions]);
  };
  const all: Histogram = { total: 0, buckets: [] };
  const byReviewer = new Map<string, Histogram>();
  let rejected = 0;
  for (const row of [...rows].sort((a, b) => a.bucket - b.bucket)) {
    add(all, row);
    rejected += row.rejections;
    if (row.reviewer === NO_REVIEWER) continue;
    const histogram = byReviewer.get(row.reviewer) ?? { total: 0, buckets: [] };
    byReviewer.set(row.reviewer, histogram);
    add(histogram, row);
  }
  return { all, byReviewer, rejected };
}

/**
 * What the bucket counts say: the totals, the reviewers (by id), and the percentiles wanted
 * (the median and p90 of all, then each reviewer's median) with the probes each needs.
 */
export function planTurnaround(rows: BucketRow[]) {
  const { all, byReviewer, rejected } = histogramsOf(rows);
  const reviewers = [...byReviewer].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const wanted: [Histogram, string | null, number][] =
    all.total === 0
      ? []
      : [
          [all, null, 0.5],
          [all, null, 0.9],
          ...reviewers.map(([reviewer, histogram]): [Histogram, string, number] => [
            histogram,
            reviewer,
            0.5,
          ]),
        ];
  const percentiles = wanted.map(([histogram, reviewer, fraction]) => {
    const percentile = percentileOf(fraction, histogram.total);
    return {
      ...percentile,
      probes: percentile.ranks.map((rank) => ({ reviewer, ...locate(histogram, rank) })),
    };
  });
  return { all, reviewers, rejected, percentiles, probes: percentiles.flatMap((plan) => plan.probes) };
}

/** Each planned percentile from the values its probes read, in whole seconds rounded half up. */
function percentilesOf(plan: ReturnType<typeof planTurnaround>, rows: ProbeRow[]) {
  const values = new Map(rows.map((row) => [row.i, row.seconds]));
  let next = 1;
  return plan.percentiles.map((percentile) => {
    const read = percentile.probes.map(() => {
      const value = values.get(next++);
      // The counts and the index come from one snapshot: a missing value is a broken invariant.
      if (value === undefined) throw new Error('review_turnarounds disagrees with form_versions');
      return value;
    });
    return Math.round(percentile.combine(read));
  });
}

export type Turnaround = {
  reviewed: number;
  rejected: number;
  medianSeconds: number | null;
  p90Seconds: number | null;
  /** Each reviewer still a user: most decisions first (then by id). */
  byReviewer: { user: Person; reviewed: number; medianSeconds: number }[];
};

/** A year of probes reads a few thousand index entries each; a minute means something is wrong. */
export const TURNAROUND_TIMEOUT_MS = 30_000;

export async function turnaroundFigures(
  ctx: ServiceContext,
  range: DayRange,
  office: string | null = null,
): Promise<Turnaround> {
  return withinTransaction(ctx.db, { timeoutMs: TURNAROUND_TIMEOUT_MS, snapshot: true }, async (query) => {
    const plan = planTurnaround(await query<BucketRow>(bucketCountsSql(range, office)));
    const { all, reviewers, rejected, probes } = plan;
    const read = probes.length === 0 ? [] : await query<ProbeRow>(probesSql(range, probes, office));
    const [median = null, p90 = null, ...medians] = percentilesOf(plan, read);
    const people = await query<PersonRow>(
      Prisma.sql`SELECT id::text, first_name, last_name FROM users WHERE id = ANY (${reviewers.map(([id]) => id)}::uuid[])`,
    );
    const personById = new Map(people.map((row) => [row.id, row]));
    const byReviewer = reviewers.flatMap(([id, histogram], index) => {
      const person = personById.get(id);
      const medianSeconds = medians[index];
      // A reviewer deleted since has no row (their decisions moved to NO_REVIEWER with it).
      if (!person || medianSeconds === undefined) return [];
      return [{ user: personOf(person), reviewed: histogram.total, medianSeconds }];
    });
    byReviewer.sort((a, b) => b.reviewed - a.reviewed || (a.user._id < b.user._id ? -1 : 1));
    return { reviewed: all.total, rejected, medianSeconds: median, p90Seconds: p90, byReviewer };
  });
}
