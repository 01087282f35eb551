import { DEFAULT_TIMEZONE } from '../../shared/schemas/notification-settings';
import type { Tx } from '../db/client';
import { Prisma } from '../db/generated/client';
import type { AppDeps } from '../deps';
import { enqueueJobs, JOB_KINDS } from '../queue/enqueue';
import { shortDay } from './calendar-days';
import type { ServiceContext } from './context';
import { notifyEach } from './notifications';
import { agentLink, coordinatorsSql } from './transactions/notify';
import { emitWebhooks } from './webhooks/events';

/**
 * Key date reminders. For each date not done: one reminder on each of the
 * agent's reminder days before it, one on the day, one the day after (overdue), each at 08:00
 * in the agent's timezone. They are rows of `reminders`, written whenever a date, the agent's
 * reminder days or timezone change; a job sweeps the due ones every minute.
 *
 * Exactly once: a reminder row is unique per (date, day the date falls on, days before), the
 * sweep claims rows with FOR UPDATE SKIP LOCKED and marks them sent in the same transaction as
 * the notification and the mail it makes. Two instances sweeping at once take different rows; a
 * crash rolls the claim back with the notification; a date edited back and forth finds its sent
 * rows still there and sends nothing twice.
 */

/** 08:00 local: early enough to plan the day, late enough not to wake anyone. */
export const REMINDER_HOUR = 8;
/** Rows claimed per database transaction by one sweep: a few hundred notifications a commit. */
export const SWEEP_BATCH = 500;

/** Which dates to (re)schedule: one transaction's, or every open one of an agent. */
type Scope = { transactionId: string } | { agentId: string };

/**
 * Replaces the unsent reminders of the scope's dates with what the dates, the agent's days and
 * timezone say now. Reminders whose day has already passed (in the agent's timezone) are not
 * made: a date entered late does not set off yesterday's reminders. One due earlier today is:
 * the sweep sends it within a minute. Returns whether one is due already.
 */
export async function scheduleReminders(tx: Tx, now: Date, scope: Scope): Promise<boolean> {
  const where =
    'transactionId' in scope
      ? Prisma.sql`t.id = ${scope.transactionId}::uuid`
      : Prisma.sql`t.user_id = ${scope.agentId}::uuid`;
  await tx.$executeRaw`
    DELETE FROM reminders r USING key_dates k, transactions t
     WHERE r.key_date_id = k.id AND k.transaction_id = t.id AND r.sent_at IS NULL AND ${where}`;
  const [due] = await tx.$queryRaw<{ due: boolean }[]>`
    WITH made AS (
      INSERT INTO reminders (key_date_id, for_date, days_before, due_at)
      SELECT k.id, k.date, d.days_before,
             ((k.date - d.days_before) + make_time(${REMINDER_HOUR}, 0, 0)) AT TIME ZONE z.zone
        FROM key_dates k
        JOIN transactions t ON t.id = k.transaction_id
        JOIN users u ON u.id = t.user_id
        CROSS JOIN LATERAL (SELECT coalesce(u.timezone, ${DEFAULT_TIMEZONE}) AS zone) z
        CROSS JOIN LATERAL unnest(u.reminder_days || ARRAY[0, -1]) AS d(days_before)
       WHERE ${where} AND NOT k.done AND t.closed_at IS NULL AND t.deleted_at IS NULL
         AND k.date - d.days_before >= (${now}::timestamptz AT TIME ZONE z.zone)::date
      ON CONFLICT (key_date_id, for_date, days_before) DO NOTHING
      RETURNING due_at)
    SELECT coalesce(bool_or(due_at <= ${now}), false) AS due FROM made`;
  return due?.due ?? false;
}

/** After a change that may have made a reminder due now: sweep at once rather than next minute. */
export async function sweepSoon(tx: Tx): Promise<void> {
  await enqueueJobs(tx, [{ kind: JOB_KINDS.sweepReminders, payload: {}, jobKey: 'reminders:sweep:now' }]);
}

/** Reschedules an agent's reminders (their days or timezone changed) and sweeps if one is due. */
export async function rescheduleAgentReminders(tx: Tx, deps: AppDeps, agentId: string): Promise<void> {
  if (await scheduleReminders(tx, deps.clock.now(), { agentId })) await sweepSoon(tx);
}

type DueRow = {
  id: string;
  key_date_id: string;
  days_before: number;
  for_date: string;
  label: string;
  kind: string;
  transaction_id: string;
  street_address: string;
  agent_id: string;
  /** The agent's active coordinators: they hear of its dates too. */
  coordinator_ids: string[];
  open: boolean;
  /** The latest due reminder of its date in this batch: the one worth saying. */
  latest: boolean;
};

/** The words of a reminder: 'Inspection deadline for 12 Main St is in 3 days (Dec 1)'. */
export function reminderMessage(
  row: Pick<DueRow, 'label' | 'street_address' | 'days_before' | 'for_date'>,
): string {
  const what = `${row.label} for ${row.street_address}`;
  const day = shortDay(row.for_date);
  if (row.days_before < 0) return `${what} is overdue (${day})`;
  if (row.days_before === 0) return `${what} is today (${day})`;
  return `${what} is in ${row.days_before} ${row.days_before === 1 ? 'day' : 'days'} (${day})`;
}

/**
 * One batch of due reminders, in one database transaction: claimed, marked sent, and told to
 * their agents and the agents' coordinators (in-app, and by mail per each one's keyDate
 * preference). When several reminders of one
 * date are due at once (the portal was down over a reminder day) only the latest is said. A
 * reminder of a date that was done, or of a closed or deleted transaction, is dropped. Returns
 * how many rows it claimed; a full batch means more may be due.
 */
export async function sweepDueReminders(ctx: ServiceContext): Promise<number> {
  const now = ctx.deps.clock.now();
  return ctx.db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<DueRow[]>`
      WITH due AS (
        SELECT r.id FROM reminders r
         WHERE r.sent_at IS NULL AND r.due_at <= ${now}
         ORDER BY r.due_at
         LIMIT ${SWEEP_BATCH}
           FOR UPDATE SKIP LOCKED),
      claimed AS (
        UPDATE reminders r SET sent_at = ${now} FROM due WHERE r.id = due.id
        RETURNING r.id, r.key_date_id, r.days_before, r.for_date)
      SELECT c.id, c.key_date_id, c.days_before, to_char(c.for_date, 'YYYY-MM-DD') AS for_date,
             k.label, k.kind, t.id AS transaction_id, t.street_address, t.user_id AS agent_id,
             ${coordinatorsSql(Prisma.sql`t.user_id`)} AS coordinator_ids,
             (NOT k.done AND k.date = c.for_date AND t.closed_at IS NULL AND t.deleted_at IS NULL) AS open,
             c.days_before = min(c.days_before) OVER (PARTITION BY c.key_date_id) AS latest
        FROM claimed c
        JOIN key_dates k ON k.id = c.key_date_id
        JOIN transactions t ON t.id = k.transaction_id`;
    // The batch's notifications and mails in a few statements, in this same transaction: the
    // claim, the rows and the mails commit or roll back together.
    await notifyEach(
      tx,
      rows
        .filter((row) => row.open && row.latest)
        .flatMap((row) =>
          [row.agent_id, ...row.coordinator_ids].map((userId) => ({
            userId,
            message: reminderMessage(row),
            link: agentLink(row.transaction_id),
            transactionId: row.transaction_id,
          })),
        ),
      'keyDate',
      ctx.deps,
    );
    // key_date.due once per date and day: the day-of reminder row is unique, and claimed once.
    await emitWebhooks(
      tx,
      ctx.deps,
      rows
        .filter((row) => row.open && row.days_before === 0)
        .map((row) => ({
          type: 'key_date.due' as const,
          transactionId: row.transaction_id,
          data: {
            _id: row.key_date_id,
            kind: row.kind,
            label: row.label,
            date: row.for_date,
            done: false,
            transactionId: row.transaction_id,
          },
        })),
    );
    return rows.length;
  });
}

/** The job: sweeps until nothing due is left (each batch its own commit). */
export async function sweepReminders(ctx: ServiceContext): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await sweepDueReminders(ctx);
    total += claimed;
    if (claimed < SWEEP_BATCH || ctx.signal?.aborted) return total;
  }
}
