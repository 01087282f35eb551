import { notificationSettingsMessages } from '../../shared/messages';
import {
  DEFAULT_DELIVERY,
  DEFAULT_TIMEZONE,
  type Delivery,
  EVENT_LABELS,
  NOTIFICATION_EVENTS,
  type NotificationEvent,
  type NotificationSettings,
  type NotificationSettingsInput,
} from '../../shared/schemas/notification-settings';
import type { Tx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { AppError } from '../errors';
import { verifySigned } from '../security/sealing';
import type { CallerContext, ServiceContext } from './context';
import { deliveryOf, eventsOf, type Role, UNSUBSCRIBE_PURPOSE } from './notification-routing';
import { assertSelfOrReachingAdmin } from './reach';
import { rescheduleAgentReminders } from './reminders';

/**
 * Notification preferences: per event in-app, email or digest, reminder days and
 * a timezone. Only what a user changed is stored; the defaults apply to the rest, so a new
 * default reaches everyone who never chose.
 */

const settingsSelect = {
  role: true,
  timezone: true,
  reminderDays: true,
  notificationDeliveries: true,
} as const;
type SettingsRow = Prisma.UserGetPayload<{ select: typeof settingsSelect }>;

function toSettings(row: SettingsRow): NotificationSettings {
  const events: NotificationSettings['events'] = {};
  for (const event of eventsOf(row.role))
    events[event] = deliveryOf(row.role, row.notificationDeliveries, event);
  return { timezone: row.timezone ?? DEFAULT_TIMEZONE, reminderDays: row.reminderDays, events };
}

async function settingsRow(ctx: ServiceContext, userId: string): Promise<SettingsRow> {
  const row = await ctx.db.user.findUnique({ where: { id: userId }, select: settingsSelect });
  if (!row) throw new AppError('NOT_FOUND', 'User not found');
  return row;
}

/**
 * PostgreSQL computes every reminder's 08:00, each list's "today" and the digest's 07:00 in the
 * user's zone, so it must know the name as well as the runtime's ICU does: Node still accepts
 * names PostgreSQL's tzdata dropped (US/Pacific-New), and a newer ICU may know zones an older
 * server does not. One such zone stored would fail that user's lists and every user's digest.
 */
async function assertZoneKnownToDatabase(ctx: ServiceContext, timezone: string): Promise<void> {
  try {
    await ctx.db.$queryRaw`SELECT now() AT TIME ZONE ${timezone}`;
  } catch (error) {
    // 22023 invalid_parameter_value: 'time zone "..." not recognized'. Anything else is trouble.
    if (!hasSqlState(error, '22023')) throw error;
    const message = notificationSettingsMessages.timezoneInvalid;
    throw new AppError('BAD_REQUEST', message, [{ path: 'timezone', message }]);
  }
}

/** Whether a database error carries this SQLSTATE (on the driver's error or Prisma's copy of it). */
function hasSqlState(error: unknown, state: string): boolean {
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): boolean => {
    if (!value || typeof value !== 'object' || seen.has(value) || depth > 6) return false;
    seen.add(value);
    const record = value as Record<string, unknown>;
    if (record.code === state || record.originalCode === state) return true;
    return ['cause', 'meta', 'driverAdapterError'].some((key) => visit(record[key], depth + 1));
  };
  return visit(error, 0);
}

export async function getNotificationSettings(ctx: CallerContext, { userId }: { userId: string }) {
  await assertSelfOrReachingAdmin(ctx, userId);
  return toSettings(await settingsRow(ctx, userId));
}

export async function updateNotificationSettings(ctx: CallerContext, input: NotificationSettingsInput) {
  await assertSelfOrReachingAdmin(ctx, input.userId);
  const before = await settingsRow(ctx, input.userId);
  if (input.timezone !== before.timezone) await assertZoneKnownToDatabase(ctx, input.timezone);
  const own = eventsOf(before.role);
  const foreign = Object.keys(input.events).find((event) => !own.includes(event as NotificationEvent));
  if (foreign) {
    const message = notificationSettingsMessages.eventNotYours(foreign);
    throw new AppError('BAD_REQUEST', message, [{ path: `events.${foreign}`, message }]);
  }
  // Keep only the choices that differ from the default: the default may improve later.
  const stored: Record<string, Delivery> = {};
  for (const event of own) {
    const chosen = input.events[event] ?? deliveryOf(before.role, before.notificationDeliveries, event);
    if (chosen !== DEFAULT_DELIVERY[event]) stored[event] = chosen;
  }
  const reminderDays = [...new Set(input.reminderDays)].sort((a, b) => b - a);
  return ctx.db.$transaction(async (tx) => {
    const row = await tx.user.update({
      where: { id: input.userId },
      data: { timezone: input.timezone, reminderDays, notificationDeliveries: stored },
      select: settingsSelect,
    });
    const remindersChanged =
      before.timezone !== input.timezone || before.reminderDays.join() !== reminderDays.join();
    if (remindersChanged) await rescheduleAgentReminders(tx, ctx.deps, input.userId);
    return toSettings(row);
  });
}

/** The browser's zone, taken only while the account has none: a choice made on /settings stays. */
export async function detectTimezone(ctx: CallerContext, { timezone }: { timezone: string }) {
  await assertZoneKnownToDatabase(ctx, timezone);
  await ctx.db.$transaction(async (tx) => {
    const set = await tx.user.updateMany({ where: { id: ctx.user.id, timezone: null }, data: { timezone } });
    if (set.count === 1) await rescheduleAgentReminders(tx, ctx.deps, ctx.user.id);
  });
  return toSettings(await settingsRow(ctx, ctx.user.id));
}

/**
 * One click, no sign-in: the event of the link goes back to in-app. Idempotent (a mail client
 * may POST twice); an unknown, altered or foreign token is 400 and changes nothing.
 */
export async function unsubscribe(ctx: ServiceContext, { token }: { token: string }) {
  const value = verifySigned(ctx.deps.config.jwtSecret, UNSUBSCRIBE_PURPOSE, token);
  const [userId, event] = value?.split(':') ?? [];
  const invalid = () => new AppError('BAD_REQUEST', notificationSettingsMessages.unsubscribeInvalid);
  const known: NotificationEvent | 'digest' | null =
    NOTIFICATION_EVENTS.find((name) => name === event) ?? (event === 'digest' ? 'digest' : null);
  if (!userId || !known) throw invalid();
  await ctx.db.$transaction(async (tx: Tx) => {
    const [row] = await tx.$queryRaw<{ role: Role; deliveries: Prisma.JsonValue }[]>`
      SELECT role::text AS role, notification_deliveries AS deliveries FROM users
       WHERE id = ${userId}::uuid FOR UPDATE`;
    if (!row) throw invalid();
    // 'digest' (the digest's own link) stops the digest: each of its events goes to in-app.
    const switched =
      known === 'digest'
        ? eventsOf(row.role).filter((name) => deliveryOf(row.role, row.deliveries, name) === 'digest')
        : [known];
    const stored = { ...(row.deliveries as Record<string, Delivery>) };
    for (const name of switched) {
      if (DEFAULT_DELIVERY[name] === 'in-app') delete stored[name];
      else stored[name] = 'in-app';
    }
    await tx.user.update({ where: { id: userId }, data: { notificationDeliveries: stored } });
  });
  const label = known === 'digest' ? 'Daily digest' : EVENT_LABELS[known];
  return { message: notificationSettingsMessages.unsubscribed(label), event: known };
}
