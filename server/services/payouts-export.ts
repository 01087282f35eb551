import type { PayoutsInput } from '../../shared/schemas/commission';
import { Prisma } from '../db/generated/client';
import { dateOfCalendarDay } from './calendar-days';
import { type Column, headerOf, iso, linesSql } from './export-sql';
import { transactionsOfOfficeSql } from './reach';

/**
 * The payouts export (GET /api/admin/payouts.csv): one row per line of every paid CDA, by the
 * UTC day it was paid. A CDA's lines are its money columns in the order the CDA lists them
 * (referral, brokerage, agent, fee); the referral and fee lines exist only when their column is
 * set, the brokerage and agent lines always (a line of 0 cents is still paid out as 0). Paid CDAs
 * of transactions deleted since are included: the money went out. Dollars are worked out from the
 * cents by PostgreSQL's numeric (exact), never by a float.
 */

const DAY_MS = 86_400_000;

/** The lines of CDA `c`, in order: (position, kind, payee, cents); an absent line's cents are null. */
const LINES = `CROSS JOIN LATERAL (VALUES
    (1, 'referral', c.referral_name, c.referral_cents),
    (2, 'brokerage', c.brokerage_name, c.brokerage_cents),
    (3, 'agent', c.agent_name, c.agent_cents),
    (4, 'fee', c.brokerage_name, c.fee_cents)) AS l(position, kind, payee, cents)`;

const PAYOUT_COLUMN_SQL: readonly Column[] = [
  ['paid_at', iso('c.paid_at'), 'safe'],
  ['cda_id', 'c.id', 'safe'],
  ['version', 'c.version', 'safe'],
  ['transaction_id', 't.id', 'safe'],
  ['street_address', 't.street_address', 'text'],
  ['city', 't.city', 'text'],
  ['state', 't.state', 'text'],
  ['zip', 't.zip', 'text'],
  // The agent the CDA pays, named as it was when the CDA was issued.
  ['agent_id', 'c.agent_id', 'safe'],
  ['agent_name', 'c.agent_name', 'text'],
  ['office', 'o.name::text', 'text'],
  ['line', 'l.kind', 'safe'],
  ['payee', 'l.payee', 'text'],
  ['amount_cents', 'l.cents', 'safe'],
  // numeric times 0.01 has exactly two decimals: 12345 -> 123.45, 5 -> 0.05, 0 -> 0.00.
  ['amount_dollars', 'l.cents * 0.01', 'safe'],
];
export const PAYOUT_COLUMNS = headerOf(PAYOUT_COLUMN_SQL);

/**
 * The lines of the paid CDAs paid from `from` to `to` (UTC days, inclusive; either open) of
 * `officeId`'s transactions (settled by services/reach.ts officeOfLists; absent: every office),
 * by paid_at, then CDA, then line. Reads cdas_paid_at_idx. Exported for the benchmark.
 */
export function payoutsExportSql({ from, to, officeId }: PayoutsInput): Prisma.Sql {
  const filters = [
    Prisma.sql`c.status = 'paid' AND l.cents IS NOT NULL`,
    ...(from ? [Prisma.sql`c.paid_at >= ${dateOfCalendarDay(from)}::timestamptz`] : []),
    ...(to
      ? [Prisma.sql`c.paid_at < ${new Date(dateOfCalendarDay(to).getTime() + DAY_MS)}::timestamptz`]
      : []),
    transactionsOfOfficeSql(officeId ?? null),
  ];
  return linesSql(
    PAYOUT_COLUMN_SQL,
    Prisma.sql`FROM cdas c
      JOIN transactions t ON t.id = c.transaction_id
      LEFT JOIN offices o ON o.id = t.office_id
      ${Prisma.raw(LINES)}
     WHERE ${Prisma.join(filters, ' AND ')}
     ORDER BY c.paid_at, c.id, l.position`,
  );
}
