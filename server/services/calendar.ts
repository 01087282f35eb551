import ical, { ICalCalendarMethod, ICalEventTransparency } from 'ical-generator';
import type {
  CalendarAnswer,
  CalendarEvent,
  CalendarInput,
  KeyDateKind,
} from '../../shared/schemas/key-dates';
import { Prisma } from '../db/generated/client';
import { hashSecretToken, newSecretToken } from '../security/secret-tokens';
import { todayIn } from './calendar-days';
import type { CallerContext, ServiceContext } from './context';
import { agentsOf, assertActsForUser, officeOfLists, transactionsOfOfficeSql } from './reach';

/**
 * The calendar of key dates: an agent's own (a coordinator's with its agents'), an admin's
 * everyone's it reaches (an office admin's: its office's; services/reach.ts), or one agent's, over
 * a range of days; and the same as an iCalendar feed behind a secret address.
 */

/** More than any month of a large brokerage; a larger answer says so rather than grow. */
export const MAX_CALENDAR_EVENTS = 5_000;
/** The feed covers this window around today: what a calendar app shows and keeps. */
const FEED_PAST_DAYS = 90;
const FEED_FUTURE_DAYS = 400;

type EventRow = {
  id: string;
  transaction_id: string;
  street_address: string;
  kind: KeyDateKind;
  label: string;
  date: string;
  done: boolean;
  updated_at: Date;
};

type CalendarFilter = {
  from: string;
  to: string;
  agentId: string | null;
  /** Everyone's of this office (settled by officeOfLists); null: of every office. */
  office?: string | null;
};

async function eventRows(ctx: ServiceContext, filter: CalendarFilter): Promise<EventRow[]> {
  return ctx.db.$queryRaw<EventRow[]>(calendarSql(filter));
}

/**
 * The events of a range, everyone's or one agent's. An agent's are first picked by id from two
 * index-only scans, the range's key dates (key_dates_date_idx INCLUDE transaction_id, id) hashed
 * against the agent's transactions (transactions_user_id_created_at_idx), and only those rows
 * are read: a busy agent has thousands of transactions, and a probe of key_dates for each cost
 * ~230 ms a month on the 1M dataset, against ~30 ms this way. OFFSET 0 keeps the planner from
 * folding the pick into the outer joins. Exported for the benchmark.
 */
export function calendarSql({ from, to, agentId, office = null }: CalendarFilter) {
  const select = Prisma.sql`
    SELECT k.id, k.transaction_id, t.street_address, k.kind, k.label,
           to_char(k.date, 'YYYY-MM-DD') AS date, k.done, k.updated_at`;
  const order = Prisma.sql`ORDER BY k.date, t.street_address, k.position LIMIT ${MAX_CALENDAR_EVENTS}`;
  // Everyone's: the range's key dates with their transactions, as they come.
  if (agentId === null)
    return Prisma.sql`${select}
      FROM key_dates k JOIN transactions t ON t.id = k.transaction_id
     WHERE k.date BETWEEN ${from}::date AND ${to}::date AND t.deleted_at IS NULL
       AND ${transactionsOfOfficeSql(office)}
     ${order}`;
  return Prisma.sql`${select}
      FROM (SELECT kd.id FROM key_dates kd
             WHERE kd.date BETWEEN ${from}::date AND ${to}::date
               AND kd.transaction_id IN (SELECT id FROM transactions
                                          WHERE user_id = ${agentId}::uuid AND deleted_at IS NULL)
            OFFSET 0) AS hit
      JOIN key_dates k ON k.id = hit.id
      JOIN transactions t ON t.id = k.transaction_id
     ${order}`;
}

const toEvent = (row: EventRow): CalendarEvent => ({
  transactionId: row.transaction_id,
  streetAddress: row.street_address,
  kind: row.kind,
  label: row.label,
  date: row.date,
  done: row.done,
});

export async function listCalendar(ctx: CallerContext, input: CalendarInput): Promise<CalendarAnswer> {
  if (ctx.user.role !== 'admin') return agentCalendar(ctx, input);
  // An admin naming an agent of another office finds no such agent (404).
  if (input.agentId) await assertActsForUser(ctx, input.agentId);
  const agentId = input.agentId ?? null;
  const office = officeOfLists(ctx.user, input.officeId);
  const rows = await eventRows(ctx, { from: input.from, to: input.to, agentId, office });
  return { events: rows.map(toEvent) };
}

/**
 * An agent's calendar: its own key dates and, for a coordinator, those of the agents it works for;
 * `agentId` narrows it to one of them (403 for anyone else's, as for any path naming a user).
 */
async function agentCalendar(ctx: CallerContext, input: CalendarInput): Promise<CalendarAnswer> {
  if (input.agentId) await assertActsForUser(ctx, input.agentId);
  const agentIds = input.agentId ? [input.agentId] : agentsOf(ctx.user);
  const rows = await agentEventRows(ctx, { from: input.from, to: input.to, agentIds });
  return { events: rows.map(toEvent) };
}

/** The events of a range of some agents: one agent's through calendarSql's plan, several by id. */
async function agentEventRows(
  ctx: ServiceContext,
  { from, to, agentIds }: { from: string; to: string; agentIds: readonly string[] },
): Promise<EventRow[]> {
  const [only] = agentIds;
  if (agentIds.length === 1 && only !== undefined) return eventRows(ctx, { from, to, agentId: only });
  return ctx.db.$queryRaw<EventRow[]>`
    SELECT k.id, k.transaction_id, t.street_address, k.kind, k.label,
           to_char(k.date, 'YYYY-MM-DD') AS date, k.done, k.updated_at
      FROM (SELECT kd.id FROM key_dates kd
             WHERE kd.date BETWEEN ${from}::date AND ${to}::date
               AND kd.transaction_id IN (SELECT id FROM transactions
                                          WHERE user_id = ANY (${[...agentIds]}::uuid[]) AND deleted_at IS NULL)
            OFFSET 0) AS hit
      JOIN key_dates k ON k.id = hit.id
      JOIN transactions t ON t.id = k.transaction_id
     ORDER BY k.date, t.street_address, k.position LIMIT ${MAX_CALENDAR_EVENTS}`;
}

/** The agents of an agent's feed: itself and those it coordinates for, as its calendar shows. */
async function feedAgents(ctx: ServiceContext, userId: string): Promise<string[]> {
  const rows = await ctx.db.coordination.findMany({
    where: { coordinatorId: userId },
    select: { agentId: true },
  });
  return agentsOf({
    id: userId,
    role: 'user',
    isOwner: false,
    coordinatesFor: rows.map((row) => row.agentId),
  });
}

/** A new secret feed address; the one before stops working (its hash is replaced). */
export async function createCalendarFeed(ctx: CallerContext): Promise<{ url: string }> {
  const token = newSecretToken();
  await ctx.db.user.update({
    where: { id: ctx.user.id },
    data: { calendarFeedHash: hashSecretToken(token) },
  });
  return { url: `${ctx.deps.config.appUrl}/calendar/${token}.ics` };
}

const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The feed of a secret token as RFC 5545 text, or null for a token nobody holds (then 404: the
 * address reveals nothing). A deactivated account's feed stops too.
 */
export async function calendarFeed(
  ctx: ServiceContext,
  { token }: { token: string },
): Promise<string | null> {
  const user = await ctx.db.user.findUnique({
    where: { calendarFeedHash: hashSecretToken(token) },
    select: {
      id: true,
      role: true,
      isOwner: true,
      officeId: true,
      timezone: true,
      isAdminApproved: true,
      firstName: true,
    },
  });
  if (!user?.isAdminApproved) return null;
  const today = todayIn(user.timezone, ctx.deps.clock.now());
  const range = { from: shiftDay(today, -FEED_PAST_DAYS), to: shiftDay(today, FEED_FUTURE_DAYS) };
  const rows =
    user.role === 'admin'
      ? // An office admin's feed is its office's, as its calendar.
        await eventRows(ctx, { ...range, agentId: null, office: officeOfLists(user) })
      : await agentEventRows(ctx, { ...range, agentIds: await feedAgents(ctx, user.id) });
  return toICalendar(rows, {
    appUrl: ctx.deps.config.appUrl,
    now: ctx.deps.clock.now(),
    admin: user.role === 'admin',
  });
}

function toICalendar(
  rows: EventRow[],
  { appUrl, now, admin }: { appUrl: string; now: Date; admin: boolean },
): string {
  let host = 'localhost';
  try {
    host = new URL(appUrl).hostname || host;
  } catch {
    // APP_URL is validated at start.
  }
  const calendar = ical({
    prodId: { company: 'Brokerage Portal', product: 'Key dates', language: 'EN' },
    scale: 'GREGORIAN',
    method: ICalCalendarMethod.PUBLISH,
    name: 'Brokerage Portal key dates',
    // Ask calendar apps to look again hourly (Outlook and Apple honour this; Google polls itself).
    ttl: 60 * 60,
  });
  for (const row of rows) {
    const path = admin
      ? `/adminTransactions/transactions/${row.transaction_id}`
      : `/home/transactions/${row.transaction_id}`;
    calendar.createEvent({
      id: `${row.id}@${host}`,
      stamp: now,
      lastModified: row.updated_at,
      // Increases with every edit of the date, so subscribers replace their copy.
      sequence: Math.max(0, Math.floor(row.updated_at.getTime() / 1000) - 1_700_000_000),
      allDay: true,
      start: row.date,
      end: shiftDay(row.date, 1),
      summary: `${row.done ? 'Done: ' : ''}${row.label}: ${row.street_address}`,
      description: `${row.label} for ${row.street_address}. ${appUrl}${path}`,
      url: `${appUrl}${path}`,
      transparency: ICalEventTransparency.TRANSPARENT,
    });
  }
  return calendar.toString();
}
