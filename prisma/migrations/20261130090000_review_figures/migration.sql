-- The dashboard's decisions over a year (docs/PERFORMANCE.md): 640,000 decided file
-- versions. Their exact medians and 90th percentiles took a sort of all of them at every view,
-- and their counts by label and by agent a scan of all of them (1.9 s at p95 together). Now the
-- database keeps, in the transaction of every change (the triggers below):
-- - review_turnarounds: per UTC day, per reviewer and per turnaround bucket, how many decisions
--   and rejections. Summed over a range (a few thousand rows for a year) it gives the counts, and
--   in which bucket, at which offset, lies each rank a percentile needs;
-- - form_versions_turnaround_idx: the decisions by bucket, reviewer and time, so the value at
--   that offset is read from a bucket's few thousand entries instead of sorting the year;
-- - review_label_days and review_agent_days: per UTC day, per checklist label and per agent, how
--   many decisions and rejections.

-- How long a version waited for its decision, in seconds (never negative: a clock set back).
-- Not STRICT, so the planner inlines it (greatest() is not strict).
CREATE FUNCTION "review_turnaround_seconds"(uploaded_at TIMESTAMPTZ, decided_at TIMESTAMPTZ)
  RETURNS FLOAT8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN greatest(0, extract(epoch FROM decided_at - uploaded_at))::float8;

-- Quarter octaves of minutes: 0 under 11 s, 4 at 1 min, 23 at 1 h, 41 at a day, 65 at 2 months.
-- Each bucket is 19% wider than the one before, so no bucket holds much of a year whatever the
-- spread of the turnarounds.
CREATE FUNCTION "review_turnaround_bucket"(seconds FLOAT8)
  RETURNS INT LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN floor(4 * ln(1 + seconds / 60) / ln(2))::int;

-- CreateTable
-- reviewer: the version's decided_by, or the nil UUID once that admin is gone (part of the key).
CREATE TABLE "review_turnarounds" (
    "day" DATE NOT NULL,
    "reviewer" UUID NOT NULL,
    "bucket" INTEGER NOT NULL,
    "decisions" INTEGER NOT NULL,
    "rejections" INTEGER NOT NULL,

    CONSTRAINT "review_turnarounds_pkey" PRIMARY KEY ("day","reviewer","bucket")
);

-- CreateTable
CREATE TABLE "review_label_days" (
    "day" DATE NOT NULL,
    "label" TEXT NOT NULL,
    "decisions" INTEGER NOT NULL,
    "rejections" INTEGER NOT NULL,

    CONSTRAINT "review_label_days_pkey" PRIMARY KEY ("day","label")
);

-- CreateTable
CREATE TABLE "review_agent_days" (
    "day" DATE NOT NULL,
    "agent_id" UUID NOT NULL,
    "decisions" INTEGER NOT NULL,
    "rejections" INTEGER NOT NULL,

    CONSTRAINT "review_agent_days_pkey" PRIMARY KEY ("day","agent_id")
);

-- The breakdowns read the daily counts now, and nothing else ranges over every decision by time:
-- the first dashboard's covering index would only cost every decision a write.
DROP INDEX "form_versions_decisions_idx";

-- A reviewer's probe reads only that reviewer's entries of the bucket; a probe of all reviewers
-- skips from one reviewer to the next (PostgreSQL 18's skip scan; older servers read the bucket).
CREATE INDEX "form_versions_turnaround_idx" ON "form_versions"
  (review_turnaround_bucket(review_turnaround_seconds("uploaded_at", "decided_at")), "decided_by", "decided_at")
  INCLUDE ("uploaded_at")
  WHERE "decided_at" IS NOT NULL;

-- Where a decided version counts: its decision's UTC day, its reviewer, its turnaround's bucket,
-- its agent and label (either may be null: counted by neither); no row for a version not decided.
-- The functions with statements for bodies are written as strings, not BEGIN ATOMIC: pg_dump of
-- PostgreSQL 15 prints the ON CONFLICT of a BEGIN ATOMIC body with an alias that does not exist
-- (excluded_1), and pg_restore then fails (caught by the restore drill, scripts/restore-drill.ts).
CREATE FUNCTION "review_figures_key"(v "form_versions")
  RETURNS TABLE (day DATE, reviewer UUID, bucket INT, agent_id UUID, label TEXT, rejected BOOLEAN)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (v.decided_at AT TIME ZONE 'UTC')::date,
           coalesce(v.decided_by, '00000000-0000-0000-0000-000000000000'::uuid),
           review_turnaround_bucket(review_turnaround_seconds(v.uploaded_at, v.decided_at)),
           v.agent_id, v.label, v.decision_status = 'rejected'
     WHERE v.decided_at IS NOT NULL
$$;

-- Adds the versions in `added` and takes away those in `removed` (the same rows before a
-- change). Keys whose counts cancel out (any change but a decision's) write nothing; the rest are
-- written in key order, so concurrent decisions lock the rows they share in the same order.
CREATE FUNCTION "review_figures_add"(added "form_versions"[], removed "form_versions"[])
  RETURNS void LANGUAGE sql AS $$
    WITH c AS (
      SELECT k.*, x.n, CASE WHEN k.rejected THEN x.n ELSE 0 END AS r
        FROM (SELECT a AS v, 1 AS n FROM unnest(added) AS a
              UNION ALL
              SELECT o, -1 FROM unnest(removed) AS o) AS x
       CROSS JOIN LATERAL review_figures_key(x.v) AS k
    ), turnarounds AS (
      INSERT INTO review_turnarounds AS t (day, reviewer, bucket, decisions, rejections)
      SELECT c.day, c.reviewer, c.bucket, sum(c.n), sum(c.r) FROM c
       GROUP BY 1, 2, 3 HAVING sum(c.n) <> 0 OR sum(c.r) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT (day, reviewer, bucket) DO UPDATE
         SET decisions = t.decisions + EXCLUDED.decisions, rejections = t.rejections + EXCLUDED.rejections
    ), labels AS (
      INSERT INTO review_label_days AS t (day, label, decisions, rejections)
      SELECT c.day, c.label, sum(c.n), sum(c.r) FROM c WHERE c.label IS NOT NULL
       GROUP BY 1, 2 HAVING sum(c.n) <> 0 OR sum(c.r) <> 0 ORDER BY 1, 2
      ON CONFLICT (day, label) DO UPDATE
         SET decisions = t.decisions + EXCLUDED.decisions, rejections = t.rejections + EXCLUDED.rejections
    )
    INSERT INTO review_agent_days AS t (day, agent_id, decisions, rejections)
    SELECT c.day, c.agent_id, sum(c.n), sum(c.r) FROM c WHERE c.agent_id IS NOT NULL
     GROUP BY 1, 2 HAVING sum(c.n) <> 0 OR sum(c.r) <> 0 ORDER BY 1, 2
    ON CONFLICT (day, agent_id) DO UPDATE
       SET decisions = t.decisions + EXCLUDED.decisions, rejections = t.rejections + EXCLUDED.rejections
$$;

-- Counts every decision again from scratch: the existing data below, and the benchmark's
-- dataset, which is loaded with triggers off.
CREATE FUNCTION "rebuild_review_figures"() RETURNS void LANGUAGE sql AS $$
    DELETE FROM review_turnarounds;
    DELETE FROM review_label_days;
    DELETE FROM review_agent_days;
    WITH c AS MATERIALIZED (
      SELECT k.*, CASE WHEN k.rejected THEN 1 ELSE 0 END AS r
        FROM form_versions AS v CROSS JOIN LATERAL review_figures_key(v) AS k
    ), turnarounds AS (
      INSERT INTO review_turnarounds (day, reviewer, bucket, decisions, rejections)
      SELECT c.day, c.reviewer, c.bucket, count(*), sum(c.r) FROM c GROUP BY 1, 2, 3
    ), labels AS (
      INSERT INTO review_label_days (day, label, decisions, rejections)
      SELECT c.day, c.label, count(*), sum(c.r) FROM c WHERE c.label IS NOT NULL GROUP BY 1, 2
    )
    INSERT INTO review_agent_days (day, agent_id, decisions, rejections)
    SELECT c.day, c.agent_id, count(*), sum(c.r) FROM c WHERE c.agent_id IS NOT NULL GROUP BY 1, 2
$$;

CREATE FUNCTION "review_figures_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM review_figures_add(ARRAY(SELECT a::form_versions FROM added AS a), '{}'::form_versions[]);
  RETURN NULL;
END
$$;

CREATE FUNCTION "review_figures_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM review_figures_add(ARRAY(SELECT a::form_versions FROM added AS a),
                             ARRAY(SELECT o::form_versions FROM removed AS o));
  RETURN NULL;
END
$$;

CREATE FUNCTION "review_figures_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM review_figures_add('{}'::form_versions[], ARRAY(SELECT o::form_versions FROM removed AS o));
  RETURN NULL;
END
$$;

-- One count per statement, whatever the number of rows it changed; an admin's deletion (which
-- sets decided_by to null) and a transaction's (which deletes its versions) count too.
CREATE TRIGGER "review_figures_insert" AFTER INSERT ON "form_versions"
  REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "review_figures_inserted"();
CREATE TRIGGER "review_figures_update" AFTER UPDATE ON "form_versions"
  REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "review_figures_updated"();
CREATE TRIGGER "review_figures_delete" AFTER DELETE ON "form_versions"
  REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "review_figures_deleted"();

-- Existing data.
SELECT rebuild_review_figures();
