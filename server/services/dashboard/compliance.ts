import { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';
import type { ServiceContext } from '../context';
import { transactionsOfOfficeSql } from '../reach';
import type { DayRange } from './range';

/**
 * The undeleted transactions whose closing date falls within the range and not after today, and
 * those of them compliant by the end of that day (UTC): compliant_at before midnight after the
 * closing date. Both columns are kept by the database (migration 20261129090000), so this reads
 * transactions_closing_date_idx alone (an office's, settled by officeOfLists, is checked on each
 * row of the range).
 */
export function complianceSql(range: DayRange, office: string | null = null): Prisma.Sql {
  return Prisma.sql`
    SELECT to_char(t.closing_date, 'YYYY-MM') AS month, count(*)::int AS closed,
           count(*) FILTER (WHERE t.compliant_at < ((t.closing_date + 1)::timestamp AT TIME ZONE 'UTC'))::int
             AS compliant
      FROM transactions t
     WHERE t.closing_date IS NOT NULL AND t.deleted_at IS NULL
       AND t.closing_date >= ${range.from}::date AND t.closing_date <= least(${range.to}::date, ${range.today}::date)
       AND ${transactionsOfOfficeSql(office)}
     GROUP BY 1
     ORDER BY 1`;
}

export async function complianceFigures(ctx: ServiceContext, range: DayRange, office: string | null = null) {
  const rows = await sqlRows<{ month: string; closed: number; compliant: number }>(
    ctx.db,
    complianceSql(range, office),
  );
  const byMonth = rows.map((row) => ({
    month: row.month,
    closed: row.closed,
    compliantAtClose: row.compliant,
  }));
  return {
    closed: byMonth.reduce((sum, row) => sum + row.closed, 0),
    compliantAtClose: byMonth.reduce((sum, row) => sum + row.compliantAtClose, 0),
    byMonth,
  };
}
