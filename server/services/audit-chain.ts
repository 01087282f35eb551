import { createHash } from 'node:crypto';
import type { AuditChainAnswer } from '../../shared/schemas/audit';
import { Prisma } from '../db/generated/client';
import { withinTransaction } from '../db/sql';
import type { CallerContext, ServiceContext } from './context';
import { assertBrokerageWide } from './reach';

/**
 * The audit trail's hash chain, checked. The database writes it (migration 20261209090000: each
 * insert takes the chain's head row, so events form one line however many write at once); this
 * recomputes every hash here, from the stored columns, so a row changed behind the database's
 * back (its append-only trigger disabled by the table's owner, a restored dump edited) shows.
 */

/** The hash the first event follows. */
export const GENESIS_HASH = '0'.repeat(64);

/** Events read per statement: big enough that round trips do not dominate, small in memory. */
const BATCH = 5_000;
/** Each statement of the walk, not the walk: a million events take many statements. */
const STATEMENT_TIMEOUT_MS = 60_000;

/** An audit event as read for its hash: every field of its canonical JSON, jsonb as text. */
export type AuditEventRow = {
  id: string;
  seq: string;
  prev_hash: string;
  hash: string;
  actor_id: string | null;
  api_key_id: string | null;
  on_behalf_of: string | null;
  action: string;
  entity: string;
  entity_id: string;
  transaction_id: string | null;
  /** jsonb's own text, as PostgreSQL prints it: already in canonical form. */
  before: string | null;
  after: string | null;
  created_at: Date;
};

const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));

/**
 * An event's canonical JSON (docs/API.md): the text PostgreSQL's jsonb gives this object, keys
 * shortest first then in byte order, ", " and ": " between, before and after embedded as jsonb
 * prints them. audit_event_canonical() in the database makes the same text.
 */
export function canonicalEvent(row: AuditEventRow): string {
  return (
    `{"id": ${text(row.id)}, "seq": ${row.seq}, "after": ${row.after ?? 'null'}, ` +
    `"action": ${text(row.action)}, "before": ${row.before ?? 'null'}, "entity": ${text(row.entity)}, ` +
    `"actorId": ${text(row.actor_id)}, "apiKeyId": ${text(row.api_key_id)}, ` +
    `"entityId": ${text(row.entity_id)}, "createdAt": ${text(row.created_at.toISOString())}, ` +
    `"onBehalfOf": ${text(row.on_behalf_of)}, "transactionId": ${text(row.transaction_id)}}`
  );
}

export function eventHash(prevHash: string, canonical: string): string {
  return createHash('sha256').update(prevHash).update(canonical).digest('hex');
}

/** The columns of an AuditEventRow. */
export const AUDIT_EVENT_COLUMNS = Prisma.sql`id, seq::text AS seq, prev_hash, hash, actor_id, api_key_id, on_behalf_of, action,
  entity, entity_id, transaction_id, before::text AS before, after::text AS after, created_at`;

/**
 * Walks the whole chain in seq order, in one read-only snapshot: valid when every event names
 * the hash of the one before it, its own hash is what its content gives, and the head (the last
 * seq and hash the database handed out) is the last event's. firstBrokenId is the first event
 * where this fails; null when the chain is valid, or when only its end is missing.
 */
export async function verifyChain(ctx: Pick<ServiceContext, 'db'>): Promise<AuditChainAnswer> {
  return withinTransaction(ctx.db, { timeoutMs: STATEMENT_TIMEOUT_MS, snapshot: true }, async (query) => {
    let previous = GENESIS_HASH;
    let lastSeq = '0';
    let events = 0;
    for (;;) {
      const rows = await query<AuditEventRow>(
        Prisma.sql`SELECT ${AUDIT_EVENT_COLUMNS} FROM audit_events WHERE audit_events.seq > ${lastSeq}::bigint ORDER BY audit_events.seq LIMIT ${BATCH}`,
      );
      for (const row of rows) {
        events++;
        if (row.prev_hash !== previous || row.hash !== eventHash(previous, canonicalEvent(row))) {
          return { valid: false, events: await countEvents(query), firstBrokenId: row.id };
        }
        previous = row.hash;
        lastSeq = row.seq;
      }
      if (rows.length < BATCH) break;
    }
    const [head] = await query<{ seq: string; hash: string }>(
      Prisma.sql`SELECT seq::text AS seq, hash FROM audit_chain_head`,
    );
    // Events cut off the end leave every remaining link intact: only the head tells.
    const endIntact = head !== undefined && head.seq === lastSeq && head.hash === previous;
    return { valid: endIntact, events, firstBrokenId: null };
  });
}

async function countEvents(query: Parameters<Parameters<typeof withinTransaction>[2]>[0]): Promise<number> {
  const [row] = await query<{ count: number }>(Prisma.sql`SELECT count(*)::int AS count FROM audit_events`);
  return row?.count ?? 0;
}

/** GET /api/admin/audit/verify: the whole brokerage's trail, so brokerage-wide admins only. */
export function verifyForAdmin(ctx: CallerContext): Promise<AuditChainAnswer> {
  assertBrokerageWide(ctx.user);
  return verifyChain(ctx);
}
