import type { CalendarEvent } from '../../../shared/schemas/key-dates';
import { addDays, fromDay } from '../transactions/key-dates';

/** The first day of the month a day is in ('2025-12-14' -> '2025-12-01'). */
export function monthOf(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

/** The first day of the month `months` after the month of `month` (negative: before). */
export function shiftMonth(month: string, months: number): string {
  const date = fromDay(month);
  const shifted = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  return shifted.toISOString().slice(0, 10);
}

/** 'December 2025'. */
export function monthTitle(month: string): string {
  return fromDay(month).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' });
}

/**
 * The days a month view shows: whole weeks, Sunday first, from the week of the 1st to the week of
 * the last day (5 or 6 weeks, the neighbouring months' days included).
 */
export function monthGrid(month: string): string[] {
  const first = fromDay(month);
  const start = addDays(month, -first.getUTCDay());
  const last = addDays(shiftMonth(month, 1), -1);
  const end = addDays(last, 6 - fromDay(last).getUTCDay());
  const days: string[] = [];
  for (let day = start; day <= end; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The events of each day, in the server's order within a day. */
export function eventsByDay(events: readonly CalendarEvent[]): Map<string, CalendarEvent[]> {
  const byDay = new Map<string, CalendarEvent[]>();
  for (const event of events) {
    const list = byDay.get(event.date);
    if (list) list.push(event);
    else byDay.set(event.date, [event]);
  }
  return byDay;
}

export const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
