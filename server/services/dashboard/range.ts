import { keyDateMessages } from '../../../shared/messages';
import {
  type DashboardInput,
  DEFAULT_DASHBOARD_DAYS,
  MAX_DASHBOARD_DAYS,
} from '../../../shared/schemas/dashboard';
import { AppError } from '../../errors';
import { calendarDayOf, dateOfCalendarDay } from '../calendar-days';

const DAY_MS = 86_400_000;

/** A range of whole UTC days: `from` and `to` inclusive, `start` to `end` exclusive. */
export type DayRange = { from: string; to: string; start: Date; end: Date; today: string };

export const addDays = (day: string, days: number): string =>
  calendarDayOf(new Date(dateOfCalendarDay(day).getTime() + days * DAY_MS));

/**
 * The range the figures cover, in UTC days (the desk works for one brokerage, and "the last 30
 * days" must not shift with the viewer's zone): a missing `to` is today, a missing `from` the 30
 * days ending `to`. The schema checks a range given whole; a half-given one is checked here, so
 * `from` alone in the future or years back is a 400 with the same messages, never an empty year.
 */
export function resolveRange(now: Date, input: DashboardInput): DayRange {
  const today = calendarDayOf(now);
  const to = input.to ?? today;
  const from = input.from ?? addDays(to, -(DEFAULT_DASHBOARD_DAYS - 1));
  if (from > to) throw new AppError('BAD_REQUEST', keyDateMessages.rangeReversed);
  const start = dateOfCalendarDay(from);
  const end = dateOfCalendarDay(addDays(to, 1));
  if (end.getTime() - start.getTime() > MAX_DASHBOARD_DAYS * DAY_MS)
    throw new AppError('BAD_REQUEST', keyDateMessages.rangeTooLong(MAX_DASHBOARD_DAYS));
  return { from, to, start, end, today };
}

/** rejected / reviewed, or null when nothing was reviewed. */
export const rateOf = (rejected: number, reviewed: number): number | null =>
  reviewed === 0 ? null : rejected / reviewed;
