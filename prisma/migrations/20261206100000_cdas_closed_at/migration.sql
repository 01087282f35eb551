-- The dashboard's money counts a CDA not paid yet by when its transaction closed. Each CDA keeps
-- a copy of its transaction's closed_at (triggers below keep it), so the issued CDAs of a range
-- are read from an index of their own, with their money: without the copy every issued CDA's
-- transaction was looked up by its key to find the few that closed in the range.
ALTER TABLE "cdas" ADD COLUMN "closed_at" TIMESTAMPTZ(3);

-- A CDA's copy is its transaction's, on insert and on any change of the copy itself: no statement
-- can set another.
CREATE FUNCTION "cdas_closed_at_of_transaction"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.closed_at := (SELECT closed_at FROM transactions WHERE id = NEW.transaction_id);
  RETURN NEW;
END $$;
CREATE TRIGGER "cdas_closed_at_of_transaction"
  BEFORE INSERT OR UPDATE OF "transaction_id", "closed_at" ON "cdas"
  FOR EACH ROW EXECUTE FUNCTION "cdas_closed_at_of_transaction"();

-- A transaction closed or reopened takes its CDAs along.
CREATE FUNCTION "transactions_closed_at_to_cdas"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cdas SET closed_at = NEW.closed_at WHERE transaction_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER "transactions_closed_at_to_cdas"
  AFTER UPDATE OF "closed_at" ON "transactions"
  FOR EACH ROW WHEN (OLD.closed_at IS DISTINCT FROM NEW.closed_at)
  EXECUTE FUNCTION "transactions_closed_at_to_cdas"();

UPDATE "cdas" c SET "closed_at" = t."closed_at" FROM "transactions" t WHERE t."id" = c."transaction_id";

-- The issued CDAs by their transaction's closing, with their money.
CREATE INDEX "cdas_issued_closed_at_idx" ON "cdas" ("closed_at")
  INCLUDE ("transaction_id", "gross_cents", "brokerage_cents", "agent_cents", "fee_cents")
  WHERE "status" = 'issued' AND "closed_at" IS NOT NULL;
