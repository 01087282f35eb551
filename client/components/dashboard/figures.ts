import { MAX_DASHBOARD_DAYS } from '../../../shared/schemas/dashboard';
import { addDays, daysBetween, fromDay, toDay } from '../transactions/key-dates';

/**
 * How the broker dashboard writes its figures and keeps its range in the address. The
 * server counts whole days in UTC (shared/schemas/dashboard.ts), so the presets do too: 'the last
 * 7 days' ends on the server's today, whatever the browser's zone.
 */

/** A person as the dashboard's tables and charts name them. */
export const fullName = (user: { firstName: string; lastName: string }) =>
  `${user.firstName} ${user.lastName}`;

/** What a figure with nothing to measure shows (an empty queue, a range without reviews). */
export const NO_FIGURE = 'No data';

/** A duration as people say it: '2 d 4 h', '3 h 20 min', '45 min', 'under 1 min'. */
export function durationText(seconds: number | null): string {
  if (seconds === null) return NO_FIGURE;
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  if (minutes > 0) return `${minutes} min`;
  return 'under 1 min';
}

const PERCENT = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** A share from 0 to 1 as '12.5%'. */
export function percentText(rate: number | null): string {
  return rate === null ? NO_FIGURE : PERCENT.format(rate);
}

/** compliant / closed as a share, or null when nothing closed. */
export function shareOf(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

/** '2026-11' -> 'Nov 2026'. */
export function monthLabel(month: string): string {
  const date = fromDay(`${month}-01`);
  if (Number.isNaN(date.getTime())) return month;
  return date.toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', year: 'numeric' });
}

/** '2026-11-04' -> 'Nov 4, 2026'. */
export function dayLabel(day: string): string {
  const date = fromDay(day);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString('en-US', {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
}

/** Today as the server counts days (UTC). */
export function utcToday(now: Date = new Date()): string {
  return toDay(now);
}

export const PRESET_DAYS = [7, 30, 90] as const;
export type PresetDays = (typeof PRESET_DAYS)[number];
export const DEFAULT_PRESET: PresetDays = 30;

/** The range the page shows: one of the presets, or two days of the user's choice. */
export type DashboardRange =
  | { kind: 'preset'; days: PresetDays }
  | { kind: 'custom'; from: string; to: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: string | null): value is string =>
  value !== null &&
  DAY.test(value) &&
  !Number.isNaN(fromDay(value).getTime()) &&
  toDay(fromDay(value)) === value;

/**
 * The range in the address: `?range=7` (7, 30 or 90) or `?from=YYYY-MM-DD&to=YYYY-MM-DD`. Anything
 * else (nothing, a hand-edited value) is the default 30 days. A custom range is taken as written,
 * even reversed or too long: the server then says what is wrong with it, and the page shows that.
 */
export function rangeFromSearch(search: string): DashboardRange {
  const query = new URLSearchParams(search);
  const from = query.get('from');
  const to = query.get('to');
  if (isDay(from) && isDay(to)) return { kind: 'custom', from, to };
  const days = Number(query.get('range'));
  const preset = PRESET_DAYS.find((choice) => choice === days);
  return { kind: 'preset', days: preset ?? DEFAULT_PRESET };
}

/** The address's query for a range (without the '?'). */
export function searchOfRange(range: DashboardRange): string {
  const query =
    range.kind === 'preset'
      ? new URLSearchParams({ range: String(range.days) })
      : new URLSearchParams({ from: range.from, to: range.to });
  return query.toString();
}

/** What the dashboard procedure is asked: both days, inclusive; a preset ends today. */
export function inputOfRange(
  range: DashboardRange,
  today: string = utcToday(),
): { from: string; to: string } {
  if (range.kind === 'custom') return { from: range.from, to: range.to };
  return { from: addDays(today, -(range.days - 1)), to: today };
}

export type CustomRangeErrors = { from?: string; to?: string };

export const rangeMessages = {
  fromRequired: 'Choose the first day',
  toRequired: 'Choose the last day',
  reversed: 'The last day must not be before the first day',
  tooLong: `A range may span at most ${MAX_DASHBOARD_DAYS} days`,
} as const;

/** The custom range's two fields, checked as the server will (shared/schemas/dashboard.ts). */
export function customRangeErrors(from: string | null, to: string | null): CustomRangeErrors {
  const errors: CustomRangeErrors = {};
  if (!from) errors.from = rangeMessages.fromRequired;
  if (!to) errors.to = rangeMessages.toRequired;
  if (from && to) {
    const span = daysBetween(from, to);
    if (span < 0) errors.to = rangeMessages.reversed;
    else if (span >= MAX_DASHBOARD_DAYS) errors.to = rangeMessages.tooLong;
  }
  return errors;
}
