-- The calendar of a month (GET /api/calendar): the month's key dates with their transaction and
-- id in the index itself, so an agent's month is an index-only range scan hash-joined to the
-- agent's transactions (transactions_user_id_created_at_idx, index-only too), and only the
-- matching rows are read. On the 1M dataset the busiest agent's month went from ~230 ms (a probe
-- of key_dates per transaction of the agent: 13,000) to ~30 ms (bench/deadlines.bench.ts).
-- Same name and key as before: schema.prisma and server/db/drift.ts see btree(date) (INCLUDE
-- columns are not part of an index's key, and Prisma cannot express them).
DROP INDEX "key_dates_date_idx";
CREATE INDEX "key_dates_date_idx" ON "key_dates" ("date") INCLUDE ("transaction_id", "id");
