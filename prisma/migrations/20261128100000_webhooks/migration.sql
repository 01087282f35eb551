-- Webhooks: endpoints admins register, the events the portal records in
-- the transaction of each change (an outbox), and one delivery per event and endpoint, sent by a
-- `webhooks:deliver` job enqueued in that same transaction.

-- The signing secret is sealed (AES-256-GCM under a key derived from JWT_SECRET): the server must
-- sign with it, so it cannot be hashed, but it must not sit readable in the database either.
-- failing_since: the first failed attempt since the last success; 24 h of failures deactivate.
CREATE TABLE "webhook_endpoints" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "url" TEXT NOT NULL,
  "events" TEXT[],
  "description" TEXT NOT NULL DEFAULT '',
  "active" BOOLEAN NOT NULL DEFAULT true,
  "secret_sealed" TEXT NOT NULL,
  "created_by_id" UUID,
  "failing_since" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "webhook_endpoints_created_by_id_fkey" FOREIGN KEY ("created_by_id")
    REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- One row per event that had at least one subscribed endpoint. body is the exact JSON sent
-- ({type, timestamp, data}), so every retry carries the same bytes; its id is `webhook-id`.
CREATE TABLE "webhook_events" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "type" TEXT NOT NULL,
  "transaction_id" UUID,
  "body" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "webhook_events_created_at_idx" ON "webhook_events" ("created_at");

-- seq orders deliveries of one endpoint and transaction (created_at ties within a commit).
CREATE TABLE "webhook_deliveries" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "seq" BIGSERIAL NOT NULL,
  "endpoint_id" UUID NOT NULL,
  "event_id" UUID NOT NULL,
  "transaction_id" UUID,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "last_status_code" INTEGER,
  "last_error" TEXT,
  "next_attempt_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed')),
  CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id")
    REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id")
    REFERENCES "webhook_events" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- An endpoint's deliveries, newest first (the admin page).
CREATE INDEX "webhook_deliveries_endpoint_id_seq_idx" ON "webhook_deliveries" ("endpoint_id", "seq" DESC);
-- Ordering: is an earlier delivery of this endpoint and transaction still pending?
CREATE INDEX "webhook_deliveries_endpoint_id_transaction_id_seq_idx"
  ON "webhook_deliveries" ("endpoint_id", "transaction_id", "seq");
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries" ("event_id");
