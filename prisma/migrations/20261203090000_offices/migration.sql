-- Offices, their admins and transaction coordinators. A transaction belongs to the office of its
-- agent; offices.* and users.office_id say which, and transactions.office_id keeps a copy of its
-- agent's office so an office's lists are read from an index of their own (triggers below keep
-- the copy, whichever statement moves an agent or a transaction). Existing users have no office
-- and existing admins stay brokerage-wide, so every answer stays the same until an office exists.

CREATE TABLE "offices" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "name" CITEXT NOT NULL,
  "review_target_hours" INTEGER NOT NULL DEFAULT 24,
  "retention_years" INTEGER NOT NULL DEFAULT 7,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "offices_pkey" PRIMARY KEY ("id")
);
-- citext: "North" and "north" are the same office.
CREATE UNIQUE INDEX "offices_name_key" ON "offices" ("name");

ALTER TABLE "users" ADD COLUMN "office_id" UUID;
ALTER TABLE "users" ADD CONSTRAINT "users_office_id_fkey" FOREIGN KEY ("office_id")
  REFERENCES "offices" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE INDEX "users_office_id_idx" ON "users" ("office_id");

-- The agents a coordinator works for.
CREATE TABLE "coordinations" (
  "coordinator_id" UUID NOT NULL,
  "agent_id" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "coordinations_pkey" PRIMARY KEY ("coordinator_id", "agent_id"),
  CONSTRAINT "coordinations_coordinator_id_fkey" FOREIGN KEY ("coordinator_id")
    REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "coordinations_agent_id_fkey" FOREIGN KEY ("agent_id")
    REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "coordinations_agent_id_idx" ON "coordinations" ("agent_id");

ALTER TABLE "transactions" ADD COLUMN "office_id" UUID;
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_office_id_fkey" FOREIGN KEY ("office_id")
  REFERENCES "offices" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;
-- An office's list and its count, from the index alone, as the brokerage-wide list is.
CREATE INDEX "transactions_office_id_created_at_idx"
  ON "transactions" ("office_id", "created_at" DESC, "id" DESC, "deleted_at");

-- A transaction's office is its agent's, on every insert and on any change of its agent (or of
-- the copy itself): no statement can set another.
CREATE FUNCTION "transactions_office_of_agent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.office_id := (SELECT office_id FROM users WHERE id = NEW.user_id);
  RETURN NEW;
END $$;
CREATE TRIGGER "transactions_office_of_agent"
  BEFORE INSERT OR UPDATE OF "user_id", "office_id" ON "transactions"
  FOR EACH ROW EXECUTE FUNCTION "transactions_office_of_agent"();

-- An agent who moves takes their transactions along.
CREATE FUNCTION "users_office_moves_transactions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE transactions SET office_id = NEW.office_id WHERE user_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER "users_office_moves_transactions"
  AFTER UPDATE OF "office_id" ON "users"
  FOR EACH ROW WHEN (OLD.office_id IS DISTINCT FROM NEW.office_id)
  EXECUTE FUNCTION "users_office_moves_transactions"();

-- An action a coordinator took for an agent: the actor is the coordinator, this the agent.
ALTER TABLE "audit_events" ADD COLUMN "on_behalf_of" UUID;
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_on_behalf_of_fkey" FOREIGN KEY ("on_behalf_of")
  REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
