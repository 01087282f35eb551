-- An agent's transaction list and its total: with deleted_at in the index, the count
-- and the page's keys come from the index alone (an index-only scan) instead of one table row per
-- transaction, which costs a busy agent thousands of row visits on every page.
DROP INDEX "transactions_user_id_created_at_idx";

-- CreateIndex
CREATE INDEX "transactions_user_id_created_at_idx" ON "transactions"("user_id", "created_at" DESC, "id" DESC, "deleted_at");
