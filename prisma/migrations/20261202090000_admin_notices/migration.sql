-- Notices to every active admin, stored once (fan-out on read). A comment on an agent's
-- document told every active admin through a notifications row each: with 10,000 admins its
-- transaction wrote 10,000 rows before its live event could leave, about 160 ms. Now it writes
-- one admin_notices row, and each admin reads it through the notification_feed view below, with
-- a read mark of their own. Rows written before this migration stay where they are.

CREATE TABLE "admin_notices" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "message" TEXT NOT NULL,
  "link" TEXT NOT NULL,
  "transaction_id" UUID,
  "event" "notification_event",
  "except_user_id" UUID,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "admin_notices_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "admin_notices_transaction_id_fkey" FOREIGN KEY ("transaction_id")
    REFERENCES "transactions" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
-- except_user_id included: a count of an admin's notices is read from the index alone.
CREATE INDEX "admin_notices_created_at_idx" ON "admin_notices" ("created_at" DESC, "id" DESC)
  INCLUDE ("except_user_id");

-- Marking all read moves this watermark: every notice of the user's terms made before it is read,
-- one row written however many notices (services/notifications.ts markAllRead). Notices after it
-- are read when they have a read mark.
ALTER TABLE "users" ADD COLUMN "notices_read_before" TIMESTAMPTZ(3);

CREATE TABLE "admin_notice_reads" (
  "user_id" UUID NOT NULL,
  "notice_id" UUID NOT NULL,
  "read_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "admin_notice_reads_pkey" PRIMARY KEY ("user_id", "notice_id"),
  CONSTRAINT "admin_notice_reads_user_id_fkey" FOREIGN KEY ("user_id")
    REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "admin_notice_reads_notice_id_fkey" FOREIGN KEY ("notice_id")
    REFERENCES "admin_notices" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Who is an admin when: the audience of a notice is the accounts that were active admins when it
-- was made, as the audience of the old rows was the admins the writing statement found. Kept by
-- the trigger below on every write of users, whatever writes it (the application, a seed, a
-- test), with the database's statement clock, the clock admin_notices.created_at is taken from.
CREATE TABLE "admin_terms" (
  "user_id" UUID NOT NULL,
  "started_at" TIMESTAMPTZ(3) NOT NULL,
  "ended_at" TIMESTAMPTZ(3),
  CONSTRAINT "admin_terms_pkey" PRIMARY KEY ("user_id", "started_at"),
  CONSTRAINT "admin_terms_user_id_fkey" FOREIGN KEY ("user_id")
    REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE FUNCTION "track_admin_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_admin boolean := TG_OP = 'UPDATE' AND OLD.role = 'admin' AND OLD.is_admin_approved;
  is_admin boolean := NEW.role = 'admin' AND NEW.is_admin_approved;
BEGIN
  IF is_admin = was_admin THEN
    RETURN NULL;
  END IF;
  IF is_admin THEN
    -- Ended and begun again within the same millisecond: the term simply goes on.
    INSERT INTO admin_terms (user_id, started_at) VALUES (NEW.id, statement_timestamp())
      ON CONFLICT (user_id, started_at) DO UPDATE SET ended_at = NULL;
  ELSE
    UPDATE admin_terms SET ended_at = statement_timestamp() WHERE user_id = NEW.id AND ended_at IS NULL;
  END IF;
  -- Every instance's bus hands the notices to the admins' live streams: a stream opened before
  -- the change hears of it (realtime/bus.ts, ADMINS_CHANNEL), at commit, like the notices.
  PERFORM pg_notify('portal_admins', NEW.id::text || CASE WHEN is_admin THEN ':admin' ELSE ':not-admin' END);
  RETURN NULL;
END $$;

CREATE TRIGGER "admin_terms_insert" AFTER INSERT ON "users"
  FOR EACH ROW EXECUTE FUNCTION "track_admin_terms"();
CREATE TRIGGER "admin_terms_update" AFTER UPDATE OF "role", "is_admin_approved" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "track_admin_terms"();

-- Today's active admins are admins from now on: every earlier notice of theirs is a row of its own.
INSERT INTO "admin_terms" ("user_id", "started_at")
  SELECT "id", statement_timestamp() FROM "users" WHERE "role" = 'admin' AND "is_admin_approved";

-- Every notification a user has, in the notifications table's columns: their own rows, and the
-- admin notices of their terms but those of their own actions, read (read_at) before their
-- watermark or when marked. For the digest's day of one user's events and for the tests: the
-- list, its counts and the live stream's catch-up have statements of their own
-- (services/notifications.ts) that read an index range per term and stop at the page's end,
-- where this view, sorted, joins every notice of the user's terms first.
CREATE VIEW "notification_feed" AS
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
   WHERE a.except_user_id IS DISTINCT FROM t.user_id;
