import { csvCell } from '../../../shared/csv';
import type { ArchivedAuditEvent } from '../../archive/canonical-json';
import type { Db } from '../../db/client';
import { Prisma } from '../../db/generated/client';
import { AUDIT_EVENT_COLUMNS, type AuditEventRow } from '../audit-chain';

/**
 * The transaction's audit events, oldest first, as audit.json (every field of the chain's
 * canonical JSON, with seq, prevHash and hash, so each hash can be recomputed) and audit.csv.
 */

export async function archivedAuditEvents(db: Db, transactionId: string): Promise<ArchivedAuditEvent[]> {
  const rows = await db.$queryRaw<AuditEventRow[]>(
    Prisma.sql`SELECT ${AUDIT_EVENT_COLUMNS} FROM audit_events
                WHERE transaction_id = ${transactionId}::uuid ORDER BY seq`,
  );
  return rows.map((row) => ({
    seq: Number(row.seq),
    prevHash: row.prev_hash,
    hash: row.hash,
    id: row.id,
    action: row.action,
    entity: row.entity,
    entityId: row.entity_id,
    actorId: row.actor_id,
    apiKeyId: row.api_key_id,
    onBehalfOf: row.on_behalf_of,
    transactionId: row.transaction_id,
    createdAt: row.created_at.toISOString(),
    before: row.before === null ? null : JSON.parse(row.before),
    after: row.after === null ? null : JSON.parse(row.after),
  }));
}

export function auditJson(events: readonly ArchivedAuditEvent[]): Buffer {
  return Buffer.from(`${JSON.stringify(events, null, 2)}\n`, 'utf8');
}

const CSV_COLUMNS = [
  'seq',
  'createdAt',
  'action',
  'entity',
  'entityId',
  'actorId',
  'onBehalfOf',
  'apiKeyId',
  'before',
  'after',
  'prevHash',
  'hash',
] as const;

/** RFC 4180 with CRLF and the exports' injection rule (a formula-like cell prefixed with '). */
export function auditCsv(events: readonly ArchivedAuditEvent[]): Buffer {
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  const lines = [CSV_COLUMNS.join(',')];
  for (const e of events) {
    lines.push(
      [
        e.seq,
        e.createdAt,
        e.action,
        e.entity,
        e.entityId,
        e.actorId,
        e.onBehalfOf,
        e.apiKeyId,
        json(e.before),
        json(e.after),
        e.prevHash,
        e.hash,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}
