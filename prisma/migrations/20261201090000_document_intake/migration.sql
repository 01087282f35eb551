-- Document intake: what the pre-checks found in a file is kept with
-- it, so the reviewer sees the same warnings the agent saw at upload. A stored file has them from
-- its upload; a version copies them when it is attached (as it copies size and sha256); the item
-- keeps its current version's, as it keeps its file_key. Constant defaults: no table rewrite.

ALTER TABLE "stored_files"
  ADD COLUMN "pages" INTEGER,
  ADD COLUMN "warnings" JSONB NOT NULL DEFAULT '[]';

ALTER TABLE "form_versions"
  ADD COLUMN "pages" INTEGER,
  ADD COLUMN "warnings" JSONB NOT NULL DEFAULT '[]';

ALTER TABLE "transaction_forms"
  ADD COLUMN "file_pages" INTEGER,
  ADD COLUMN "file_warnings" JSONB NOT NULL DEFAULT '[]';
