-- An office's review queue totals the queue_count of its open transactions with an entry.
-- transactions_review_queue_idx holds those transactions by agent and type, not by office, so an
-- office's total visited every such transaction of the brokerage in the table to read its office:
-- on the benchmark's 1,000,000 transactions (20 offices, 13,767 transactions with an entry) about
-- 10,700 heap pages and 107 ms for one office's first page, against 1.3 ms when this index answers
-- the total alone (832 entries of the office, index-only). The key ends with type and queue_count
-- so an office's queue filtered by type is counted from it too. The three columns are already
-- indexed, so it costs updates no HOT opportunity they had.
CREATE INDEX "transactions_office_queue_idx" ON "transactions" ("office_id", "type", "queue_count")
  WHERE "queue_count" > 0 AND "closed_at" IS NULL AND "deleted_at" IS NULL;
