-- Searching transactions. One GIN index serves both searches: its first column lets an
-- agent's search look up only their own transactions, and its trigrams of the four address
-- fields (joined by a separator no term of the search box spans) find the matching ones among
-- them, or among everyone's for an admin. It replaces one trigram index per field, which an
-- agent's search had to combine with every match in the table before keeping their own.
-- btree_gin gives GIN its equality operator class for uuid.
CREATE EXTENSION IF NOT EXISTS "btree_gin";

-- CreateIndex (an expression index: not expressible in schema.prisma, listed in server/db/drift.ts)
CREATE INDEX "transactions_search_idx" ON "transactions" USING GIN ("user_id", ("street_address" || E'\x1f' || "city" || E'\x1f' || "state" || E'\x1f' || "zip") gin_trgm_ops);

-- DropIndex
DROP INDEX "transactions_street_address_trgm_idx";

-- DropIndex
DROP INDEX "transactions_city_trgm_idx";

-- DropIndex
DROP INDEX "transactions_state_trgm_idx";

-- DropIndex
DROP INDEX "transactions_zip_trgm_idx";
