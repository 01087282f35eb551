-- The dashboard over a year (docs/PERFORMANCE.md): its breakdowns summed a year of daily counts
-- (review_agent_turnarounds: about 600,000 rows a year on the benchmark's 1,000,000
-- transactions; review_agent_days: 365,000). The same counts are now kept per UTC calendar month
-- too, by the same triggers in the same transaction: a range reads its whole months from these
-- and only the days before and after them from the daily counts (services/dashboard/rollups.ts).
-- The monthly counts leave out what no monthly read needs: the reviewer of an agent's counts.

CREATE TABLE "review_turnaround_months" (
    "month" DATE NOT NULL,
    "reviewer" UUID NOT NULL,
    "bucket" INTEGER NOT NULL,
    "decisions" INTEGER NOT NULL,
    "rejections" INTEGER NOT NULL,

    CONSTRAINT "review_turnaround_months_pkey" PRIMARY KEY ("month", "reviewer", "bucket")
);

CREATE TABLE "review_agent_turnaround_months" (
    "agent_id" UUID NOT NULL,
    "month" DATE NOT NULL,
    "bucket" INTEGER NOT NULL,
    "decisions" INTEGER NOT NULL,
    "rejections" INTEGER NOT NULL,

    CONSTRAINT "review_agent_turnaround_months_pkey" PRIMARY KEY ("agent_id", "month", "bucket")
);

-- Every office at once: the range's months with the agent (its office) and the counts by bucket,
-- from the index alone, as review_agent_turnarounds_day_idx does for days.
CREATE INDEX "review_agent_turnaround_months_month_idx" ON "review_agent_turnaround_months" ("month")
  INCLUDE ("agent_id", "bucket", "decisions");

CREATE TABLE "review_agent_months" (
    "month" DATE NOT NULL,
    "agent_id" UUID NOT NULL,
    "decisions" INTEGER NOT NULL,
    "rejections" INTEGER NOT NULL,

    CONSTRAINT "review_agent_months_pkey" PRIMARY KEY ("month", "agent_id")
);

-- The days around a range's whole months (and a range shorter than a month): every agent's
-- counts of those days from the index alone, not from the table's pages scattered by agent.
CREATE INDEX "review_agent_days_day_idx" ON "review_agent_days" ("day")
  INCLUDE ("agent_id", "decisions", "rejections");

-- review_figures_add of migration 20261203100000, now also keeping the monthly counts (the rest
-- as it was; each table's rows in key order, so concurrent decisions lock shared rows in the same
-- order).
CREATE OR REPLACE FUNCTION "review_figures_add"(added "form_versions"[], removed "form_versions"[])
  RETURNS void LANGUAGE sql AS $$
    WITH c AS (
      SELECT k.*, date_trunc('month', k.day)::date AS month, x.n, CASE WHEN k.rejected THEN x.n ELSE 0 END AS r
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
    ), turnaround_months AS (
      INSERT INTO review_turnaround_months AS t (month, reviewer, bucket, decisions, rejections)
      SELECT c.month, c.reviewer, c.bucket, sum(c.n), sum(c.r) FROM c
       GROUP BY 1, 2, 3 HAVING sum(c.n) <> 0 OR sum(c.r) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT (month, reviewer, bucket) DO UPDATE
         SET decisions = t.decisions + EXCLUDED.decisions, rejections = t.rejections + EXCLUDED.rejections
    ), agent_turnarounds AS (
      INSERT INTO review_agent_turnarounds AS t (agent_id, day, reviewer, bucket, decisions, rejections)
      SELECT c.agent_id, c.day, c.reviewer, c.bucket, sum(c.n), sum(c.r) FROM c WHERE c.agent_id IS NOT NULL
       GROUP BY 1, 2, 3, 4 HAVING sum(c.n) <> 0 OR sum(c.r) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (agent_id, day, reviewer, bucket) DO UPDATE
         SET decisions = t.decisions + EXCLUDED.decisions, rejections = t.rejections + EXCLUDED.rejections
    ), agent_turnaround_months AS (
      INSERT INTO review_agent_turnaround_months AS t (agent_id, month, bucket, decisions, rejections)
      SELECT c.agent_id, c.month, c.bucket, sum(c.n), sum(c.r) FROM c WHERE c.agent_id IS NOT NULL
       GROUP BY 1, 2, 3 HAVING sum(c.n) <> 0 OR sum(c.r) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT (agent_id, month, bucket) DO UPDATE
         SET decisions = t.decisions + EXCLUDED.decisions, rejections = t.rejections + EXCLUDED.rejections
    ), labels AS (
      INSERT INTO review_label_days AS t (day, label, decisions, rejections)
      SELECT c.day, c.label, sum(c.n), sum(c.r) FROM c WHERE c.label IS NOT NULL
       GROUP BY 1, 2 HAVING sum(c.n) <> 0 OR sum(c.r) <> 0 ORDER BY 1, 2
      ON CONFLICT (day, label) DO UPDATE
         SET decisions = t.decisions + EXCLUDED.decisions, rejections = t.rejections + EXCLUDED.rejections
    ), agent_months AS (
      INSERT INTO review_agent_months AS t (month, agent_id, decisions, rejections)
      SELECT c.month, c.agent_id, sum(c.n), sum(c.r) FROM c WHERE c.agent_id IS NOT NULL
       GROUP BY 1, 2 HAVING sum(c.n) <> 0 OR sum(c.r) <> 0 ORDER BY 1, 2
      ON CONFLICT (month, agent_id) DO UPDATE
         SET decisions = t.decisions + EXCLUDED.decisions, rejections = t.rejections + EXCLUDED.rejections
    )
    INSERT INTO review_agent_days AS t (day, agent_id, decisions, rejections)
    SELECT c.day, c.agent_id, sum(c.n), sum(c.r) FROM c WHERE c.agent_id IS NOT NULL
     GROUP BY 1, 2 HAVING sum(c.n) <> 0 OR sum(c.r) <> 0 ORDER BY 1, 2
    ON CONFLICT (day, agent_id) DO UPDATE
       SET decisions = t.decisions + EXCLUDED.decisions, rejections = t.rejections + EXCLUDED.rejections
$$;

-- rebuild_review_figures of migration 20261203100000, counting the monthly rows too, from the
-- same decisions in the same statement.
CREATE OR REPLACE FUNCTION "rebuild_review_figures"() RETURNS void LANGUAGE sql AS $$
    DELETE FROM review_turnarounds;
    DELETE FROM review_turnaround_months;
    DELETE FROM review_agent_turnarounds;
    DELETE FROM review_agent_turnaround_months;
    DELETE FROM review_label_days;
    DELETE FROM review_agent_days;
    DELETE FROM review_agent_months;
    WITH c AS MATERIALIZED (
      SELECT k.*, date_trunc('month', k.day)::date AS month, CASE WHEN k.rejected THEN 1 ELSE 0 END AS r
        FROM form_versions AS v CROSS JOIN LATERAL review_figures_key(v) AS k
    ), turnarounds AS (
      INSERT INTO review_turnarounds (day, reviewer, bucket, decisions, rejections)
      SELECT c.day, c.reviewer, c.bucket, count(*), sum(c.r) FROM c GROUP BY 1, 2, 3
    ), turnaround_months AS (
      INSERT INTO review_turnaround_months (month, reviewer, bucket, decisions, rejections)
      SELECT c.month, c.reviewer, c.bucket, count(*), sum(c.r) FROM c GROUP BY 1, 2, 3
    ), agent_turnarounds AS (
      INSERT INTO review_agent_turnarounds (agent_id, day, reviewer, bucket, decisions, rejections)
      SELECT c.agent_id, c.day, c.reviewer, c.bucket, count(*), sum(c.r) FROM c
       WHERE c.agent_id IS NOT NULL GROUP BY 1, 2, 3, 4
    ), agent_turnaround_months AS (
      INSERT INTO review_agent_turnaround_months (agent_id, month, bucket, decisions, rejections)
      SELECT c.agent_id, c.month, c.bucket, count(*), sum(c.r) FROM c
       WHERE c.agent_id IS NOT NULL GROUP BY 1, 2, 3
    ), labels AS (
      INSERT INTO review_label_days (day, label, decisions, rejections)
      SELECT c.day, c.label, count(*), sum(c.r) FROM c WHERE c.label IS NOT NULL GROUP BY 1, 2
    ), agent_months AS (
      INSERT INTO review_agent_months (month, agent_id, decisions, rejections)
      SELECT c.month, c.agent_id, count(*), sum(c.r) FROM c WHERE c.agent_id IS NOT NULL GROUP BY 1, 2
    )
    INSERT INTO review_agent_days (day, agent_id, decisions, rejections)
    SELECT c.day, c.agent_id, count(*), sum(c.r) FROM c WHERE c.agent_id IS NOT NULL GROUP BY 1, 2
$$;

-- Existing data: the monthly counts from the daily ones (each month the sum of its days).
INSERT INTO review_turnaround_months (month, reviewer, bucket, decisions, rejections)
SELECT date_trunc('month', day)::date, reviewer, bucket, sum(decisions), sum(rejections)
  FROM review_turnarounds GROUP BY 1, 2, 3 HAVING sum(decisions) <> 0 OR sum(rejections) <> 0;
INSERT INTO review_agent_turnaround_months (agent_id, month, bucket, decisions, rejections)
SELECT agent_id, date_trunc('month', day)::date, bucket, sum(decisions), sum(rejections)
  FROM review_agent_turnarounds GROUP BY 1, 2, 3 HAVING sum(decisions) <> 0 OR sum(rejections) <> 0;
INSERT INTO review_agent_months (month, agent_id, decisions, rejections)
SELECT date_trunc('month', day)::date, agent_id, sum(decisions), sum(rejections)
  FROM review_agent_days GROUP BY 1, 2 HAVING sum(decisions) <> 0 OR sum(rejections) <> 0;
