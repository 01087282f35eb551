-- The dashboard's money counts a CDA not paid yet by when its transaction closed. The issued CDAs
-- are few (each is paid or superseded in time), so the money reads them all from this index, with
-- their money, and looks each transaction up by its key; an index of the transactions by
-- closed_at would hand it every file closed in the range, most of them without a CDA to count.
CREATE INDEX "cdas_issued_idx" ON "cdas" ("transaction_id")
  INCLUDE ("gross_cents", "brokerage_cents", "agent_cents", "fee_cents")
  WHERE "status" = 'issued';
