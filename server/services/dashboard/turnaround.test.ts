import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../db/sql';
import { createAdmin, createUser } from '../../test/factories';
import { serviceContext, setupTestDatabase, testDeps } from '../../test/harness';
import { officeFigures } from './by-office';
import { breakdownSql } from './decisions';
import { resolveRange } from './range';
import { turnaroundFigures } from './turnaround';

/**
 * The turnaround's two-step percentiles (migration 20261130090000_review_figures, turnaround.ts) against the
 * plain definition: percentile_cont over every decision of the range, sorted whole, as the first
 * version of the dashboard computed it. fast-check writes random decision histories straight
 * into form_versions (turnarounds from none to two months, ties, decisions changed and versions
 * deleted afterwards, a reviewer deleted), then compares, for random ranges, every figure of the
 * turnaround, and the counts the triggers kept (by turnaround, by label, by agent, by agent and
 * turnaround) with a count of form_versions from scratch, and the monthly counts with the sums
 * of their days. The histories span whole months and parts of others, so the ranges read both
 * (rollups.ts). The first agent is in an office: the office's turnaround (migration
 * 20261203100000) is compared with the definition over its decisions alone, the office's median
 * in the dashboard's breakdown by office with it, and the breakdown by agent with a count.
 */

const database = setupTestDatabase();
let client: pg.Client;
const query = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
  (await client.query<T>(sql, values)).rows;

let formId: string;
let reviewers: string[];
let agents: string[];
let officeId: string;
const LABELS = ['Disclosure', 'Listing Agreement', 'Inspection'];

beforeAll(async () => {
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  agents = await Promise.all([1, 2].map(async () => (await createUser(database.db)).id));
  officeId = (await database.db.office.create({ data: { name: 'Turnaround office' } })).id;
  await database.db.user.update({ where: { id: agents[0] }, data: { officeId } });
  const agent = { id: agents[0] };
  reviewers = await Promise.all([1, 2, 3].map(async () => (await createAdmin(database.db)).id));
  const [t] = await query<{ id: string }>(
    `INSERT INTO transactions (user_id, street_address, city, state, zip, type, role)
     VALUES ($1, '1 Main St', 'Town', 'ME', '04101', 'Listing', 'Seller') RETURNING id::text`,
    [agent.id],
  );
  const [f] = await query<{ id: string }>(
    `INSERT INTO transaction_forms (transaction_id, label, position) VALUES ($1, 'Disclosure', 0) RETURNING id::text`,
    [t?.id],
  );
  formId = f?.id ?? '';
});
afterAll(() => client?.end());

const DAY = 86_400_000;
/** The histories fall within these 100 days: March to early June, whole months and parts of one. */
const FIRST_DAY = Date.parse('2026-03-01T00:00:00Z');

/** Seconds of turnaround: none, a few seconds, or log-uniform up to two months; some repeated. */
const turnaround = fc.oneof(
  fc.constantFrom(0, 1, 7.5, 60, 3600),
  fc
    .double({ min: 0, max: Math.log(61 * 86_400), noNaN: true })
    .map((x) => Math.round(Math.exp(x) * 1000) / 1000),
);
const decision = fc.record({
  day: fc.nat(99),
  msOfDay: fc.nat(DAY - 1),
  seconds: turnaround,
  reviewer: fc.nat(3), // 3: no reviewer recorded
  rejected: fc.boolean(),
  agent: fc.nat(1),
  label: fc.nat(2),
});
const history = fc.record({
  decisions: fc.array(decision, { minLength: 1, maxLength: 60 }),
  /** Afterwards: versions whose decision is changed (to a new one), undone, or deleted. */
  changes: fc.array(fc.record({ index: fc.nat(59), to: fc.option(decision), remove: fc.boolean() }), {
    maxLength: 8,
  }),
  ranges: fc.array(fc.record({ from: fc.nat(99), days: fc.integer({ min: 1, max: 100 }) }), {
    minLength: 1,
    maxLength: 3,
  }),
});

type Decision = typeof decision extends fc.Arbitrary<infer T> ? T : never;
const times = (d: Decision) => {
  const decidedAt = FIRST_DAY + d.day * DAY + d.msOfDay;
  return { uploadedAt: new Date(decidedAt - d.seconds * 1000), decidedAt: new Date(decidedAt) };
};

async function write(decisions: Decision[]) {
  await query('DELETE FROM form_versions');
  for (const [index, d] of decisions.entries()) {
    const { uploadedAt, decidedAt } = times(d);
    await query(
      `INSERT INTO form_versions (form_id, number, file_key, size, content_type, uploaded_at, decision_status,
                                  decided_at, decided_by)
       VALUES ($1, $2, 'k', 1, 'application/pdf', $3, $4, $5, $6)`,
      [
        formId,
        index + 1,
        uploadedAt,
        d.rejected ? 'rejected' : 'accepted',
        decidedAt,
        reviewers[d.reviewer] ?? null,
      ],
    );
  }
}

/**
 * The figures as the plain definition computes them (the first dashboard's statements); with
 * `agentsIn`, of the decisions on those agents' files only.
 */
async function definition(start: Date, end: Date, agentsIn: string[] | null = null) {
  const seconds = 'greatest(0, extract(epoch FROM v.decided_at - v.uploaded_at))::float8';
  const ofAgents = agentsIn === null ? '' : 'AND v.agent_id = ANY ($3::uuid[])';
  const values = agentsIn === null ? [start, end] : [start, end, agentsIn];
  const [totals] = await query<{ reviewed: number; rejected: number; p: number[] | null }>(
    `SELECT count(*)::int AS reviewed, count(*) FILTER (WHERE v.decision_status = 'rejected')::int AS rejected,
            percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY ${seconds}) AS p
       FROM form_versions v WHERE v.decided_at >= $1 AND v.decided_at < $2 ${ofAgents}`,
    values,
  );
  const byReviewer = await query<{ id: string; reviewed: number; median: number }>(
    `SELECT v.decided_by::text AS id, count(*)::int AS reviewed,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY ${seconds}) AS median
       FROM form_versions v JOIN users u ON u.id = v.decided_by
      WHERE v.decided_at >= $1 AND v.decided_at < $2 ${ofAgents}
      GROUP BY v.decided_by ORDER BY count(*) DESC, v.decided_by`,
    values,
  );
  const round = (value: number | null | undefined) =>
    value === null || value === undefined ? null : Math.round(value);
  return {
    reviewed: totals?.reviewed ?? 0,
    rejected: totals?.rejected ?? 0,
    medianSeconds: round(totals?.p?.[0]),
    p90Seconds: round(totals?.p?.[1]),
    byReviewer: byReviewer.map((row) => ({
      id: row.id,
      reviewed: row.reviewed,
      medianSeconds: round(row.median),
    })),
  };
}

/** What review_turnarounds should hold, counted from form_versions from scratch. */
const COUNTS_FROM_SCRATCH = `
  SELECT (decided_at AT TIME ZONE 'UTC')::date::text AS day,
         coalesce(decided_by, '00000000-0000-0000-0000-000000000000')::text AS reviewer,
         floor(4 * ln(1 + greatest(0, extract(epoch FROM decided_at - uploaded_at))::float8 / 60) / ln(2))::int AS bucket,
         count(*)::int AS decisions, (count(*) FILTER (WHERE decision_status = 'rejected'))::int AS rejections
    FROM form_versions WHERE decided_at IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;
const COUNTS_KEPT = `
  SELECT day::text, reviewer::text, bucket, decisions, rejections FROM review_turnarounds
   WHERE decisions <> 0 OR rejections <> 0 ORDER BY 1, 2, 3`;
/** The same for review_label_days and review_agent_days. */
const BY_KEY_FROM_SCRATCH = (key: 'label' | 'agent_id') => `
  SELECT (decided_at AT TIME ZONE 'UTC')::date::text AS day, ${key}::text AS key,
         count(*)::int AS decisions, (count(*) FILTER (WHERE decision_status = 'rejected'))::int AS rejections
    FROM form_versions WHERE decided_at IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`;
const BY_KEY_KEPT = (key: 'label' | 'agent_id') => `
  SELECT day::text, ${key}::text AS key, decisions, rejections
    FROM review_${key === 'label' ? 'label' : 'agent'}_days
   WHERE decisions <> 0 OR rejections <> 0 ORDER BY 1, 2`;

/** The same per agent too: review_agent_turnarounds. */
const AGENT_COUNTS_FROM_SCRATCH = `
  SELECT agent_id::text AS agent, (decided_at AT TIME ZONE 'UTC')::date::text AS day,
         coalesce(decided_by, '00000000-0000-0000-0000-000000000000')::text AS reviewer,
         floor(4 * ln(1 + greatest(0, extract(epoch FROM decided_at - uploaded_at))::float8 / 60) / ln(2))::int AS bucket,
         count(*)::int AS decisions, (count(*) FILTER (WHERE decision_status = 'rejected'))::int AS rejections
    FROM form_versions WHERE decided_at IS NOT NULL AND agent_id IS NOT NULL
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;
const AGENT_COUNTS_KEPT = `
  SELECT agent_id::text AS agent, day::text, reviewer::text, bucket, decisions, rejections
    FROM review_agent_turnarounds WHERE decisions <> 0 OR rejections <> 0 ORDER BY 1, 2, 3, 4`;

/** The monthly counts: each month the sum of its days' counts, as kept above. */
const MONTHS_FROM_DAYS = {
  review_turnaround_months: `
    SELECT date_trunc('month', day)::date::text AS month, reviewer::text AS key, bucket,
           sum(decisions)::int AS decisions, sum(rejections)::int AS rejections
      FROM review_turnarounds GROUP BY 1, 2, 3 HAVING sum(decisions) <> 0 OR sum(rejections) <> 0 ORDER BY 1, 2, 3`,
  review_agent_turnaround_months: `
    SELECT date_trunc('month', day)::date::text AS month, agent_id::text AS key, bucket,
           sum(decisions)::int AS decisions, sum(rejections)::int AS rejections
      FROM review_agent_turnarounds GROUP BY 1, 2, 3 HAVING sum(decisions) <> 0 OR sum(rejections) <> 0 ORDER BY 1, 2, 3`,
  review_agent_months: `
    SELECT date_trunc('month', day)::date::text AS month, agent_id::text AS key, 0 AS bucket,
           sum(decisions)::int AS decisions, sum(rejections)::int AS rejections
      FROM review_agent_days GROUP BY 1, 2 HAVING sum(decisions) <> 0 OR sum(rejections) <> 0 ORDER BY 1, 2, 3`,
};
const MONTHS_KEPT = {
  review_turnaround_months: `SELECT month::text, reviewer::text AS key, bucket, decisions, rejections
      FROM review_turnaround_months WHERE decisions <> 0 OR rejections <> 0 ORDER BY 1, 2, 3`,
  review_agent_turnaround_months: `SELECT month::text, agent_id::text AS key, bucket, decisions, rejections
      FROM review_agent_turnaround_months WHERE decisions <> 0 OR rejections <> 0 ORDER BY 1, 2, 3`,
  review_agent_months: `SELECT month::text, agent_id::text AS key, 0 AS bucket, decisions, rejections
      FROM review_agent_months WHERE decisions <> 0 OR rejections <> 0 ORDER BY 1, 2, 3`,
};

async function expectCountsKept() {
  expect(await query(COUNTS_KEPT)).toEqual(await query(COUNTS_FROM_SCRATCH));
  expect(await query(AGENT_COUNTS_KEPT)).toEqual(await query(AGENT_COUNTS_FROM_SCRATCH));
  for (const key of ['label', 'agent_id'] as const)
    expect(await query(BY_KEY_KEPT(key))).toEqual(await query(BY_KEY_FROM_SCRATCH(key)));
  for (const table of Object.keys(MONTHS_KEPT) as (keyof typeof MONTHS_KEPT)[])
    expect(await query(MONTHS_KEPT[table])).toEqual(await query(MONTHS_FROM_DAYS[table]));
}

/** Decisions and rejections by agent over the range, from form_versions: the breakdown's definition. */
async function byAgentDefinition(start: Date, end: Date) {
  return query<{ id: string; reviewed: number; rejected: number }>(
    `SELECT v.agent_id::text AS id, count(*)::int AS reviewed,
            count(*) FILTER (WHERE v.decision_status = 'rejected')::int AS rejected
       FROM form_versions v WHERE v.decided_at >= $1 AND v.decided_at < $2 AND v.agent_id IS NOT NULL
      GROUP BY v.agent_id ORDER BY 1`,
    [start, end],
  );
}

async function byAgentOf(range: ReturnType<typeof resolveRange>) {
  const rows = await sqlRows<{ by_label: boolean; id: string; reviewed: number; rejected: number }>(
    database.db,
    breakdownSql(range),
  );
  return rows
    .filter((row) => !row.by_label)
    .map(({ id, reviewed, rejected }) => ({ id, reviewed, rejected }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

async function figuresOf(from: number, days: number, office: string | null = null) {
  const day = (n: number) => new Date(FIRST_DAY + n * DAY).toISOString().slice(0, 10);
  const range = resolveRange(new Date(FIRST_DAY + 120 * DAY), { from: day(from), to: day(from + days - 1) });
  const figures = await turnaroundFigures(serviceContext(testDeps(database.db)), range, office);
  return {
    figures: {
      ...figures,
      byReviewer: figures.byReviewer.map((row) => ({
        id: row.user._id,
        reviewed: row.reviewed,
        medianSeconds: row.medianSeconds,
      })),
    },
    expected: await definition(range.start, range.end, office === null ? null : [agents[0] ?? '']),
    range,
  };
}

/** The office's median in the dashboard's breakdown by office. */
async function officeMedianOf(range: ReturnType<typeof resolveRange>, office: string | null = officeId) {
  const queue = { size: 0, oldestWaitingSeconds: null, medianWaitingSeconds: null, byOffice: new Map() };
  // Every office (null) is this one: the only office, holding the first agent.
  const [row] = await officeFigures(serviceContext(testDeps(database.db)), range, office, queue);
  return row?.medianTurnaroundSeconds;
}

describe('turnaround by bucket counts and index probes', () => {
  it('equals percentile_cont over the whole range, whatever the history', async () => {
    await fc.assert(
      fc.asyncProperty(history, async ({ decisions, changes, ranges }) => {
        await write(decisions);
        for (const change of changes) {
          const number = (change.index % decisions.length) + 1;
          if (change.remove) {
            await query('DELETE FROM form_versions WHERE form_id = $1 AND number = $2', [formId, number]);
          } else if (change.to) {
            const { uploadedAt, decidedAt } = times(change.to);
            await query(
              `UPDATE form_versions SET uploaded_at = $3, decided_at = $4, decided_by = $5,
                      decision_status = $6, agent_id = $7, label = $8 WHERE form_id = $1 AND number = $2`,
              [
                formId,
                number,
                uploadedAt,
                decidedAt,
                reviewers[change.to.reviewer] ?? null,
                change.to.rejected ? 'rejected' : 'accepted',
                agents[change.to.agent],
                LABELS[change.to.label],
              ],
            );
          } else {
            // The decision undone: the version waits again.
            await query(
              `UPDATE form_versions SET decided_at = NULL, decided_by = NULL, decision_status = NULL
                WHERE form_id = $1 AND number = $2`,
              [formId, number],
            );
          }
        }
        await expectCountsKept();
        for (const { from, days } of ranges) {
          const { figures, expected } = await figuresOf(from, days);
          expect(figures).toEqual(expected);
          const office = await figuresOf(from, days, officeId);
          expect(office.figures).toEqual(office.expected);
          expect(await officeMedianOf(office.range)).toBe(office.expected.medianSeconds);
          expect(await officeMedianOf(office.range, null)).toBe(office.expected.medianSeconds);
          expect(await byAgentOf(office.range)).toEqual(
            await byAgentDefinition(office.range.start, office.range.end),
          );
        }
      }),
      { numRuns: 40 },
    );
  });

  it('interpolates across buckets, and counts a deleted reviewer in the totals only', async () => {
    // 5 s and two days: the median is between two buckets far apart, p90 near the slower one.
    await write([
      { day: 2, msOfDay: 0, seconds: 5, reviewer: 0, rejected: false, agent: 0, label: 0 },
      { day: 2, msOfDay: 1000, seconds: 172_800, reviewer: 2, rejected: true, agent: 1, label: 1 },
    ]);
    expect((await figuresOf(0, 10)).figures).toEqual({
      reviewed: 2,
      rejected: 1,
      medianSeconds: 86_403, // (5 + 172,800) / 2 = 86,402.5, rounded half up
      p90Seconds: 155_521, // 5 + 0.9 × 172,795 = 155,520.5
      byReviewer: [
        { id: reviewers[0], reviewed: 1, medianSeconds: 5 },
        { id: reviewers[2], reviewed: 1, medianSeconds: 172_800 },
      ].sort((a, b) => ((a.id ?? '') < (b.id ?? '') ? -1 : 1)),
    });
    await query('DELETE FROM users WHERE id = $1', [reviewers[2]]);
    const { figures, expected } = await figuresOf(0, 10);
    expect(figures).toEqual(expected);
    expect(figures.reviewed).toBe(2);
    expect(figures.byReviewer).toEqual([{ id: reviewers[0], reviewed: 1, medianSeconds: 5 }]);
    await expectCountsKept();
  });

  it('answers nothing for a range without decisions', async () => {
    await write([{ day: 30, msOfDay: 0, seconds: 60, reviewer: 1, rejected: false, agent: 0, label: 2 }]);
    expect((await figuresOf(0, 10)).figures).toEqual({
      reviewed: 0,
      rejected: 0,
      medianSeconds: null,
      p90Seconds: null,
      byReviewer: [],
    });
  });
});
