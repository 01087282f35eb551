import { AT_RISK_DAYS, AT_RISK_LIMIT } from '../../../shared/schemas/dashboard';
import { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';
import type { ServiceContext } from '../context';
import { transactionsOfOfficeSql } from '../reach';
import { addDays } from './range';

type AtRiskRow = {
  id: string;
  street_address: string;
  city: string;
  state: string;
  zip: string;
  type: string;
  role: string;
  user_id: string;
  first_name: string;
  last_name: string;
  closing_date: string;
  missing: number;
  rejected: number;
  awaiting: number;
};

/**
 * Open, undeleted transactions closing from today to today + 6 (UTC) that are not compliant,
 * soonest first, from transactions_at_risk_idx (which holds only such files, by closing date):
 * the first 100 rows of the week and no more. The counts are the kept progress counters of each.
 * `office` (settled by services/reach.ts officeOfLists; null: every office) holds them to one.
 */
export function atRiskSql(today: string, limit = AT_RISK_LIMIT, office: string | null = null): Prisma.Sql {
  return Prisma.sql`
    SELECT t.id::text AS id, t.street_address, t.city, t.state, t.zip, t.type, t.role,
           t.user_id::text AS user_id, u.first_name, u.last_name,
           to_char(t.closing_date, 'YYYY-MM-DD') AS closing_date,
           t.missing_count AS missing, t.rejected_count AS rejected, t.awaiting_review_count AS awaiting
      FROM transactions t JOIN users u ON u.id = t.user_id
     WHERE ${atRisk(today, office)}
     ORDER BY t.closing_date, t.id
     LIMIT ${limit}`;
}

/** How many files are at risk today, however many the lists show. */
export function atRiskCountSql(today: string, office: string | null = null): Prisma.Sql {
  return Prisma.sql`SELECT count(*)::int AS total FROM transactions t WHERE ${atRisk(today, office)}`;
}

function atRisk(today: string, office: string | null): Prisma.Sql {
  return Prisma.sql`t.closing_date IS NOT NULL AND t.deleted_at IS NULL
       AND t.closing_date >= ${today}::date AND t.closing_date <= ${addDays(today, AT_RISK_DAYS - 1)}::date
       AND t.closed_at IS NULL AND t.compliance_state NOT IN ('compliant', 'closed')
       AND ${transactionsOfOfficeSql(office)}`;
}

export async function atRiskFigures(
  ctx: ServiceContext,
  today: string,
  limit = AT_RISK_LIMIT,
  office: string | null = null,
) {
  const rows = await sqlRows<AtRiskRow>(ctx.db, atRiskSql(today, limit, office));
  return rows.map((row) => ({
    transaction: {
      _id: row.id,
      streetAddress: row.street_address,
      city: row.city,
      state: row.state,
      zip: row.zip,
      type: row.type,
      role: row.role,
      user: { _id: row.user_id, firstName: row.first_name, lastName: row.last_name },
    },
    closingDate: row.closing_date,
    missing: row.missing,
    rejected: row.rejected,
    awaitingReview: row.awaiting,
  }));
}
