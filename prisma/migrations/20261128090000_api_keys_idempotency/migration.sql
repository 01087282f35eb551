-- API keys for integrators, and the answers kept for Idempotency-Key replays.

-- A key is `bpk_<id>_<secret>`; only sha256(secret) is kept, compared in constant time. The key
-- acts with its creator's rights, narrowed to its scopes, and dies with them (deactivation,
-- demotion), when revoked or when it expires.
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "scopes" TEXT[],
    "secret_hash" BYTEA NOT NULL,
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "api_keys_created_at_idx" ON "api_keys"("created_at" DESC, "id" DESC);
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_fkey" FOREIGN KEY ("created_by")
    REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Audit events of a key's calls name the key (the actor is its creator).
ALTER TABLE "audit_events" ADD COLUMN "api_key_id" UUID;
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_api_key_id_fkey" FOREIGN KEY ("api_key_id")
    REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- One row per (caller, Idempotency-Key): the request's fingerprint while it runs (status_code
-- null), then its answer. The primary key makes two racing requests with the same key meet here:
-- one inserts, the other waits for the answer. Rows older than 24 h are swept.
CREATE TABLE "idempotency_keys" (
    "caller" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" BYTEA NOT NULL,
    "status_code" INTEGER,
    "headers" JSONB,
    "body" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("caller", "key")
);
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");
