import { WEBHOOK_RETRY_DELAYS_MS } from '../../../shared/schemas/webhooks';
import { webhookMessages } from '../../../shared/webhook-messages';
import type { Tx } from '../../db/client';
import type { AppDeps } from '../../deps';
import { describeErrorForLog } from '../../errors';
import type { MailContent } from '../../mail/content';
import { enqueueJobs, JOB_KINDS } from '../../queue/enqueue';
import { AddressRefused, resolveWebhookAddresses } from '../../webhooks/addresses';
import { postWebhook } from '../../webhooks/http';
import { webhookHeaders } from '../../webhooks/signing';
import type { ServiceContext } from '../context';
import { queueMails } from '../mail';
import { DELIVER_JOB_MAX_ATTEMPTS, deliverJobKey } from './events';
import { openSecret } from './secrets';

/**
 * The `webhooks:deliver` job: one attempt of one delivery. The schedule is ours, not
 * the engine's: after a failed attempt the delivery records it and schedules its own next job
 * (WEBHOOK_RETRY_DELAYS_MS later: seven attempts over about 18 hours); the job
 * itself only fails (and is retried by the engine) when the database does.
 *
 * Order: deliveries of one transaction's events reach an endpoint in the order they happened.
 * A delivery waits while an earlier one of the same endpoint and transaction is still pending;
 * when that one ends (succeeded, or failed for good) it wakes the next. Both steps take one
 * advisory lock per (endpoint, transaction), so a wake-up cannot slip between a check and its
 * wait. Events without a transaction (users, pings) are not held back.
 *
 * At least once: a worker that dies after the receiver answered and before the outcome is
 * recorded sends that attempt again, with the same `webhook-id` (receivers deduplicate on it).
 */

export const DELIVERY_TIMEOUT_MS = 10_000;
/** An endpoint whose every attempt failed for this long is deactivated and its owners mailed. */
export const FAILING_DEACTIVATES_AFTER_MS = 24 * 3_600_000;
/** A waiting delivery looks again this long after the earlier one's next attempt, in case. */
const WAIT_MARGIN_MS = 60_000;
/**
 * While an attempt is in flight its next_attempt_at is this far ahead (a lease): a second job of
 * the same delivery (a wake-up or a retry racing it) sees that and comes back when the lease ends
 * instead of sending twice; if the worker died, that later run makes the attempt.
 */
const LEASE_MS = DELIVERY_TIMEOUT_MS + 60_000;
/** A job started this early (clocks of database and app differ a little) still attempts. */
const EARLY_MS = 30_000;

type Claimed = {
  id: string;
  next_attempt_at: Date | null;
  seq: bigint;
  endpoint_id: string;
  event_id: string;
  transaction_id: string | null;
  attempts: number;
  body: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  active: boolean;
};

const lockOrder = (tx: Tx, endpointId: string, transactionId: string) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`webhooks:${endpointId}:${transactionId}`}, 0))`;

export async function deliverWebhook(ctx: ServiceContext, { deliveryId }: { deliveryId: string }) {
  const claimed = await ctx.db.$transaction(async (tx) => {
    // The order lock before the row lock, as finish() takes them: no deadlock between the two.
    const [key] = await tx.$queryRaw<{ endpoint_id: string; transaction_id: string | null }[]>`
      SELECT endpoint_id::text, transaction_id::text FROM webhook_deliveries WHERE id = ${deliveryId}::uuid`;
    if (!key) return null;
    if (key.transaction_id) await lockOrder(tx, key.endpoint_id, key.transaction_id);
    const [row] = await tx.$queryRaw<(Claimed & { status: string })[]>`
      SELECT d.id::text, d.seq, d.endpoint_id::text, d.event_id::text, d.transaction_id::text,
             d.attempts, d.status, d.next_attempt_at, e.body, w.url, w.secret_sealed,
             w.previous_secret_sealed, w.previous_secret_expires_at, w.active
        FROM webhook_deliveries d
        JOIN webhook_events e ON e.id = d.event_id
        JOIN webhook_endpoints w ON w.id = d.endpoint_id
       WHERE d.id = ${deliveryId}::uuid
         FOR UPDATE OF d`;
    if (row?.status !== 'pending') return null;
    const now = ctx.deps.clock.now();
    if (row.next_attempt_at && row.next_attempt_at.getTime() > now.getTime() + EARLY_MS) {
      await schedule(tx, row.id, new Date(row.next_attempt_at.getTime() + 1_000));
      return null;
    }
    if (row.transaction_id) {
      const [earlier] = await tx.$queryRaw<{ next_attempt_at: Date | null }[]>`
        SELECT next_attempt_at FROM webhook_deliveries
         WHERE endpoint_id = ${row.endpoint_id}::uuid AND transaction_id = ${row.transaction_id}::uuid
           AND seq < ${row.seq} AND status = 'pending'
         ORDER BY seq LIMIT 1`;
      if (earlier) {
        const from = Math.max(now.getTime(), earlier.next_attempt_at?.getTime() ?? 0);
        const at = new Date(from + WAIT_MARGIN_MS);
        await tx.$executeRaw`UPDATE webhook_deliveries SET next_attempt_at = ${at}, updated_at = now()
                              WHERE id = ${row.id}::uuid`;
        await schedule(tx, row.id, at);
        return null;
      }
    }
    if (!row.active) {
      await finish(tx, ctx.deps, row, {
        ok: false,
        final: true,
        statusCode: null,
        error: 'Endpoint deactivated',
      });
      return null;
    }
    await tx.$executeRaw`UPDATE webhook_deliveries SET next_attempt_at = ${new Date(now.getTime() + LEASE_MS)}
                          WHERE id = ${row.id}::uuid`;
    return row;
  });
  if (!claimed) return;

  const outcome = await attempt(ctx, claimed);
  await ctx.db.$transaction((tx) => finish(tx, ctx.deps, claimed, outcome));
}

type Outcome = { ok: boolean; final?: boolean; statusCode: number | null; error: string | null };

async function attempt(ctx: ServiceContext, row: Claimed): Promise<Outcome> {
  const url = new URL(row.url);
  try {
    // Checked again at each attempt, on what the name resolves to now; sent to that address.
    const [address] = await resolveWebhookAddresses(url, {
      allowPrivate: ctx.deps.config.webhookAllowPrivate,
    });
    if (!address) throw new AddressRefused('unresolved', webhookMessages.urlNotResolved(url.hostname));
    const now = ctx.deps.clock.now();
    const headers = webhookHeaders(signingSecrets(ctx.deps, row, now), row.event_id, now, row.body);
    const { status } = await postWebhook(url, address, headers, row.body, DELIVERY_TIMEOUT_MS);
    if (status >= 200 && status < 300) return { ok: true, statusCode: status, error: null };
    return { ok: false, statusCode: status, error: `HTTP ${status}` };
  } catch (error) {
    if (error instanceof AddressRefused) return { ok: false, statusCode: null, error: error.message };
    const described = describeErrorForLog(error);
    const timedOut = described.type === 'TimeoutError' || /aborted|timeout/i.test(described.message);
    ctx.log.info({ error: described, deliveryId: row.id }, 'webhook attempt failed');
    return {
      ok: false,
      statusCode: null,
      error: timedOut
        ? `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
        : `${described.type}: ${described.message}`.slice(0, 500),
    };
  }
}

/**
 * The current secret, then the one its last rotation replaced while that is still honoured
 * (24 h): a receiver verifying with either accepts the attempt.
 */
function signingSecrets(deps: AppDeps, row: Claimed, now: Date): [string, ...string[]] {
  const current = openSecret(deps, row.secret_sealed);
  const previous = row.previous_secret_sealed;
  const honoured = previous !== null && (row.previous_secret_expires_at?.getTime() ?? 0) > now.getTime();
  return honoured ? [current, openSecret(deps, previous)] : [current];
}

/** Records an attempt's outcome, schedules the next one or ends the delivery (waking the next). */
async function finish(tx: Tx, deps: AppDeps, row: Claimed, outcome: Outcome): Promise<void> {
  const now = deps.clock.now();
  if (row.transaction_id) await lockOrder(tx, row.endpoint_id, row.transaction_id);
  // The endpoint's row before its delivery's, in the order deleting an endpoint takes them (the
  // endpoint, then its deliveries by cascade): the other order deadlocked a delete made while an
  // attempt was being recorded. A deleted endpoint leaves no delivery to update below.
  await tx.$queryRaw`SELECT 1 FROM webhook_endpoints WHERE id = ${row.endpoint_id}::uuid FOR NO KEY UPDATE`;
  const attempts = outcome.final ? row.attempts : row.attempts + 1;
  const delay = WEBHOOK_RETRY_DELAYS_MS[attempts - 1];
  const retry = !outcome.ok && !outcome.final && delay !== undefined;
  const status = outcome.ok ? 'succeeded' : retry ? 'pending' : 'failed';
  const next = retry ? new Date(now.getTime() + delay) : null;
  const updated = await tx.$executeRaw`
    UPDATE webhook_deliveries
       SET status = ${status}, attempts = ${attempts}, last_status_code = ${outcome.statusCode},
           last_error = ${outcome.error}, next_attempt_at = ${next}, updated_at = now()
     WHERE id = ${row.id}::uuid AND status = 'pending'`;
  if (updated === 0) return; // retried or deleted meanwhile: that run decides
  if (next) await schedule(tx, row.id, next);
  else if (row.transaction_id) await wakeNext(tx, row, now);
  if (outcome.final) return;
  if (outcome.ok) {
    await tx.$executeRaw`UPDATE webhook_endpoints SET failing_since = NULL
                          WHERE id = ${row.endpoint_id}::uuid AND failing_since IS NOT NULL`;
    return;
  }
  const [before] = await tx.$queryRaw<{ active: boolean }[]>`
    SELECT active FROM webhook_endpoints WHERE id = ${row.endpoint_id}::uuid FOR UPDATE`;
  const [endpoint] = await tx.$queryRaw<{ active: boolean }[]>`
    UPDATE webhook_endpoints
       SET failing_since = coalesce(failing_since, ${now}),
           active = active AND coalesce(failing_since, ${now}) > ${new Date(now.getTime() - FAILING_DEACTIVATES_AFTER_MS)},
           updated_at = now()
     WHERE id = ${row.endpoint_id}::uuid
    RETURNING active`;
  if (before?.active && endpoint && !endpoint.active) await mailDeactivation(tx, deps, row);
}

const schedule = (tx: Tx, deliveryId: string, runAt: Date) =>
  enqueueJobs(tx, [
    {
      kind: JOB_KINDS.deliverWebhook,
      payload: { deliveryId },
      runAt,
      jobKey: deliverJobKey(deliveryId),
      maxAttempts: DELIVER_JOB_MAX_ATTEMPTS,
    },
  ]);

/** The next pending delivery of the same endpoint and transaction goes now. */
async function wakeNext(tx: Tx, row: Claimed, now: Date): Promise<void> {
  const [next] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM webhook_deliveries
     WHERE endpoint_id = ${row.endpoint_id}::uuid AND transaction_id = ${row.transaction_id}::uuid
       AND seq > ${row.seq} AND status = 'pending'
     ORDER BY seq LIMIT 1`;
  if (!next) return;
  await tx.$executeRaw`UPDATE webhook_deliveries SET next_attempt_at = ${now} WHERE id = ${next.id}::uuid`;
  await schedule(tx, next.id, now);
}

/** The endpoint's creator and the owner hear of it, so someone fixes the receiver. */
async function mailDeactivation(tx: Tx, deps: AppDeps, row: Claimed): Promise<void> {
  const people = await tx.$queryRaw<{ id: string; email: string; first_name: string }[]>`
    SELECT u.id::text, u.email, u.first_name FROM users u
     WHERE u.is_owner OR u.id = (SELECT created_by_id FROM webhook_endpoints WHERE id = ${row.endpoint_id}::uuid)`;
  await queueMails(
    tx,
    deps,
    people.map((person) => ({
      kind: 'webhook-deactivated',
      userId: person.id,
      content: deactivationMail(deps, person, row.url),
    })),
  );
}

function deactivationMail(
  deps: AppDeps,
  person: { email: string; first_name: string },
  url: string,
): MailContent {
  return {
    to: person.email,
    subject: 'A webhook was deactivated after 24 hours of failures',
    preview: `Deliveries to ${url} have failed for 24 hours.`,
    greeting: `Hello ${person.first_name},`,
    paragraphs: [
      `Every delivery to ${url} has failed for 24 hours, so the portal deactivated this webhook and sends it nothing more.`,
      'Once the receiver works again, activate the webhook on the Webhooks page and retry the failed deliveries there.',
    ],
    action: { label: 'Open Webhooks', url: `${deps.config.appUrl}/admin/webhooks` },
  };
}
