-- Notices to the admins, held to offices. A notice about a transaction carries the office that
-- transaction had when the notice was made; an office admin (an admin with an office who is not
-- the owner) reads only the notices of the office it has now, the owner and admins without an
-- office read them all, and a notice of no office (a registration awaiting approval) is theirs
-- alone. server/services/reach.ts states the rule for the application's statements
-- (noticeReachesUserSql); the view and the trigger below are its spelling in the database.
-- Notices made before this migration have no office: brokerage-wide admins keep them.

ALTER TABLE "admin_notices" ADD COLUMN "office_id" UUID;
-- An office is deleted only once it has no users: its notices are then the brokerage's.
ALTER TABLE "admin_notices" ADD CONSTRAINT "admin_notices_office_id_fkey" FOREIGN KEY ("office_id")
  REFERENCES "offices" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
-- An office admin's list and counts read an index range of its office per admin term, as a
-- brokerage-wide admin's read one of admin_notices_created_at_idx; except_user_id included so a
-- count is read from the index alone.
CREATE INDEX "admin_notices_office_id_created_at_idx"
  ON "admin_notices" ("office_id", "created_at" DESC, "id" DESC) INCLUDE ("except_user_id");

-- The admins' live streams follow the office too. Every instance's bus learns which of its
-- subscribed users hear notices, and of which office, from this status: `admin` (every office),
-- `admin:<office>` (one office) or `not-admin`. The trigger below sends `<id>:<status>` when an
-- account becomes or stops being an active admin and whenever an active admin's office or
-- ownership changes, at commit; a bus that lost its connection reads it again for its
-- subscribers (realtime/bus.ts).
CREATE FUNCTION "admin_notices_heard"(u users) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN NOT (u.role = 'admin' AND u.is_admin_approved) THEN 'not-admin'
              WHEN u.is_owner OR u.office_id IS NULL THEN 'admin'
              ELSE 'admin:' || u.office_id::text END
$$;

CREATE OR REPLACE FUNCTION "track_admin_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_admin boolean := TG_OP = 'UPDATE' AND OLD.role = 'admin' AND OLD.is_admin_approved;
  is_admin boolean := NEW.role = 'admin' AND NEW.is_admin_approved;
BEGIN
  IF is_admin = was_admin THEN
    IF is_admin AND (OLD.office_id IS DISTINCT FROM NEW.office_id OR OLD.is_owner IS DISTINCT FROM NEW.is_owner) THEN
      PERFORM pg_notify('portal_admins', NEW.id::text || ':' || admin_notices_heard(NEW));
    END IF;
    RETURN NULL;
  END IF;
  IF is_admin THEN
    -- Ended and begun again within the same millisecond: the term simply goes on.
    INSERT INTO admin_terms (user_id, started_at) VALUES (NEW.id, statement_timestamp())
      ON CONFLICT (user_id, started_at) DO UPDATE SET ended_at = NULL;
  ELSE
    UPDATE admin_terms SET ended_at = statement_timestamp() WHERE user_id = NEW.id AND ended_at IS NULL;
  END IF;
  PERFORM pg_notify('portal_admins', NEW.id::text || ':' || admin_notices_heard(NEW));
  RETURN NULL;
END $$;

DROP TRIGGER "admin_terms_update" ON "users";
CREATE TRIGGER "admin_terms_update" AFTER UPDATE OF "role", "is_admin_approved", "office_id", "is_owner" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "track_admin_terms"();

-- The admin notices of a user's terms are those of its office now, unless it reads every office.
CREATE OR REPLACE VIEW "notification_feed" AS
  SELECT n.id, n.user_id, n.message, n.link, n.transaction_id, n.event, n.read_at, n.created_at
    FROM notifications n
  UNION ALL
  SELECT a.id, t.user_id, a.message, a.link, a.transaction_id, a.event,
         CASE WHEN a.created_at < u.notices_read_before THEN u.notices_read_before ELSE r.read_at END,
         a.created_at
    FROM admin_terms t
    JOIN users u ON u.id = t.user_id
    JOIN admin_notices a ON a.created_at >= t.started_at AND a.created_at < coalesce(t.ended_at, 'infinity')
    LEFT JOIN admin_notice_reads r ON r.user_id = t.user_id AND r.notice_id = a.id
   WHERE a.except_user_id IS DISTINCT FROM t.user_id
     AND (u.is_owner OR u.office_id IS NULL OR a.office_id = u.office_id);
