-- The sealed archive of each close of a transaction: one row per close (a file reopened and closed
-- again gets a new one, the old kept), written by the archives:seal job. The unique pair makes a
-- re-run of that job find the row it already made instead of making a second.
CREATE TABLE "transaction_archives" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "transaction_id" UUID NOT NULL,
  "closed_at" TIMESTAMPTZ(3) NOT NULL,
  -- preparing, sealed or failed.
  "status" TEXT NOT NULL DEFAULT 'preparing',
  "sealed_at" TIMESTAMPTZ(3),
  "storage_key" TEXT,
  "bytes" BIGINT,
  "sha256" TEXT,
  "manifest_sha256" TEXT,
  "error" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "transaction_archives_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "transaction_archives_status_check" CHECK ("status" IN ('preparing', 'sealed', 'failed')),
  -- A sealed archive has all its facts; the others have none of the zip's.
  CONSTRAINT "transaction_archives_sealed_check" CHECK (
    CASE WHEN "status" = 'sealed'
      THEN "sealed_at" IS NOT NULL AND "storage_key" IS NOT NULL AND "bytes" IS NOT NULL
        AND "sha256" IS NOT NULL AND "manifest_sha256" IS NOT NULL
      ELSE "sealed_at" IS NULL
    END),
  CONSTRAINT "transaction_archives_transaction_id_fkey" FOREIGN KEY ("transaction_id")
    REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE UNIQUE INDEX "transaction_archives_transaction_id_closed_at_key"
  ON "transaction_archives" ("transaction_id", "closed_at");
