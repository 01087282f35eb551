import { Prisma } from '../../db/generated/client';
import { addDays, type DayRange } from './range';

/**
 * The decisions' counts the database keeps twice, per UTC day and per UTC calendar month (the
 * same triggers, the same transaction: migration 20261207090000). A range sums its whole months
 * from the monthly counts and the days before and after them from the daily ones, so a year is
 * twelve months and a few dozen days rather than 365 days of rows.
 */

/** A part of a range: days `from` to `to`, or the months whose first days are `from` to `to`. */
export type RangePart = { counts: 'days' | 'months'; from: string; to: string };

const firstOfMonth = (day: string) => `${day.slice(0, 7)}-01`;
const firstOfNextMonth = (day: string) => firstOfMonth(addDays(firstOfMonth(day), 31));

/** The range's whole months, and the days before and after them; its days alone without one. */
export function partsOf(range: Pick<DayRange, 'from' | 'to'>): RangePart[] {
  const monthsFrom = range.from === firstOfMonth(range.from) ? range.from : firstOfNextMonth(range.from);
  // The first day of the month after the last whole one (the range's last day ends its month).
  const monthsEnd = firstOfMonth(addDays(range.to, 1));
  if (monthsFrom >= monthsEnd) return [{ counts: 'days', from: range.from, to: range.to }];
  const parts: RangePart[] = [];
  if (range.from < monthsFrom) parts.push({ counts: 'days', from: range.from, to: addDays(monthsFrom, -1) });
  parts.push({ counts: 'months', from: monthsFrom, to: firstOfMonth(addDays(monthsEnd, -1)) });
  if (monthsEnd <= range.to) parts.push({ counts: 'days', from: monthsEnd, to: range.to });
  return parts;
}

/** A pair of tables keeping the same counts by day (column `day`) and by month (`month`). */
export type Rollup = { days: string; months: string };

export const AGENT_TURNAROUNDS: Rollup = {
  days: 'review_agent_turnarounds',
  months: 'review_agent_turnaround_months',
};
export const TURNAROUNDS: Rollup = { days: 'review_turnarounds', months: 'review_turnaround_months' };
export const AGENT_DECISIONS: Rollup = { days: 'review_agent_days', months: 'review_agent_months' };

/**
 * `SELECT columns` of the rollup's rows over the range (as alias `r`, with `where` on each part),
 * a UNION ALL of its parts: each part reads its own table by its own key.
 */
export function rowsOverRange(
  range: Pick<DayRange, 'from' | 'to'>,
  rollup: Rollup,
  columns: Prisma.Sql,
  where: Prisma.Sql = Prisma.empty,
): Prisma.Sql {
  const parts = partsOf(range).map((part) => {
    const table = Prisma.raw(part.counts === 'days' ? rollup.days : rollup.months);
    const column = Prisma.raw(part.counts === 'days' ? 'r.day' : 'r.month');
    return Prisma.sql`SELECT ${columns} FROM ${table} r
       WHERE ${column} >= ${part.from}::date AND ${column} <= ${part.to}::date ${where}`;
  });
  return Prisma.join(parts, ' UNION ALL ');
}
