import type { WebhookEventType } from '../../../shared/schemas/webhooks';
import type { Tx } from '../../db/client';
import { Prisma } from '../../db/generated/client';
import type { AppDeps } from '../../deps';
import { JOB_KINDS } from '../../queue/enqueue';
import type { ServiceContext } from '../context';

/**
 * Webhook events, recorded by the service where the change happens,
 * inside the change's own database transaction (an outbox): the event row, one delivery per
 * active endpoint that subscribed to its type, and a `webhooks:deliver` job per delivery, in one
 * statement. A rolled-back change leaves none of them; a committed one always has them. An event
 * no endpoint wants is not written at all.
 */

export type WebhookEventInput = {
  type: WebhookEventType;
  /** The resource as the REST API answers it. */
  data: unknown;
  /** Deliveries of one transaction's events reach each endpoint in order (deliver.ts). */
  transactionId?: string | null;
};

/** Database errors (not HTTP failures, which deliver.ts schedules itself) get a few engine retries. */
export const DELIVER_JOB_MAX_ATTEMPTS = 5;
export const deliverJobKey = (deliveryId: string) => `webhooks:deliver:${deliveryId}`;

/** The body sent, fixed when the event happens: every attempt carries the same bytes. */
export function webhookBody(type: string, at: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/** Records the events inside `tx`: they are delivered once it commits, never if it rolls back. */
export async function emitWebhooks(
  tx: Tx,
  deps: AppDeps,
  events: readonly WebhookEventInput[],
): Promise<void> {
  for (const event of events) {
    const now = deps.clock.now();
    await insertEvent(
      tx,
      now,
      { type: event.type, body: webhookBody(event.type, now, event.data) },
      event.transactionId ?? null,
      Prisma.sql`active AND ${event.type} = ANY (events)`,
    );
  }
}

/**
 * The types among `types` that some active endpoint subscribes to: one indexed look at a small
 * table, so a change nobody listens to does not build its event's body (a transaction answer signs
 * a link per document) nor read rows again for it.
 */
export async function subscribedTypes(
  tx: Tx,
  types: readonly WebhookEventType[],
): Promise<WebhookEventType[]> {
  if (types.length === 0) return [];
  const rows = await tx.$queryRaw<{ type: WebhookEventType }[]>`
    SELECT t AS type FROM unnest(${[...types]}::text[]) AS t
     WHERE EXISTS (SELECT FROM webhook_endpoints WHERE active AND t = ANY (events))`;
  const wanted = new Set(rows.map((row) => row.type));
  return types.filter((type) => wanted.has(type));
}

export const emitWebhook = (tx: Tx, deps: AppDeps, event: WebhookEventInput) =>
  emitWebhooks(tx, deps, [event]);

/**
 * The event row, its deliveries to the endpoints `which` selects, and their jobs: one round trip
 * in the causing transaction. Returns the ids of the deliveries made. The row's created_at is
 * `now`, the body's timestamp: the events list pages and cuts off on the time receivers were told.
 */
export async function insertEvent(
  tx: Tx,
  now: Date,
  event: { type: string; body: string },
  transactionId: string | null,
  which: Prisma.Sql,
): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    WITH endpoints AS (SELECT id FROM webhook_endpoints WHERE ${which}),
    event AS (
      INSERT INTO webhook_events (type, transaction_id, body, created_at)
      SELECT ${event.type}, ${transactionId}::uuid, ${event.body}, ${now}
       WHERE EXISTS (SELECT FROM endpoints)
      RETURNING id, transaction_id),
    deliveries AS (
      INSERT INTO webhook_deliveries (endpoint_id, event_id, transaction_id, next_attempt_at)
      SELECT endpoints.id, event.id, event.transaction_id, ${now} FROM endpoints CROSS JOIN event
      RETURNING id),
    jobs AS (
      SELECT graphile_worker.add_jobs(ARRAY(
        SELECT json_populate_record(NULL::graphile_worker.job_spec, json_build_object(
                 'identifier', ${JOB_KINDS.deliverWebhook}::text,
                 'payload', json_build_object('deliveryId', deliveries.id),
                 'max_attempts', ${DELIVER_JOB_MAX_ATTEMPTS}::int,
                 'job_key', 'webhooks:deliver:' || deliveries.id))
          FROM deliveries)))
    SELECT deliveries.id::text AS id FROM deliveries, (SELECT count(*) FROM jobs) AS added`;
  return rows.map((row) => row.id);
}

/** The ping of the test button: to this endpoint alone, whatever it subscribed to. */
export async function emitPing(ctx: ServiceContext, endpointId: string): Promise<string | undefined> {
  const now = ctx.deps.clock.now();
  const body = webhookBody('ping', now, { webhookId: endpointId });
  const [id] = await ctx.db.$transaction((tx) =>
    insertEvent(tx, now, { type: 'ping', body }, null, Prisma.sql`id = ${endpointId}::uuid`),
  );
  return id;
}
