-- The dashboard's turnaround counts by office (review_agent_turnarounds, migration
-- 20261203100000), read from indexes alone. A year of one office's agents is about 38,000 rows
-- scattered over about 23,000 heap pages in the order of the primary key; the brokerage's
-- breakdown by office reads every agent's rows of the range. Each index carries what its read
-- sums, so neither visits the table (docs/PERFORMANCE.md).

-- One office: its agents' days, with what the turnaround buckets and the office's histogram sum.
CREATE INDEX "review_agent_turnarounds_agent_day_idx" ON "review_agent_turnarounds" ("agent_id", "day")
  INCLUDE ("bucket", "decisions", "rejections", "reviewer");

-- Every office: the range's days, with the agent (its office) and the counts by bucket.
CREATE INDEX "review_agent_turnarounds_day_idx" ON "review_agent_turnarounds" ("day")
  INCLUDE ("agent_id", "bucket", "decisions");
