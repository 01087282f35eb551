import type { WebhookEventsInput, WebhookEventsPage } from '../../../shared/schemas/webhooks';
import { Prisma } from '../../db/generated/client';
import type { CallerContext } from '../context';
import { assertBrokerageWide } from '../reach';
import { WEBHOOK_RETENTION_DAYS } from './retention';

/**
 * What the webhooks sent, for integrators to reconcile with or replay from: each event once, as
 * its deliveries carried it (`_id` their webhook-id, `type`, `timestamp` and `data` their body's
 * fields, read back from the exact body sent), oldest first, paged by keyset on (created_at, id)
 * (indexes webhook_events_created_at_id_idx and, with a type, webhook_events_type_created_at_id_idx;
 * created_at is the body's timestamp). Only the retention's 30 days are listed: older events
 * still held by a pending delivery are not, so what the list shows does not depend on the prune.
 */

type EventRow = { id: string; created_at: Date; body: string };
type SentBody = { type: string; timestamp: string; data: unknown };

/** The events after the cursor's (EVENTS_CURSOR: `<milliseconds>-<id>` of a page's last event). */
function afterSql(cursor: string | undefined): Prisma.Sql {
  if (!cursor) return Prisma.empty;
  const split = cursor.indexOf('-');
  const ms = cursor.slice(0, split);
  const id = cursor.slice(split + 1);
  return Prisma.sql`AND (created_at, id) >
    (timestamptz 'epoch' + ${ms}::bigint * interval '1 millisecond', ${id}::uuid)`;
}

const cursorOf = (row: EventRow) => `${row.created_at.getTime()}-${row.id}`;

/** GET /api/admin/events: every office's events whole, so brokerage-wide admins only (403 otherwise). */
export async function listEvents(ctx: CallerContext, input: WebhookEventsInput): Promise<WebhookEventsPage> {
  assertBrokerageWide(ctx.user);
  const since = new Date(ctx.deps.clock.now().getTime() - WEBHOOK_RETENTION_DAYS * 86_400_000);
  const rows = await ctx.db.$queryRaw<EventRow[]>`
    SELECT id::text, created_at, body FROM webhook_events
     WHERE ${input.type ? Prisma.sql`type = ${input.type} AND` : Prisma.empty} created_at >= ${since}
       ${afterSql(input.after)}
     ORDER BY created_at, id
     LIMIT ${input.limit + 1}`;
  const more = rows.length > input.limit;
  const page = more ? rows.slice(0, input.limit) : rows;
  const last = page.at(-1);
  return {
    items: page.map((row) => {
      const sent = JSON.parse(row.body) as SentBody;
      return { _id: row.id, type: sent.type, timestamp: sent.timestamp, data: sent.data };
    }),
    next: more && last ? cursorOf(last) : null,
  };
}
