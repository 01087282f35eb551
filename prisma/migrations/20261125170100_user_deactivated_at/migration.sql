-- When an approved account was deactivated: is_admin_approved alone cannot tell a
-- registration awaiting approval from an account that was deactivated.
-- AlterTable
ALTER TABLE "users" ADD COLUMN "deactivated_at" TIMESTAMPTZ(3);

-- Accounts deactivated before this column existed: the audit trail knows. An account whose last
-- activation change was a deactivation (recorded only for an account that was active), and that
-- is still not approved, was deactivated at that moment.
UPDATE "users" AS u
SET "deactivated_at" = last_change."created_at"
FROM (
  SELECT DISTINCT ON ("entity_id") "entity_id", "action", "created_at"
  FROM "audit_events"
  WHERE "entity" = 'User' AND "action" IN ('user.activate', 'user.deactivate')
  ORDER BY "entity_id", "created_at" DESC, "id" DESC
) AS last_change
WHERE last_change."entity_id" = u."id"
  AND last_change."action" = 'user.deactivate'
  AND NOT u."is_admin_approved";
