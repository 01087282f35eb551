import type { ServiceContext } from '../context';

/**
 * How long a webhook's deliveries (and their events' bodies) are kept once settled: the admin
 * page and GET .../deliveries show the last 30 days, as the services integrators know do. Without
 * a bound both tables grow with every change forever, and an endpoint's delivery list (its count
 * for totalPages) with them: 1M deliveries took about 300 ms a page (bench/integrations.bench.ts).
 * Pending deliveries are kept whatever their age: they still have attempts to make.
 */
export const WEBHOOK_RETENTION_DAYS = 30;
/** Rows deleted per statement, so a first prune of a large backlog never holds long locks. */
const BATCH = 10_000;

/** Deletes settled deliveries older than the retention, then events left without any (a job, daily). */
export async function pruneWebhookDeliveries(ctx: ServiceContext): Promise<number> {
  const before = new Date(ctx.deps.clock.now().getTime() - WEBHOOK_RETENTION_DAYS * 86_400_000);
  let deleted = 0;
  for (;;) {
    const n = await ctx.db.$executeRaw`
      DELETE FROM webhook_deliveries WHERE id IN (
        SELECT id FROM webhook_deliveries
         WHERE status <> 'pending' AND created_at < ${before}::timestamptz LIMIT ${BATCH})`;
    deleted += n;
    if (n < BATCH) break;
  }
  for (;;) {
    const n = await ctx.db.$executeRaw`
      DELETE FROM webhook_events WHERE id IN (
        SELECT e.id FROM webhook_events e
         WHERE e.created_at < ${before}::timestamptz
           AND NOT EXISTS (SELECT FROM webhook_deliveries d WHERE d.event_id = e.id)
         LIMIT ${BATCH})`;
    if (n < BATCH) break;
  }
  return deleted;
}
