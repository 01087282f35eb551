-- The audit trail becomes tamper-evident and append-only.
--
-- Every event carries seq (its place in the one chain of the installation), prev_hash (the hash
-- of the event before it; 64 zeros for the first) and hash = sha256(prev_hash || canonical JSON
-- of the event), hex. The canonical JSON is audit_event_canonical() below, and docs/API.md
-- spells it out so that anyone holding the rows can recompute it. The database keeps the chain,
-- not the application: every insert, whatever path made it, goes through the BEFORE INSERT
-- trigger, which takes the chain's head row FOR UPDATE. Two transactions writing events at
-- once therefore take turns (the second waits for the first to commit or roll back) and can
-- never give two events the same predecessor; a rolled-back insert leaves the head unchanged.
--
-- The defaults of seq and hash are placeholders the trigger always replaces; the checks make an
-- insert that escaped the trigger fail instead of storing an unchained row.

ALTER TABLE "audit_events"
  ADD COLUMN "seq" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "prev_hash" TEXT NOT NULL DEFAULT '',
  ADD COLUMN "hash" TEXT NOT NULL DEFAULT '';

-- The head of the chain: one row, the last event's seq and hash.
CREATE TABLE "audit_chain_head" (
  "id" BOOLEAN NOT NULL DEFAULT true,
  "seq" BIGINT NOT NULL,
  "hash" TEXT NOT NULL,
  CONSTRAINT "audit_chain_head_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "audit_chain_head_one_row_check" CHECK ("id")
);

-- The exact text hashed for an event: jsonb's own text form of this object, whose keys
-- PostgreSQL writes shortest first, then in byte order, with ", " and ": " between.
CREATE FUNCTION "audit_event_canonical"(e "audit_events") RETURNS TEXT
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', e.id,
    'seq', e.seq,
    'actorId', e.actor_id,
    'apiKeyId', e.api_key_id,
    'onBehalfOf', e.on_behalf_of,
    'action', e.action,
    'entity', e.entity,
    'entityId', e.entity_id,
    'transactionId', e.transaction_id,
    'before', e.before,
    'after', e.after,
    'createdAt', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )::text
$$;

CREATE FUNCTION "audit_event_hash"(prev_hash TEXT, e "audit_events") RETURNS TEXT
LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(prev_hash || audit_event_canonical(e), 'UTF8')), 'hex')
$$;

-- Existing events join the chain in the order they were written (id breaks ties of one
-- millisecond, as a reader of the old rows would).
UPDATE "audit_events" e SET "seq" = o.seq
  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS seq FROM "audit_events") o
  WHERE e.id = o.id;

DO $$
DECLARE
  previous TEXT := repeat('0', 64);
  event "audit_events";
BEGIN
  FOR event IN SELECT * FROM "audit_events" ORDER BY seq LOOP
    event.prev_hash := previous;
    previous := audit_event_hash(previous, event);
    UPDATE "audit_events" SET "prev_hash" = event.prev_hash, "hash" = previous WHERE id = event.id;
  END LOOP;
  INSERT INTO "audit_chain_head" ("id", "seq", "hash")
    VALUES (true, (SELECT count(*) FROM "audit_events"), previous);
END
$$;

ALTER TABLE "audit_events"
  ADD CONSTRAINT "audit_events_seq_check" CHECK ("seq" > 0),
  ADD CONSTRAINT "audit_events_hash_check" CHECK ("hash" ~ '^[0-9a-f]{64}$' AND "prev_hash" ~ '^[0-9a-f]{64}$');
CREATE UNIQUE INDEX "audit_events_seq_key" ON "audit_events" ("seq");

CREATE FUNCTION "audit_events_chain"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  head "audit_chain_head";
BEGIN
  SELECT * INTO STRICT head FROM "audit_chain_head" WHERE id FOR UPDATE;
  NEW.seq := head.seq + 1;
  NEW.prev_hash := head.hash;
  NEW.hash := audit_event_hash(head.hash, NEW);
  UPDATE "audit_chain_head" SET seq = NEW.seq, hash = NEW.hash WHERE id;
  RETURN NEW;
END
$$;

CREATE TRIGGER "audit_events_chain" BEFORE INSERT ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_chain"();

-- Append-only, for every role: an event is never changed nor removed. Only the table's owner
-- can get past this, by disabling the trigger (ALTER TABLE ... DISABLE TRIGGER), and what it
-- changes then breaks the chain, which GET /api/admin/audit/verify reports.
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();

-- The head moves only with the chain (the chain trigger updates it; nested, so at depth 2).
CREATE FUNCTION "audit_chain_head_guard"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_chain_head moves only with the audit chain: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER "audit_chain_head_guard" BEFORE INSERT OR UPDATE OR DELETE ON "audit_chain_head"
  FOR EACH ROW EXECUTE FUNCTION "audit_chain_head_guard"();
CREATE TRIGGER "audit_chain_head_no_truncate" BEFORE TRUNCATE ON "audit_chain_head"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_chain_head_guard"();

-- The people and API keys an event names stay: a cascade from their deletion (SET NULL, or an
-- id change) would rewrite history, and the application never deletes either (users are
-- deactivated, keys revoked). Deleting one that events name is refused.
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_actor_id_fkey",
  ADD CONSTRAINT "audit_events_actor_id_fkey" FOREIGN KEY ("actor_id")
    REFERENCES "users" ("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_on_behalf_of_fkey",
  ADD CONSTRAINT "audit_events_on_behalf_of_fkey" FOREIGN KEY ("on_behalf_of")
    REFERENCES "users" ("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_api_key_id_fkey",
  ADD CONSTRAINT "audit_events_api_key_id_fkey" FOREIGN KEY ("api_key_id")
    REFERENCES "api_keys" ("id") ON DELETE NO ACTION ON UPDATE NO ACTION;
