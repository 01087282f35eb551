-- The compliance desk by office: the review queue, the dashboard and its offices breakdown, each
-- held to the transactions of one office (transactions.office_id, its agent's office) or to the
-- decisions on the files of the agents now in that office (form_versions.agent_id). What the
-- brokerage-wide desk reads is unchanged; each office read gets an index or a count of its own,
-- so an office's desk costs what its share of the work does (docs/PERFORMANCE.md).

-- An office's share of the review queue: its open transactions with an entry and their kept
-- counts, read from the index alone (the queue's total, the dashboard's size by office).
CREATE INDEX "transactions_office_queue_idx" ON "transactions" ("office_id", "type", "queue_count")
  WHERE "queue_count" > 0 AND "closed_at" IS NULL AND "deleted_at" IS NULL;

-- The turnaround counts of migration 20261130090000 (review_turnarounds) per agent too: an
-- office's turnaround is summed over the agents now in it, so an agent who moves takes their
-- history along. Kept by the same triggers, in the same transaction as every decision.
CREATE TABLE "review_agent_turnarounds" (
    "agent_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "reviewer" UUID NOT NULL,
    "bucket" INTEGER NOT NULL,
    "decisions" INTEGER NOT NULL,
    "rejections" INTEGER NOT NULL,

    CONSTRAINT "review_agent_turnarounds_pkey" PRIMARY KEY ("agent_id", "day", "reviewer", "bucket")
);

-- An office's percentile probes: a bucket's decisions on its agents' files, by agent and time
-- (form_versions_turnaround_idx orders them by reviewer, which an office's probe cannot use).
CREATE INDEX "form_versions_agent_turnaround_idx" ON "form_versions"
  (review_turnaround_bucket(review_turnaround_seconds("uploaded_at", "decided_at")), "agent_id", "decided_at")
  INCLUDE ("uploaded_at", "decided_by")
  WHERE "decided_at" IS NOT NULL;

-- An office's decisions by label (review_label_days has no agent) and its rejections' reasons:
-- each agent's range of days, from the index alone.
CREATE INDEX "form_versions_agent_decisions_idx" ON "form_versions" ("agent_id", "decided_at")
  INCLUDE ("label", "decision_status")
  WHERE "decided_at" IS NOT NULL;
CREATE INDEX "form_versions_agent_rejections_idx" ON "form_versions" ("agent_id", "decided_at")
  INCLUDE ("decision_reasons")
  WHERE "decision_status" = 'rejected' AND "decided_at" IS NOT NULL;

-- review_figures_add of migration 20261130090000, which now also keeps review_agent_turnarounds
-- (the rest as it was; the agent's rows in key order too).
CREATE OR REPLACE FUNCTION "review_figures_add"(added "form_versions"[], removed "form_versions"[])
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
    ), agent_turnarounds AS (
      INSERT INTO review_agent_turnarounds AS t (agent_id, day, reviewer, bucket, decisions, rejections)
      SELECT c.agent_id, c.day, c.reviewer, c.bucket, sum(c.n), sum(c.r) FROM c WHERE c.agent_id IS NOT NULL
       GROUP BY 1, 2, 3, 4 HAVING sum(c.n) <> 0 OR sum(c.r) <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (agent_id, day, reviewer, bucket) DO UPDATE
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

CREATE OR REPLACE FUNCTION "rebuild_review_figures"() RETURNS void LANGUAGE sql AS $$
    DELETE FROM review_turnarounds;
    DELETE FROM review_agent_turnarounds;
    DELETE FROM review_label_days;
    DELETE FROM review_agent_days;
    WITH c AS MATERIALIZED (
      SELECT k.*, CASE WHEN k.rejected THEN 1 ELSE 0 END AS r
        FROM form_versions AS v CROSS JOIN LATERAL review_figures_key(v) AS k
    ), turnarounds AS (
      INSERT INTO review_turnarounds (day, reviewer, bucket, decisions, rejections)
      SELECT c.day, c.reviewer, c.bucket, count(*), sum(c.r) FROM c GROUP BY 1, 2, 3
    ), agent_turnarounds AS (
      INSERT INTO review_agent_turnarounds (agent_id, day, reviewer, bucket, decisions, rejections)
      SELECT c.agent_id, c.day, c.reviewer, c.bucket, count(*), sum(c.r) FROM c
       WHERE c.agent_id IS NOT NULL GROUP BY 1, 2, 3, 4
    ), labels AS (
      INSERT INTO review_label_days (day, label, decisions, rejections)
      SELECT c.day, c.label, count(*), sum(c.r) FROM c WHERE c.label IS NOT NULL GROUP BY 1, 2
    )
    INSERT INTO review_agent_days (day, agent_id, decisions, rejections)
    SELECT c.day, c.agent_id, count(*), sum(c.r) FROM c WHERE c.agent_id IS NOT NULL GROUP BY 1, 2
$$;

-- Existing data.
SELECT rebuild_review_figures();

-- The dashboard's queue figures look each entry's transaction up in transactions_queued_idx;
-- they now group the entries by office too, so the index carries it (same key and predicate).
DROP INDEX "transactions_queued_idx";
CREATE INDEX "transactions_queued_idx" ON "transactions" ("id") INCLUDE ("office_id")
  WHERE "queue_count" > 0 AND "closed_at" IS NULL AND "deleted_at" IS NULL;
