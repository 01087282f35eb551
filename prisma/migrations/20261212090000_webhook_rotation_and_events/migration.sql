-- Rotating a webhook's secret keeps the secret it replaced for 24 hours: deliveries are signed
-- with both meanwhile, so a receiver can switch to the new one without refusing any delivery.
-- Sealed like the current secret (AES-256-GCM); expires_at says until when it still signs.
ALTER TABLE "webhook_endpoints"
    ADD COLUMN "previous_secret_sealed" TEXT,
    ADD COLUMN "previous_secret_expires_at" TIMESTAMPTZ(3);

-- The events list (GET /api/admin/events) pages by keyset on (created_at, id), oldest first, on
-- every event or on one type. Each key serves one of the two; the first also serves the daily
-- prune's created_at range, which the index on created_at alone served until now.
DROP INDEX "webhook_events_created_at_idx";
CREATE INDEX "webhook_events_created_at_id_idx" ON "webhook_events"("created_at", "id");
CREATE INDEX "webhook_events_type_created_at_id_idx" ON "webhook_events"("type", "created_at", "id");
