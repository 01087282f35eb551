import type { TransactionCommission } from '../../../shared/schemas/commission';
import type { Prisma } from '../../db/generated/client';
import { shareOf } from './split';

/**
 * A transaction's commission as answers show it. What was given is stored (a gross amount, or a
 * rate in thousandths of a percent) and the gross of a rate is worked out here on every read, from
 * the sale price as it is then: a later sale price change cannot leave a stale gross behind.
 */

export const commissionSelect = {
  salePriceCents: true,
  commissionGrossCents: true,
  commissionRateThousandths: true,
  commissionReferralName: true,
  commissionReferralThousandths: true,
} as const satisfies Prisma.TransactionSelect;
export type CommissionRow = Prisma.TransactionGetPayload<{ select: typeof commissionSelect }>;

/** The rate's gross, rounded down to the cent; null while the sale price is not set. */
export function grossOf(row: CommissionRow): number | null {
  if (row.commissionRateThousandths !== null) {
    return row.salePriceCents === null
      ? null
      : shareOf(Number(row.salePriceCents), row.commissionRateThousandths);
  }
  return row.commissionGrossCents === null ? null : Number(row.commissionGrossCents);
}

/** Null while no commission was set. */
export function toCommission(row: CommissionRow): TransactionCommission | null {
  if (row.commissionGrossCents === null && row.commissionRateThousandths === null) return null;
  return {
    grossCents: grossOf(row),
    ratePercent: row.commissionRateThousandths === null ? null : row.commissionRateThousandths / 1000,
    referral:
      row.commissionReferralName === null || row.commissionReferralThousandths === null
        ? null
        : { name: row.commissionReferralName, percent: row.commissionReferralThousandths / 1000 },
  };
}
