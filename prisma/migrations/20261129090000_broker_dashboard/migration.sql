-- The broker dashboard. Its figures read a year of decisions and of
-- closings on a million transactions; counting them from the items, the versions and the key
-- dates at every view would visit millions of rows. The database keeps what the figures group
-- by next to what they measure, in the same transaction as every change (docs/PERFORMANCE.md).

-- AlterTable
-- closing_date: the earliest key date of kind 'closing' (null without one), kept by the key_dates
-- triggers below. compliant_at: when the file became compliant, null while it is not: the latest
-- acceptance (decided_at of the accepted current version) or waiver approval among its required
-- items, or created_at when nothing is required. Times the application recorded, never the
-- database's now(), so tests on a TestClock see their own times.
ALTER TABLE "transactions" ADD COLUMN "closing_date" DATE,
ADD COLUMN "compliant_at" TIMESTAMPTZ(3);

-- AlterTable
-- Whose transaction the version belongs to and which checklist item it is, as they were when it
-- was attached (filled by the trigger below): the turnaround and rejection figures group a
-- year of decisions by them from one index, without joining 700,000 rows to their items.
ALTER TABLE "form_versions" ADD COLUMN "agent_id" UUID,
ADD COLUMN "label" TEXT;

-- Every decision by when it was made, with what the figures need: read from the index alone.
CREATE INDEX "form_versions_decisions_idx" ON "form_versions" ("decided_at")
  INCLUDE ("uploaded_at", "decision_status", "decided_by", "agent_id", "label")
  WHERE "decided_at" IS NOT NULL;
-- The rejections with their reasons (a small JSON array), for the top reasons.
CREATE INDEX "form_versions_rejections_idx" ON "form_versions" ("decided_at")
  INCLUDE ("decision_reasons")
  WHERE "decision_status" = 'rejected' AND "decided_at" IS NOT NULL;
-- Undeleted transactions by closing date: the compliance figures, from the index alone.
CREATE INDEX "transactions_closing_date_idx" ON "transactions" ("closing_date")
  INCLUDE ("compliant_at")
  WHERE "closing_date" IS NOT NULL AND "deleted_at" IS NULL;

-- The files at risk: open, undeleted, not compliant, by closing date; the soonest 100 of a week
-- are read from here without visiting the thousands that are compliant or closed.
CREATE INDEX "transactions_at_risk_idx" ON "transactions" ("closing_date", "id")
  WHERE "closing_date" IS NOT NULL AND "closed_at" IS NULL AND "deleted_at" IS NULL
    AND "compliance_state" NOT IN ('compliant', 'closed');

-- The queue's figures read every entry's wait and whether its transaction is open: the review
-- queue's partial indexes now carry the transaction (same keys and predicates, so the queue's own
-- reads are unchanged), and the open transactions with an entry are indexed by id, so the whole
-- queue is counted from indexes, without visiting 16,000 items and their transactions.
DROP INDEX "transaction_forms_review_queue_idx";
CREATE INDEX "transaction_forms_review_queue_idx" ON "transaction_forms" ("submitted_at", "id")
  INCLUDE ("transaction_id")
  WHERE "file_key" IS NOT NULL AND "status" = 'pending';
DROP INDEX "transaction_forms_waiver_queue_idx";
CREATE INDEX "transaction_forms_waiver_queue_idx" ON "transaction_forms" ("waiver_requested_at", "id")
  INCLUDE ("transaction_id")
  WHERE "waiver_status" = 'requested';
CREATE INDEX "transactions_queued_idx" ON "transactions" ("id")
  WHERE "queue_count" > 0 AND "closed_at" IS NULL AND "deleted_at" IS NULL;

CREATE FUNCTION "form_versions_fill_item"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.agent_id IS NULL OR NEW.label IS NULL THEN
    SELECT coalesce(NEW.agent_id, t.user_id), coalesce(NEW.label, f.label)
      INTO NEW.agent_id, NEW.label
      FROM transaction_forms f JOIN transactions t ON t.id = f.transaction_id
     WHERE f.id = NEW.form_id;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "form_versions_fill_item" BEFORE INSERT ON "form_versions"
  FOR EACH ROW EXECUTE FUNCTION "form_versions_fill_item"();

-- The closing dates of the given transactions, from their key dates; rows that already hold the
-- right value are not written.
CREATE FUNCTION "refresh_closing_dates"(ids UUID[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE transactions AS t
     SET closing_date = c.closing_date
    FROM (
      SELECT given.id,
             (SELECT min(k.date) FROM key_dates k
               WHERE k.transaction_id = given.id AND k.kind = 'closing') AS closing_date
        FROM (SELECT DISTINCT unnest(ids) AS id) AS given
    ) AS c
   WHERE t.id = c.id AND t.closing_date IS DISTINCT FROM c.closing_date;
END
$$;

CREATE FUNCTION "key_dates_refresh_closing_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_closing_dates(ARRAY(SELECT transaction_id FROM changed_dates WHERE kind = 'closing'));
  RETURN NULL;
END
$$;

CREATE FUNCTION "key_dates_refresh_closing_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A date that stopped being a closing (or moved to another transaction) counts as much as one
  -- that became one.
  PERFORM refresh_closing_dates(ARRAY(
    SELECT transaction_id FROM new_dates WHERE kind = 'closing'
    UNION SELECT transaction_id FROM old_dates WHERE kind = 'closing'));
  RETURN NULL;
END
$$;

-- One refresh per statement, whatever the number of rows it changed (PostgreSQL allows a
-- transition table on a trigger of one event only, hence three).
CREATE TRIGGER "key_dates_closing_insert" AFTER INSERT ON "key_dates"
  REFERENCING NEW TABLE AS changed_dates
  FOR EACH STATEMENT EXECUTE FUNCTION "key_dates_refresh_closing_new"();
CREATE TRIGGER "key_dates_closing_update" AFTER UPDATE ON "key_dates"
  REFERENCING OLD TABLE AS old_dates NEW TABLE AS new_dates
  FOR EACH STATEMENT EXECUTE FUNCTION "key_dates_refresh_closing_update"();
CREATE TRIGGER "key_dates_closing_delete" AFTER DELETE ON "key_dates"
  REFERENCING OLD TABLE AS changed_dates
  FOR EACH STATEMENT EXECUTE FUNCTION "key_dates_refresh_closing_new"();

-- The recount of migration 20261126120000, which now also keeps compliant_at (see above). Its
-- locking and its skip of unchanged rows are as they were.
CREATE OR REPLACE FUNCTION "refresh_transaction_progress"(ids UUID[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM transactions WHERE id = ANY (ids) ORDER BY id FOR UPDATE;
  UPDATE transactions AS t
     SET required_count = c.required, accepted_count = c.accepted, waived_count = c.waived,
         awaiting_review_count = c.awaiting, rejected_count = c.rejected,
         missing_count = c.missing, pending_waiver_count = c.pending_waivers, queue_count = c.queue,
         compliant_at = CASE WHEN c.accepted + c.waived >= c.required
                             THEN coalesce(c.settled_at, t.created_at) END
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
              + count(*) FILTER (WHERE f.waiver_status = 'requested'))::int AS queue,
             -- When the last required item was settled: accepted (its current version's
             -- decision) or waived (the approval). Meaningful only once all of them are.
             greatest(max(v.decided_at) FILTER (WHERE f.required AND f.status = 'accepted'),
                      max(f.waiver_decided_at) FILTER (WHERE f.required AND f.status <> 'accepted'
                                                         AND f.waiver_status = 'approved')) AS settled_at
        FROM unnest(ids) AS given(id)
        JOIN transaction_forms f ON f.transaction_id = given.id
        LEFT JOIN form_versions v ON v.form_id = f.id AND v.number = f.version AND f.status = 'accepted'
       GROUP BY f.transaction_id
      UNION ALL
      -- A transaction whose last item is gone counts zero of everything.
      SELECT given.id, 0, 0, 0, 0, 0, 0, 0, 0, NULL::timestamptz
        FROM unnest(ids) AS given(id)
       WHERE NOT EXISTS (SELECT 1 FROM transaction_forms f WHERE f.transaction_id = given.id)
    ) AS c
   WHERE t.id = c.id
     AND (t.required_count, t.accepted_count, t.waived_count, t.awaiting_review_count,
          t.rejected_count, t.missing_count, t.pending_waiver_count, t.queue_count, t.compliant_at)
         IS DISTINCT FROM
         (c.required, c.accepted, c.waived, c.awaiting, c.rejected, c.missing, c.pending_waivers, c.queue,
          CASE WHEN c.accepted + c.waived >= c.required THEN coalesce(c.settled_at, t.created_at) END);
END
$$;

-- A transaction starts with no items (they are inserted after it, and may be none): its recount
-- may never run, so it starts compliant as of its creation when nothing is required, as its state.
CREATE FUNCTION "transactions_initial_compliant_at"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.compliant_at IS NULL AND NEW.accepted_count + NEW.waived_count >= NEW.required_count THEN
    NEW.compliant_at := NEW.created_at;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "transactions_initial_compliant_at" BEFORE INSERT ON "transactions"
  FOR EACH ROW EXECUTE FUNCTION "transactions_initial_compliant_at"();

-- Existing data.
UPDATE "form_versions" AS v
   SET "agent_id" = t.user_id, "label" = f.label
  FROM "transaction_forms" AS f JOIN "transactions" AS t ON t.id = f.transaction_id
 WHERE f.id = v.form_id;
SELECT refresh_closing_dates(ARRAY(SELECT DISTINCT transaction_id FROM key_dates WHERE kind = 'closing'));
SELECT refresh_transaction_progress(ARRAY(SELECT id FROM transactions));
