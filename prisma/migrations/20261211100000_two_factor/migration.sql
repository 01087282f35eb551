-- Two-factor sign-in with an authenticator app (TOTP), its recovery codes, the challenge a
-- password sign-in answers when a second factor is due, and the owner's policy for admins.

-- One authenticator per user. The secret is sealed (AES-256-GCM, a key of its own derived from
-- JWT_SECRET): the server must compute codes from it, so it cannot be hashed. enabled_at is null
-- while the setup waits for its first code. last_used_step is the time step of the last code
-- accepted: a code of that step or an earlier one is refused, so no code works twice.
CREATE TABLE "totp_authenticators" (
  "user_id" UUID NOT NULL,
  "sealed_secret" TEXT NOT NULL,
  "enabled_at" TIMESTAMPTZ(3),
  "last_used_step" BIGINT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "totp_authenticators_pkey" PRIMARY KEY ("user_id"),
  CONSTRAINT "totp_authenticators_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id")
    ON DELETE CASCADE ON UPDATE CASCADE
);

-- Recovery codes, SHA-256 of the normalised code (each code carries 120 random bits), single use.
CREATE TABLE "recovery_codes" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "user_id" UUID NOT NULL,
  "code_hash" TEXT NOT NULL,
  "used_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "recovery_codes_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "recovery_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id")
    ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "recovery_codes_user_id_code_hash_key" ON "recovery_codes"("user_id", "code_hash");

-- A password sign-in that still owes its second factor: the challenge token (stored hashed) is
-- all the client holds until the code is verified. Wrong codes are counted on the row.
CREATE TABLE "login_challenges" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "user_id" UUID NOT NULL,
  "token_hash" TEXT NOT NULL,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "login_challenges_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "login_challenges_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id")
    ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "login_challenges_token_hash_key" ON "login_challenges"("token_hash");
CREATE INDEX "login_challenges_user_id_idx" ON "login_challenges"("user_id");

-- The brokerage's sign-in policy: one row, changed by the owner only.
CREATE TABLE "sign_in_policy" (
  "id" BOOLEAN NOT NULL DEFAULT true,
  "require_two_factor_for_admins" BOOLEAN NOT NULL DEFAULT false,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "sign_in_policy_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "sign_in_policy_one_row_check" CHECK ("id")
);
INSERT INTO "sign_in_policy" ("id") VALUES (true);
