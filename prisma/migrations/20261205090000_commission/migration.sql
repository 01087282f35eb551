-- Commission plans, each user's plan, and a transaction's commission. Money is integer cents;
-- percents of a commission are kept exactly, in thousandths of a percent (3.125% = 3125).
-- Nothing existing changes: no plan, no user's plan and no commission until an admin or an agent
-- sets one.

CREATE TABLE "commission_plans" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "name" CITEXT NOT NULL,
  "agent_split" INTEGER NOT NULL,
  "cap_cents" BIGINT,
  "transaction_fee_cents" BIGINT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "commission_plans_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "commission_plans_agent_split_check" CHECK ("agent_split" BETWEEN 0 AND 100),
  CONSTRAINT "commission_plans_cap_cents_check" CHECK ("cap_cents" >= 0),
  CONSTRAINT "commission_plans_transaction_fee_cents_check" CHECK ("transaction_fee_cents" >= 0)
);
-- citext: "Standard" and "standard" are the same plan.
CREATE UNIQUE INDEX "commission_plans_name_key" ON "commission_plans" ("name");

ALTER TABLE "users" ADD COLUMN "commission_plan_id" UUID;
ALTER TABLE "users" ADD CONSTRAINT "users_commission_plan_id_fkey" FOREIGN KEY ("commission_plan_id")
  REFERENCES "commission_plans" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The commission as given: a gross amount or a rate of the sale price (the gross is worked out on
-- read, so a later sale price keeps it consistent), and an optional referral.
ALTER TABLE "transactions"
  ADD COLUMN "commission_gross_cents" BIGINT,
  ADD COLUMN "commission_rate_thousandths" INTEGER,
  ADD COLUMN "commission_referral_name" TEXT,
  ADD COLUMN "commission_referral_thousandths" INTEGER,
  ADD CONSTRAINT "transactions_commission_gross_cents_check" CHECK ("commission_gross_cents" > 0),
  ADD CONSTRAINT "transactions_commission_rate_thousandths_check"
    CHECK ("commission_rate_thousandths" BETWEEN 1 AND 100000),
  ADD CONSTRAINT "transactions_commission_gross_or_rate_check"
    CHECK ("commission_gross_cents" IS NULL OR "commission_rate_thousandths" IS NULL),
  ADD CONSTRAINT "transactions_commission_referral_check" CHECK (
    ("commission_referral_name" IS NULL) = ("commission_referral_thousandths" IS NULL)
    AND ("commission_referral_thousandths" IS NULL OR "commission_referral_thousandths" BETWEEN 1 AND 99999));
