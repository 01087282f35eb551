-- Notifications name the transaction they are about, so one about a transaction that
-- was deleted since can say so instead of opening a page that is gone.
-- AlterTable
ALTER TABLE "notifications" ADD COLUMN "transaction_id" UUID;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transactions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The notifications written before this knew their transaction only by the page they link to
-- (/home/transactions/<id> or /adminTransactions/transactions/<id>). The CASE makes sure only a
-- link of that shape is ever cast to a uuid.
UPDATE "notifications" AS n
SET "transaction_id" = t."id"
FROM "transactions" AS t
WHERE t."id" = CASE
    WHEN n."link" ~ '^/(home|adminTransactions)/transactions/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
    THEN substring(n."link" from '[0-9a-fA-F-]{36}$')::uuid
  END;
