import type { AuditExportInput } from '../../shared/schemas/audit';
import { Prisma } from '../db/generated/client';
import { auditFilterSql } from './audit-log';
import { type Column, headerOf, iso, linesSql } from './export-sql';

/**
 * The audit log as CSV (GET /api/admin/audit.csv): every event the list's filters match, newest
 * first, as the list orders them (by created_at, then seq). before and after are their JSON text; the actor's e-mail, the
 * action and the entity are text someone could have shaped, so they are defused like typed text.
 */
const AUDIT_COLUMN_SQL: readonly Column[] = [
  ['seq', 'e.seq', 'safe'],
  ['created_at', iso('e.created_at'), 'safe'],
  ['actor_email', 'u.email::text', 'text'],
  ['action', 'e.action', 'text'],
  ['entity', 'e.entity', 'text'],
  ['entity_id', 'e.entity_id', 'safe'],
  ['transaction_id', 'e.transaction_id', 'safe'],
  ['api_key_id', 'e.api_key_id', 'safe'],
  ['on_behalf_of', 'e.on_behalf_of', 'safe'],
  ['hash', 'e.hash', 'safe'],
  ['prev_hash', 'e.prev_hash', 'safe'],
  // JSON text starts with { [ " a digit, t, f or n, and holds anything typed inside: defused too.
  ['before', 'e.before::text', 'text'],
  ['after', 'e.after::text', 'text'],
];
export const AUDIT_COLUMNS = headerOf(AUDIT_COLUMN_SQL);

/** The rows of GET /api/admin/audit with these filters, all of them. Exported for the benchmark. */
export function auditExportSql(input: AuditExportInput): Prisma.Sql {
  return linesSql(
    AUDIT_COLUMN_SQL,
    Prisma.sql`FROM audit_events e LEFT JOIN users u ON u.id = e.actor_id
     WHERE ${auditFilterSql(input)}
     ORDER BY e.created_at DESC, e.seq DESC`,
  );
}
