-- What is known of a transaction's property and deal, and the template rules that turn those facts
-- into checklist items. Every fact is null until someone sets it. A transaction keeps its own copy
-- of its template's rules (checklist_rules), as it keeps its own copy of the plain items: a fact
-- change reads the copy, and a change to the template's rules is copied to its open transactions
-- by a job. Existing templates and transactions have no rules, so nothing changes for them.

ALTER TABLE "transaction_templates"
  ADD COLUMN "conditional_documents" JSONB NOT NULL DEFAULT '[]';

ALTER TABLE "transactions"
  ADD COLUMN "sale_price_cents" BIGINT,
  ADD COLUMN "year_built" INTEGER,
  ADD COLUMN "financing" TEXT,
  ADD COLUMN "property_type" TEXT,
  ADD COLUMN "hoa" BOOLEAN,
  ADD COLUMN "checklist_rules" JSONB NOT NULL DEFAULT '[]',
  ADD COLUMN "template_id" UUID,
  ADD CONSTRAINT "transactions_sale_price_cents_check" CHECK ("sale_price_cents" >= 0),
  ADD CONSTRAINT "transactions_year_built_check" CHECK ("year_built" BETWEEN 1600 AND 2100),
  ADD CONSTRAINT "transactions_financing_check"
    CHECK ("financing" IN ('cash', 'conventional', 'fha', 'va', 'other')),
  ADD CONSTRAINT "transactions_property_type_check" CHECK ("property_type" IN
    ('single-family', 'condo', 'townhouse', 'multi-family', 'land', 'commercial')),
  ADD CONSTRAINT "transactions_template_id_fkey" FOREIGN KEY ("template_id")
    REFERENCES "transaction_templates" ("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The template each open transaction was opened from: the one of its type and role today. Closed
-- and deleted files never take a template's changes, so they need none.
UPDATE "transactions" t SET "template_id" = tt."id"
  FROM "transaction_templates" tt
 WHERE tt."type" = t."type" AND tt."role" = t."role"
   AND t."closed_at" IS NULL AND t."deleted_at" IS NULL;

-- A template's open transactions, in id order, for the job that copies its rules to them.
CREATE INDEX "transactions_open_template_idx" ON "transactions" ("template_id", "id")
  WHERE "closed_at" IS NULL AND "deleted_at" IS NULL;

-- An item a rule put on the checklist (or took over): the rule decides whether it stays, and
-- required_because says why it is required.
ALTER TABLE "transaction_forms"
  ADD COLUMN "conditional" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "required_because" TEXT;
