import { DEFAULT_TIMEZONE } from '../../shared/schemas/notification-settings';

/**
 * Calendar days (YYYY-MM-DD) and zones. PostgreSQL's `date` comes back from Prisma as
 * a Date at UTC midnight; these turn it, and "now in a zone", into the day a user reads.
 */

/** A `date` column's value as YYYY-MM-DD. */
export const calendarDayOf = (date: Date): string => date.toISOString().slice(0, 10);

/** YYYY-MM-DD as the Date Prisma writes to a `date` column. */
export const dateOfCalendarDay = (day: string): Date => new Date(`${day}T00:00:00.000Z`);

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The day it is at `now` in `timezone` (null: the default zone). */
export function todayIn(timezone: string | null, now: Date): string {
  const zone = timezone ?? DEFAULT_TIMEZONE;
  let format = dayFormats.get(zone);
  if (!format) {
    // en-CA writes YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(zone, format);
  }
  return format.format(now);
}

/** 'Dec 1' for 2026-12-01: how mails, reminders and the lists name a day. */
export function shortDay(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}
