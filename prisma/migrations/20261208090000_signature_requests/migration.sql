-- Electronic signatures: a checklist item's current PDF sent to signers, each reached by a link
-- whose token is the only credential (only its sha256 is kept). The request names the exact
-- version it was sent with, so a later upload never changes what is being signed.

-- Where a version came from: an upload, or a completed signature request.
ALTER TABLE "form_versions" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'upload';
ALTER TABLE "form_versions" ADD CONSTRAINT "form_versions_source_check" CHECK ("source" IN ('upload', 'esign'));

CREATE TABLE "signature_requests" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "transaction_id" UUID NOT NULL,
  "form_id" UUID NOT NULL,
  "version_id" UUID NOT NULL,
  "subject" TEXT NOT NULL,
  "message" TEXT,
  "ordered" BOOLEAN NOT NULL DEFAULT false,
  "status" TEXT NOT NULL DEFAULT 'sent',
  -- Hex SHA-256 of the PDF as sent, before anything was drawn on it.
  "document_sha256" TEXT NOT NULL,
  "created_by" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "completed_at" TIMESTAMPTZ(3),
  "voided_at" TIMESTAMPTZ(3),
  "void_reason" TEXT,
  "declined_at" TIMESTAMPTZ(3),
  "decline_reason" TEXT,
  CONSTRAINT "signature_requests_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "signature_requests_status_check" CHECK ("status" IN ('sent', 'completed', 'declined', 'voided')),
  CONSTRAINT "signature_requests_completed_check" CHECK (("status" = 'completed') = ("completed_at" IS NOT NULL)),
  CONSTRAINT "signature_requests_voided_check" CHECK (("status" = 'voided') = ("voided_at" IS NOT NULL)),
  CONSTRAINT "signature_requests_declined_check" CHECK (("status" = 'declined') = ("declined_at" IS NOT NULL)),
  CONSTRAINT "signature_requests_sha256_check" CHECK ("document_sha256" ~ '^[0-9a-f]{64}$')
);

CREATE TABLE "signature_signers" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "request_id" UUID NOT NULL,
  -- 0-based, in the order given: an ordered request mails them in this order.
  "position" INTEGER NOT NULL,
  "name" TEXT NOT NULL,
  "email" TEXT NOT NULL,
  "token_hash" TEXT NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'pending',
  -- When the signer was last mailed the link (null: not yet, as in an ordered request).
  "mailed_at" TIMESTAMPTZ(3),
  "viewed_at" TIMESTAMPTZ(3),
  "signed_at" TIMESTAMPTZ(3),
  "declined_at" TIMESTAMPTZ(3),
  -- As the server saw the signer when it first viewed, then when it signed.
  "ip" TEXT,
  "user_agent" TEXT,
  "reminders_sent" INTEGER NOT NULL DEFAULT 0,
  "last_reminded_at" TIMESTAMPTZ(3),
  CONSTRAINT "signature_signers_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "signature_signers_status_check" CHECK ("status" IN ('pending', 'viewed', 'signed', 'declined')),
  CONSTRAINT "signature_signers_position_check" CHECK ("position" >= 0),
  CONSTRAINT "signature_signers_signed_check" CHECK (("status" = 'signed') = ("signed_at" IS NOT NULL)),
  CONSTRAINT "signature_signers_reminders_check" CHECK ("reminders_sent" >= 0),
  CONSTRAINT "signature_signers_token_hash_check" CHECK ("token_hash" ~ '^[0-9a-f]{64}$')
);

CREATE TABLE "signature_fields" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "request_id" UUID NOT NULL,
  "signer_position" INTEGER NOT NULL,
  "page" INTEGER NOT NULL,
  "kind" TEXT NOT NULL,
  -- PDF points from the page's top-left corner.
  "x" DOUBLE PRECISION NOT NULL,
  "y" DOUBLE PRECISION NOT NULL,
  "width" DOUBLE PRECISION NOT NULL,
  "height" DOUBLE PRECISION NOT NULL,
  "value" TEXT,
  CONSTRAINT "signature_fields_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "signature_fields_kind_check" CHECK ("kind" IN ('signature', 'initials', 'date', 'text')),
  CONSTRAINT "signature_fields_geometry_check" CHECK (
    "page" >= 1 AND "signer_position" >= 0 AND "x" >= 0 AND "y" >= 0 AND "width" > 0 AND "height" > 0)
);

ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_transaction_id_fkey" FOREIGN KEY ("transaction_id")
  REFERENCES "transactions" ("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_form_id_fkey" FOREIGN KEY ("form_id")
  REFERENCES "transaction_forms" ("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_version_id_fkey" FOREIGN KEY ("version_id")
  REFERENCES "form_versions" ("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_created_by_fkey" FOREIGN KEY ("created_by")
  REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "signature_signers" ADD CONSTRAINT "signature_signers_request_id_fkey" FOREIGN KEY ("request_id")
  REFERENCES "signature_requests" ("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "signature_fields" ADD CONSTRAINT "signature_fields_request_id_fkey" FOREIGN KEY ("request_id")
  REFERENCES "signature_requests" ("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A transaction's requests, newest first.
CREATE INDEX "signature_requests_transaction_id_created_at_idx" ON "signature_requests" ("transaction_id", "created_at" DESC);
CREATE UNIQUE INDEX "signature_signers_token_hash_key" ON "signature_signers" ("token_hash");
CREATE UNIQUE INDEX "signature_signers_request_id_position_key" ON "signature_signers" ("request_id", "position");
CREATE INDEX "signature_fields_request_id_idx" ON "signature_fields" ("request_id", "signer_position");
