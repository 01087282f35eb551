-- Records retention. A closed transaction is kept until its closing day (UTC) plus its office's
-- retention_years (offices already carry it; 7 without an office); that date is worked out on
-- every read, so changing an office's retention moves the date of its files already closed.
-- A legal hold keeps a file whatever its date: the hold, its reason, who placed it and when are
-- one fact, so the database refuses a hold without its reason or time, and leftovers of a
-- released one.
ALTER TABLE "transactions"
  ADD COLUMN "legal_hold" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "legal_hold_reason" TEXT,
  ADD COLUMN "legal_hold_by" UUID,
  ADD COLUMN "legal_hold_at" TIMESTAMPTZ(3),
  -- When the daily purge removed the file's stored documents; the row and its audit stay.
  ADD COLUMN "purged_at" TIMESTAMPTZ(3),
  ADD CONSTRAINT "transactions_legal_hold_check" CHECK (
    CASE WHEN "legal_hold"
      THEN "legal_hold_reason" IS NOT NULL AND "legal_hold_at" IS NOT NULL
      ELSE "legal_hold_reason" IS NULL AND "legal_hold_by" IS NULL AND "legal_hold_at" IS NULL
    END),
  ADD CONSTRAINT "transactions_legal_hold_by_fkey" FOREIGN KEY ("legal_hold_by")
    REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The daily purge looks for closed files not yet purged and not held: few, among many open ones.
CREATE INDEX "transactions_purge_candidates_idx" ON "transactions" ("closed_at")
  WHERE "purged_at" IS NULL AND "closed_at" IS NOT NULL AND NOT "legal_hold";
