-- Background work, e-mail notifications and key dates.
-- The job queue itself is graphile-worker's schema "graphile_worker", installed by its own
-- migrations right after these (server/db/migrate.ts).

-- What a notification is about, so preferences can route it (in-app, e-mail or the digest).
-- Older rows stay null: they were never mailed and belong to no digest.
CREATE TYPE "notification_event" AS ENUM (
  'documentReviewed', 'comment', 'documentUploaded', 'transactionCreated', 'registration', 'keyDate'
);
ALTER TABLE "notifications" ADD COLUMN "event" "notification_event";

-- Preferences live on the user row, which always exists: no row to create lazily, no join.
-- timezone stays null until the browser (or the user) sets one; America/New_York applies.
-- notification_deliveries holds only the events the user changed from their default.
-- digest_through: the digest mailed last covered notifications up to this instant.
ALTER TABLE "users"
  ADD COLUMN "timezone" TEXT,
  ADD COLUMN "reminder_days" INTEGER[] DEFAULT ARRAY[3, 1]::INTEGER[],
  ADD COLUMN "notification_deliveries" JSONB NOT NULL DEFAULT '{}',
  ADD COLUMN "digest_through" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  ADD COLUMN "calendar_feed_hash" TEXT;
CREATE UNIQUE INDEX "users_calendar_feed_hash_key" ON "users" ("calendar_feed_hash");

-- Nullable, as Prisma declares every list; written only through Prisma, never null.
ALTER TABLE "transaction_templates" ADD COLUMN "key_date_kinds" TEXT[] DEFAULT ARRAY[]::TEXT[];

CREATE TABLE "key_dates" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "transaction_id" UUID NOT NULL,
  "kind" TEXT NOT NULL,
  "label" TEXT NOT NULL,
  "date" DATE NOT NULL,
  "done" BOOLEAN NOT NULL DEFAULT false,
  "position" INTEGER NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "key_dates_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "key_dates_kind_check" CHECK ("kind" IN ('contract-acceptance', 'inspection', 'appraisal',
    'financing', 'closing', 'listing-expiration', 'possession', 'custom')),
  CONSTRAINT "key_dates_transaction_id_fkey" FOREIGN KEY ("transaction_id")
    REFERENCES "transactions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- A transaction's dates in order, its closing date and its next deadline.
CREATE INDEX "key_dates_transaction_id_date_idx" ON "key_dates" ("transaction_id", "date");
-- The calendar of every agent (an admin's view) over a range of days.
CREATE INDEX "key_dates_date_idx" ON "key_dates" ("date");

-- One row per reminder to send: each of the agent's reminder days before a date, the day
-- itself (days_before 0) and the day after (-1, overdue). The unique key is what makes a
-- reminder go out once per date and day, whichever instance sweeps it, however often a date is
-- edited back and forth. due_at is 08:00 on that day in the agent's timezone.
CREATE TABLE "reminders" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "key_date_id" UUID NOT NULL,
  "for_date" DATE NOT NULL,
  "days_before" INTEGER NOT NULL,
  "due_at" TIMESTAMPTZ(3) NOT NULL,
  "sent_at" TIMESTAMPTZ(3),
  CONSTRAINT "reminders_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "reminders_key_date_id_fkey" FOREIGN KEY ("key_date_id")
    REFERENCES "key_dates" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "reminders_key_date_id_for_date_days_before_key"
  ON "reminders" ("key_date_id", "for_date", "days_before");
-- The sweep reads only what is still to send, oldest first.
CREATE INDEX "reminders_due_idx" ON "reminders" ("due_at") WHERE "sent_at" IS NULL;

-- Every mail, written in the transaction of the change that causes it and sent by a job. The
-- message is sealed (AES-256-GCM under a key derived from JWT_SECRET): it may carry a
-- verification or reset link, which must not sit readable in the database.
CREATE TABLE "mail_outbox" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "user_id" UUID,
  "kind" TEXT NOT NULL,
  "sealed" TEXT NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'queued',
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "last_error" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "sent_at" TIMESTAMPTZ(3),
  CONSTRAINT "mail_outbox_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "mail_outbox_status_check" CHECK ("status" IN ('queued', 'sent', 'failed')),
  CONSTRAINT "mail_outbox_user_id_fkey" FOREIGN KEY ("user_id")
    REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "mail_outbox_created_at_idx" ON "mail_outbox" ("created_at");

-- The job workers of the running instances and their last sign of life. graphile-worker keeps
-- a job locked for four hours when its worker dies; the instances use these rows to unlock the
-- jobs of a worker that stopped beating (a SIGKILLed or crashed process) within a minute.
CREATE TABLE "job_workers" (
  "worker_id" TEXT NOT NULL,
  "heartbeat_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "job_workers_pkey" PRIMARY KEY ("worker_id")
);
