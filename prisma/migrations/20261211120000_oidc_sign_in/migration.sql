-- Single sign-on with an OpenID provider. Both tables hold short-lived, single-use rows that any
-- instance behind the load balancer can take (a process's memory could not be shared).

-- A sign-in begun at the provider: the PKCE verifier (sealed), the nonce and where to return,
-- found by the SHA-256 of its state and bound to the browser that began it (the SHA-256 of an
-- HttpOnly cookie's value). The callback deletes the row as it reads it, so a state counts once.
CREATE TABLE "oidc_flows" (
    "state_hash" TEXT NOT NULL,
    "browser_hash" TEXT NOT NULL,
    "code_verifier" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "return_to" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_flows_pkey" PRIMARY KEY ("state_hash")
);
CREATE INDEX "oidc_flows_expires_at_idx" ON "oidc_flows"("expires_at");

-- What a finished callback handed to the browser's sign-in page: a one-time code (its SHA-256
-- here) that POST /api/auth/oidc/exchange trades for a session, or for the refusal to show.
-- No tokens ever travel in an address. A row lives two minutes, so no foreign key holds users.
CREATE TABLE "oidc_handoffs" (
    "code_hash" TEXT NOT NULL,
    "user_id" UUID,
    "second_factor" TEXT,
    "error_code" TEXT,
    "error_message" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_handoffs_pkey" PRIMARY KEY ("code_hash"),
    CONSTRAINT "oidc_handoffs_outcome_check" CHECK (("user_id" IS NULL) <> ("error_code" IS NULL)),
    CONSTRAINT "oidc_handoffs_second_factor_check" CHECK ("second_factor" IN ('sso'))
);
CREATE INDEX "oidc_handoffs_expires_at_idx" ON "oidc_handoffs"("expires_at");
