-- Commission Disbursement Authorizations: how one transaction's commission is paid out. Each
-- issue is a new version; the one before becomes superseded and stays on file. Money is integer
-- cents in columns of their own, and the database checks the lines sum to the gross. The plan is
-- copied as it was when the CDA was issued, so a later change of plan never rewrites a CDA.

CREATE TABLE "cdas" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "transaction_id" UUID NOT NULL,
  "version" INTEGER NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'issued',
  -- The agent paid (the transaction's agent when issued): the year's cap is counted per agent.
  "agent_id" UUID NOT NULL,
  -- The payees as named when the CDA was issued: a later rename never rewrites a CDA.
  "agent_name" TEXT NOT NULL,
  "brokerage_name" TEXT NOT NULL,
  "gross_cents" BIGINT NOT NULL,
  "referral_name" TEXT,
  "referral_thousandths" INTEGER,
  "referral_cents" BIGINT,
  "brokerage_cents" BIGINT NOT NULL,
  "agent_cents" BIGINT NOT NULL,
  -- Null when the plan has no transaction fee (the CDA then has no fee line).
  "fee_cents" BIGINT,
  "plan_name" TEXT NOT NULL,
  "agent_split" INTEGER NOT NULL,
  "cap_cents" BIGINT,
  "transaction_fee_cents" BIGINT NOT NULL,
  -- The brokerage's shares of the agent's year counted before this CDA: how its cap was applied.
  "brokerage_year_to_date_cents" BIGINT NOT NULL,
  "override_reason" TEXT,
  "pdf_key" TEXT NOT NULL,
  "sha256" TEXT NOT NULL,
  "issued_by" UUID NOT NULL,
  "issued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "paid_at" TIMESTAMPTZ(3),
  "paid_by" UUID,
  "superseded_at" TIMESTAMPTZ(3),
  CONSTRAINT "cdas_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "cdas_status_check" CHECK ("status" IN ('issued', 'paid', 'superseded')),
  CONSTRAINT "cdas_version_check" CHECK ("version" >= 1),
  CONSTRAINT "cdas_money_check" CHECK (
    "gross_cents" > 0 AND "brokerage_cents" >= 0 AND "agent_cents" >= 0
    AND COALESCE("referral_cents", 0) >= 0 AND COALESCE("fee_cents", 0) >= 0
    AND COALESCE("referral_cents", 0) + "brokerage_cents" + "agent_cents" + COALESCE("fee_cents", 0)
      = "gross_cents"),
  CONSTRAINT "cdas_referral_check" CHECK (
    ("referral_name" IS NULL) = ("referral_cents" IS NULL)
    AND ("referral_name" IS NULL) = ("referral_thousandths" IS NULL)),
  CONSTRAINT "cdas_paid_check" CHECK (("status" = 'paid') = ("paid_at" IS NOT NULL)),
  CONSTRAINT "cdas_superseded_check" CHECK (("status" = 'superseded') = ("superseded_at" IS NOT NULL)),
  CONSTRAINT "cdas_sha256_check" CHECK ("sha256" ~ '^[0-9a-f]{64}$')
);

ALTER TABLE "cdas" ADD CONSTRAINT "cdas_transaction_id_fkey" FOREIGN KEY ("transaction_id")
  REFERENCES "transactions" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "cdas" ADD CONSTRAINT "cdas_agent_id_fkey" FOREIGN KEY ("agent_id")
  REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "cdas" ADD CONSTRAINT "cdas_issued_by_fkey" FOREIGN KEY ("issued_by")
  REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "cdas" ADD CONSTRAINT "cdas_paid_by_fkey" FOREIGN KEY ("paid_by")
  REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A transaction's versions, newest first.
CREATE UNIQUE INDEX "cdas_transaction_id_version_key" ON "cdas" ("transaction_id", "version");
-- At most one current (issued or paid) CDA per transaction.
CREATE UNIQUE INDEX "cdas_current_key" ON "cdas" ("transaction_id") WHERE "status" <> 'superseded';
-- The brokerage's shares of an agent's year, for its cap.
CREATE INDEX "cdas_agent_year_idx" ON "cdas" ("agent_id", "issued_at") INCLUDE ("brokerage_cents")
  WHERE "status" <> 'superseded';
-- The payouts export and the dashboard's money read paid CDAs by when they were paid.
CREATE INDEX "cdas_paid_at_idx" ON "cdas" ("paid_at") WHERE "status" = 'paid';
