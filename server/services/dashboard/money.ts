import { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';
import type { ServiceContext } from '../context';
import { transactionsOfOfficeSql } from '../reach';
import type { DayRange } from './range';

/**
 * The money of the range: each transaction's current CDA (issued or paid; a superseded version
 * never counts), dated by when it was paid, or, while unpaid, by when its transaction closed (an
 * unpaid CDA of an open file has no date yet and is not counted, nor one of a deleted file: it
 * will not be paid). A paid CDA counts whatever became of its file since, as in the payouts CSV:
 * the money went out. One part per status, each read from an index of its own for the range: the
 * paid ones by cdas_paid_at_idx (their transaction looked up only for an office's figures), the
 * issued ones by cdas_issued_closed_at_idx (the CDA's copy of its transaction's closed_at, kept by
 * the database), with their transaction by its key for the deletion and the office.
 */
export function moneySql(range: DayRange, office: string | null = null): Prisma.Sql {
  const ofOffice =
    office === null
      ? Prisma.sql`true`
      : Prisma.sql`EXISTS (SELECT FROM transactions t WHERE t.id = c.transaction_id AND ${transactionsOfOfficeSql(office)})`;
  const reached = Prisma.sql`t.deleted_at IS NULL AND ${transactionsOfOfficeSql(office)}`;
  return Prisma.sql`
    WITH counted AS (
      SELECT c.paid_at AS at, false AS pending, c.gross_cents, c.brokerage_cents, c.agent_cents, c.fee_cents
        FROM cdas c
       WHERE c.status = 'paid' AND c.paid_at >= ${range.start} AND c.paid_at < ${range.end} AND ${ofOffice}
      UNION ALL
      SELECT c.closed_at, true, c.gross_cents, c.brokerage_cents, c.agent_cents, c.fee_cents
        FROM cdas c JOIN transactions t ON t.id = c.transaction_id
       WHERE c.status = 'issued' AND c.closed_at >= ${range.start} AND c.closed_at < ${range.end}
         AND ${reached}
    )
    SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM') AS month,
           sum(gross_cents)::text AS gross,
           sum(brokerage_cents + coalesce(fee_cents, 0))::text AS brokerage,
           sum(agent_cents)::text AS agent,
           coalesce(sum(gross_cents) FILTER (WHERE pending), 0)::text AS pending
      FROM counted
     GROUP BY 1`;
}

/** Every month from `from` to `to` (days), `YYYY-MM`, ascending. */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  let [year, month] = [Number(from.slice(0, 4)), Number(from.slice(5, 7))];
  const last = to.slice(0, 7);
  for (;;) {
    const name = `${year}-${String(month).padStart(2, '0')}`;
    months.push(name);
    if (name >= last) return months;
    month += 1;
    if (month > 12) [year, month] = [year + 1, 1];
  }
}

type MoneyRow = { month: string; gross: string; brokerage: string; agent: string; pending: string };

export async function moneyFigures(ctx: ServiceContext, range: DayRange, office: string | null = null) {
  const rows = await sqlRows<MoneyRow>(ctx.db, moneySql(range, office));
  // Sums of bigint columns come as text and are added as integers: never a float on the way.
  const total = (pick: (row: MoneyRow) => string) => rows.reduce((sum, row) => sum + BigInt(pick(row)), 0n);
  const byMonth = new Map(rows.map((row) => [row.month, Number(row.gross)]));
  return {
    grossCents: Number(total((row) => row.gross)),
    brokerageCents: Number(total((row) => row.brokerage)),
    agentCents: Number(total((row) => row.agent)),
    pendingCents: Number(total((row) => row.pending)),
    byMonth: monthsOf(range.from, range.to).map((month) => ({ month, grossCents: byMonth.get(month) ?? 0 })),
  };
}
