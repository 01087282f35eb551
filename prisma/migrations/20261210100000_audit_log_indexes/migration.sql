-- The admins' audit log (GET /api/admin/audit and its CSV) reads events newest first, by
-- (created_at, seq), filtered by a column or a few and a range of time. Each filter gets an index
-- that leads with it and ends in (created_at, seq), so a page, with or without a range and at any
-- depth, is one short backward range scan of one index. Ordered by seq alone, a range ending
-- months ago walked every newer event of the seq index first (1.8 s over a million events): the
-- planner cannot know that created_at grows with seq.
CREATE INDEX "audit_events_created_at_seq_idx" ON "audit_events" ("created_at", "seq");
CREATE INDEX "audit_events_actor_id_created_at_idx" ON "audit_events" ("actor_id", "created_at", "seq");
CREATE INDEX "audit_events_action_created_at_idx" ON "audit_events" ("action", "created_at", "seq");
CREATE INDEX "audit_events_entity_created_at_idx" ON "audit_events" ("entity", "created_at", "seq");
CREATE INDEX "audit_events_entity_id_created_at_idx" ON "audit_events" ("entity_id", "created_at", "seq");
