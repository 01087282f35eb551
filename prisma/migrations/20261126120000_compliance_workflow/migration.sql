-- The compliance workflow: optional checklist items, every attached
-- file kept as a version with the decision made on it, waivers, rejection reasons, closing, and
-- the progress counters of each transaction, kept by the database in the same transaction as
-- every change to its items.

-- CreateEnum
CREATE TYPE "waiver_status" AS ENUM ('requested', 'approved', 'denied');

-- CreateEnum
CREATE TYPE "compliance_state" AS ENUM ('needs-review', 'rejected', 'missing', 'compliant', 'closed');

-- AlterTable
ALTER TABLE "transaction_templates" ADD COLUMN "optional_documents" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "stored_files" ADD COLUMN "sha256" TEXT;

-- AlterTable
ALTER TABLE "comments" ADD COLUMN "reasons" JSONB NOT NULL DEFAULT '[]';

-- AlterTable: every item that exists now was required (the checklist had no other kind).
ALTER TABLE "transaction_forms" ADD COLUMN "required" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "submitted_at" TIMESTAMPTZ(3),
ADD COLUMN "version" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "waiver_status" "waiver_status",
ADD COLUMN "waiver_reason" TEXT,
ADD COLUMN "waiver_requested_at" TIMESTAMPTZ(3),
ADD COLUMN "waiver_decided_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN "closed_at" TIMESTAMPTZ(3),
ADD COLUMN "required_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "accepted_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "waived_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "awaiting_review_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "rejected_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "missing_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "pending_waiver_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "queue_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "compliance_state" "compliance_state" NOT NULL DEFAULT 'compliant';

-- CreateTable
CREATE TABLE "form_versions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "form_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "file_key" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "content_type" TEXT NOT NULL,
    "sha256" TEXT,
    "uploaded_by" UUID,
    "uploaded_at" TIMESTAMPTZ(3) NOT NULL,
    "decision_status" "form_status",
    "decision_reasons" JSONB NOT NULL DEFAULT '[]',
    "decision_text" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "decided_by" UUID,

    CONSTRAINT "form_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rejection_reasons" (
    "code" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rejection_reasons_pkey" PRIMARY KEY ("code")
);

-- CreateIndex
CREATE UNIQUE INDEX "form_versions_form_id_number_key" ON "form_versions"("form_id", "number");

-- CreateIndex
CREATE INDEX "transactions_compliance_state_idx" ON "transactions"("compliance_state", "created_at" DESC, "id" DESC, "deleted_at");

-- AddForeignKey
ALTER TABLE "form_versions" ADD CONSTRAINT "form_versions_form_id_fkey" FOREIGN KEY ("form_id") REFERENCES "transaction_forms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "form_versions" ADD CONSTRAINT "form_versions_uploaded_by_fkey" FOREIGN KEY ("uploaded_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "form_versions" ADD CONSTRAINT "form_versions_decided_by_fkey" FOREIGN KEY ("decided_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The review queue, oldest first: undecided uploads by when they were attached,
-- requested waivers by when they were asked for. Partial, so each holds the queue and nothing else.
CREATE INDEX "transaction_forms_review_queue_idx" ON "transaction_forms" ("submitted_at", "id")
  WHERE "file_key" IS NOT NULL AND "status" = 'pending';
CREATE INDEX "transaction_forms_waiver_queue_idx" ON "transaction_forms" ("waiver_requested_at", "id")
  WHERE "waiver_status" = 'requested';
-- The transactions with something in the queue, open and not deleted: the queue's total (a sum of
-- queue_count, filtered by agent or type) is read from this small index alone.
CREATE INDEX "transactions_review_queue_idx" ON "transactions" ("user_id", "type", "queue_count")
  WHERE "queue_count" > 0 AND "closed_at" IS NULL AND "deleted_at" IS NULL;

-- The seeded rejection reasons, in this order.
INSERT INTO "rejection_reasons" ("code", "label", "created_at", "updated_at")
SELECT code, label, now() + n * interval '1 millisecond', now() + n * interval '1 millisecond'
FROM (VALUES
  (1, 'missing-signature', 'Missing signature'),
  (2, 'missing-initials', 'Missing initials'),
  (3, 'wrong-form', 'Wrong form or outdated version'),
  (4, 'illegible', 'Illegible or incomplete scan'),
  (5, 'blank-fields', 'Required fields left blank'),
  (6, 'wrong-property', 'Wrong property or parties')
) AS seeded(n, code, label);

-- The state a transaction shows, from its counters (one definition, used by the trigger below
-- and by the benchmark's data generator). Closed wins; then a file whose required items are all
-- accepted or waived is compliant; else whatever the desk must do first (review), then what the
-- agent must do (fix a rejection, upload what is missing).
CREATE FUNCTION "transaction_compliance_state"(
  closed_at TIMESTAMPTZ, required INTEGER, accepted INTEGER, waived INTEGER,
  awaiting_review INTEGER, rejected INTEGER, pending_waivers INTEGER
) RETURNS "compliance_state" LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN closed_at IS NOT NULL THEN 'closed'
    WHEN accepted + waived >= required THEN 'compliant'
    WHEN awaiting_review > 0 OR pending_waivers > 0 THEN 'needs-review'
    WHEN rejected > 0 THEN 'rejected'
    ELSE 'missing'
  END::"compliance_state"
$$;

CREATE FUNCTION "transactions_set_compliance_state"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.compliance_state := transaction_compliance_state(NEW.closed_at, NEW.required_count,
    NEW.accepted_count, NEW.waived_count, NEW.awaiting_review_count, NEW.rejected_count,
    NEW.pending_waiver_count);
  RETURN NEW;
END
$$;

CREATE TRIGGER "transactions_compliance_state" BEFORE INSERT OR UPDATE ON "transactions"
  FOR EACH ROW EXECUTE FUNCTION "transactions_set_compliance_state"();

-- Recounts the progress of the given transactions from their items. Each required item is in
-- exactly one bucket: accepted, else waived (an approved waiver), else rejected, else awaiting
-- review (a file, undecided), else missing. The rows are locked first, in id order, and the count
-- runs as a statement of its own: under READ COMMITTED it then sees every change committed by a
-- writer it waited for, so two transactions changing items of one file cannot both write a count
-- that misses the other's change.
CREATE FUNCTION "refresh_transaction_progress"(ids UUID[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM transactions WHERE id = ANY (ids) ORDER BY id FOR UPDATE;
  UPDATE transactions AS t
     SET required_count = c.required, accepted_count = c.accepted, waived_count = c.waived,
         awaiting_review_count = c.awaiting, rejected_count = c.rejected,
         missing_count = c.missing, pending_waiver_count = c.pending_waivers, queue_count = c.queue
    FROM (
      SELECT f.transaction_id AS id,
             count(*) FILTER (WHERE f.required)::int AS required,
             count(*) FILTER (WHERE f.required AND f.status = 'accepted')::int AS accepted,
             count(*) FILTER (WHERE f.required AND f.status <> 'accepted'
                                AND f.waiver_status = 'approved')::int AS waived,
             count(*) FILTER (WHERE f.required AND f.status = 'rejected'
                                AND f.waiver_status IS DISTINCT FROM 'approved')::int AS rejected,
             count(*) FILTER (WHERE f.required AND f.status = 'pending' AND f.file_key IS NOT NULL
                                AND f.waiver_status IS DISTINCT FROM 'approved')::int AS awaiting,
             count(*) FILTER (WHERE f.required AND f.status = 'pending' AND f.file_key IS NULL
                                AND f.waiver_status IS DISTINCT FROM 'approved')::int AS missing,
             count(*) FILTER (WHERE f.required AND f.status <> 'accepted'
                                AND f.waiver_status = 'requested')::int AS pending_waivers,
             (count(*) FILTER (WHERE f.status = 'pending' AND f.file_key IS NOT NULL)
              + count(*) FILTER (WHERE f.waiver_status = 'requested'))::int AS queue
        FROM unnest(ids) AS given(id)
        JOIN transaction_forms f ON f.transaction_id = given.id
       GROUP BY f.transaction_id
      UNION ALL
      -- A transaction whose last item is gone counts zero of everything.
      SELECT given.id, 0, 0, 0, 0, 0, 0, 0, 0
        FROM unnest(ids) AS given(id)
       WHERE NOT EXISTS (SELECT 1 FROM transaction_forms f WHERE f.transaction_id = given.id)
    ) AS c
   WHERE t.id = c.id
     AND (t.required_count, t.accepted_count, t.waived_count, t.awaiting_review_count,
          t.rejected_count, t.missing_count, t.pending_waiver_count, t.queue_count)
         IS DISTINCT FROM
         (c.required, c.accepted, c.waived, c.awaiting, c.rejected, c.missing, c.pending_waivers, c.queue);
END
$$;

CREATE FUNCTION "transaction_forms_refresh_progress"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_transaction_progress(ARRAY(SELECT DISTINCT transaction_id FROM changed_forms));
  RETURN NULL;
END
$$;

-- One recount per statement and transaction, whatever the number of rows it changed.
CREATE TRIGGER "transaction_forms_progress_insert" AFTER INSERT ON "transaction_forms"
  REFERENCING NEW TABLE AS changed_forms
  FOR EACH STATEMENT EXECUTE FUNCTION "transaction_forms_refresh_progress"();
CREATE TRIGGER "transaction_forms_progress_update" AFTER UPDATE ON "transaction_forms"
  REFERENCING NEW TABLE AS changed_forms
  FOR EACH STATEMENT EXECUTE FUNCTION "transaction_forms_refresh_progress"();
CREATE TRIGGER "transaction_forms_progress_delete" AFTER DELETE ON "transaction_forms"
  REFERENCING OLD TABLE AS changed_forms
  FOR EACH STATEMENT EXECUTE FUNCTION "transaction_forms_refresh_progress"();

-- Existing data. Every current file becomes version 1 of its item, with what stored_files knows
-- of it (files stored before stored_files existed get size 0 and a generic type), and the latest
-- decision recorded for it: the newest comment that carried the item's present status.
INSERT INTO "form_versions" ("form_id", "number", "file_key", "size", "content_type", "sha256",
                             "uploaded_by", "uploaded_at", "decision_status", "decision_text",
                             "decided_at", "decided_by")
SELECT f.id, 1, f.file_key, coalesce(s.size, 0), coalesce(s.content_type, 'application/octet-stream'),
       s.sha256, s.uploaded_by, coalesce(s.created_at, f.updated_at),
       CASE WHEN f.status <> 'pending' THEN f.status END,
       CASE WHEN f.status <> 'pending' THEN nullif(d.text, '') END,
       CASE WHEN f.status <> 'pending' THEN coalesce(d.created_at, f.updated_at) END,
       CASE WHEN f.status <> 'pending' THEN d.user_id END
  FROM transaction_forms f
  LEFT JOIN stored_files s ON s.key = f.file_key
  LEFT JOIN LATERAL (
    SELECT c.text, c.created_at, c.user_id FROM comments c
     WHERE c.form_id = f.id AND c.status = f.status
     ORDER BY c.created_at DESC, c.id DESC LIMIT 1
  ) AS d ON true
 WHERE f.file_key IS NOT NULL;

UPDATE "transaction_forms" AS f
   SET "version" = 1, "submitted_at" = v.uploaded_at
  FROM "form_versions" AS v
 WHERE v.form_id = f.id AND v.number = 1;

-- The counters of every existing transaction (the UPDATE above already recounted those with a
-- file; this covers the rest, and the state of each).
SELECT refresh_transaction_progress(ARRAY(SELECT id FROM transactions));
UPDATE "transactions" SET "compliance_state" = transaction_compliance_state(closed_at, required_count,
  accepted_count, waived_count, awaiting_review_count, rejected_count, pending_waiver_count);
