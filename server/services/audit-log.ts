import {
  type AuditExportInput,
  type AuditLogEvent,
  type AuditLogInput,
  type AuditLogPage,
  auditRangeOf,
} from '../../shared/schemas/audit';
import { Prisma } from '../db/generated/client';
import { sqlRows } from '../db/sql';
import type { CallerContext } from './context';
import { assertBrokerageWide } from './reach';

/**
 * The admins' audit log (GET /api/admin/audit): the whole trail, newest first, filtered. Ordered
 * by (created_at, seq), the time of the change and then the chain's order among the events of one
 * moment, and paged by keyset on both: a page is the events before the cursor's, so a page deep
 * in a million events costs what the first does (an offset would walk every event before it).
 * Each filter has an index leading with it and ending in (created_at, seq) (migration
 * 20261210100000), so a page, with a range of time or without, is one short backward range scan.
 * Not seq alone: events are written in seq order but dated when their database transaction
 * began, and the planner, not knowing the two grow together, walked every newer event of the seq
 * index to reach a range months ago. No total: counting a million events costs more than a page.
 */

type EventRow = {
  id: string;
  seq: string;
  created_at: Date;
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  api_key_id: string | null;
  on_behalf_of: string | null;
  action: string;
  entity: string;
  entity_id: string;
  transaction_id: string | null;
  before: unknown;
  after: unknown;
  hash: string;
  prev_hash: string;
};

/** The filters as SQL on `e` (audit_events), shared by the list and its CSV export. */
export function auditFilterSql(input: AuditExportInput): Prisma.Sql {
  const { from, toBefore } = auditRangeOf(input);
  const filters = [
    ...(input.actorId ? [Prisma.sql`e.actor_id = ${input.actorId}::uuid`] : []),
    ...(input.entity ? [Prisma.sql`e.entity = ${input.entity}`] : []),
    ...(input.entityId ? [Prisma.sql`e.entity_id = ${input.entityId}::uuid`] : []),
    ...(input.action ? [Prisma.sql`e.action = ${input.action}`] : []),
    ...(input.transactionId ? [Prisma.sql`e.transaction_id = ${input.transactionId}::uuid`] : []),
    ...(from ? [Prisma.sql`e.created_at >= ${from}::timestamptz`] : []),
    ...(toBefore ? [Prisma.sql`e.created_at < ${toBefore}::timestamptz`] : []),
  ];
  return filters.length > 0 ? Prisma.join(filters, ' AND ') : Prisma.sql`true`;
}

/** The events before the cursor's (AUDIT_CURSOR: `<milliseconds>-<seq>` of a page's last event). */
function cursorSql(cursor: string): Prisma.Sql {
  const [ms, seq] = cursor.split('-');
  return Prisma.sql`AND (e.created_at, e.seq) <
    (timestamptz 'epoch' + ${ms}::bigint * interval '1 millisecond', ${seq}::bigint)`;
}

const cursorOf = (row: EventRow) => `${row.created_at.getTime()}-${row.seq}`;

/** A page of the log's statement: exported for the benchmark. */
export function auditPageSql(input: AuditLogInput): Prisma.Sql {
  const cursor = input.cursor ? cursorSql(input.cursor) : Prisma.empty;
  return Prisma.sql`SELECT e.id, e.seq::text AS seq, e.created_at, e.actor_id,
      u.first_name || ' ' || u.last_name AS actor_name, u.email::text AS actor_email,
      e.api_key_id, e.on_behalf_of, e.action, e.entity, e.entity_id, e.transaction_id,
      e.before, e.after, e.hash, e.prev_hash
    FROM audit_events e LEFT JOIN users u ON u.id = e.actor_id
    WHERE ${auditFilterSql(input)} ${cursor}
    ORDER BY e.created_at DESC, e.seq DESC
    LIMIT ${input.limit + 1}`;
}

function toEvent(row: EventRow): AuditLogEvent {
  return {
    _id: row.id,
    seq: Number(row.seq),
    createdAt: row.created_at.toISOString(),
    actor:
      row.actor_id === null
        ? null
        : { _id: row.actor_id, name: row.actor_name ?? '', email: row.actor_email ?? '' },
    apiKeyId: row.api_key_id,
    onBehalfOf: row.on_behalf_of,
    action: row.action,
    entity: row.entity,
    entityId: row.entity_id,
    transactionId: row.transaction_id,
    before: row.before ?? null,
    after: row.after ?? null,
    hash: row.hash,
    prevHash: row.prev_hash,
  };
}

/** One page of events, newest first, and the cursor of the next one. */
export async function auditPage(ctx: Pick<CallerContext, 'db'>, input: AuditLogInput): Promise<AuditLogPage> {
  const rows = await sqlRows<EventRow>(ctx.db, auditPageSql(input));
  const more = rows.length > input.limit;
  const page = more ? rows.slice(0, input.limit) : rows;
  const last = page.at(-1);
  return { items: page.map(toEvent), nextCursor: more && last ? cursorOf(last) : null };
}

/** GET /api/admin/audit: every office's trail, so brokerage-wide admins only (403 otherwise). */
export function listForAdmin(ctx: CallerContext, input: AuditLogInput): Promise<AuditLogPage> {
  assertBrokerageWide(ctx.user);
  return auditPage(ctx, input);
}
