import type { Db } from '../db/client';
import { createTransaction, createUser } from './factories';

/**
 * Agents with a commission plan and their transactions with a commission, for the CDA tests: a
 * compliant file has every required item accepted, as the desk's reviews would leave it.
 */

let n = 0;
const unique = () => {
  n += 1;
  return `${Date.now().toString(36)}-${n}`;
};

export type PlanTerms = { agentSplit: number; capCents: number | null; transactionFeeCents: number };

export async function agentOnPlan(db: Db, terms: PlanTerms, overrides: { officeId?: string } = {}) {
  const plan = await db.commissionPlan.create({
    data: {
      name: `CDA plan ${unique()}`,
      agentSplit: terms.agentSplit,
      capCents: terms.capCents === null ? null : BigInt(terms.capCents),
      transactionFeeCents: BigInt(terms.transactionFeeCents),
    },
  });
  return createUser(db, {
    firstName: 'Dana',
    lastName: `Agent ${unique()}`,
    commissionPlan: { connect: { id: plan.id } },
    ...(overrides.officeId ? { office: { connect: { id: overrides.officeId } } } : {}),
  });
}

export type DealOptions = {
  grossCents?: number;
  referral?: { name: string; thousandths: number };
  /** Leave these required items (by position) not accepted. */
  open?: number[];
};

export async function dealOf(db: Db, agentId: string, options: DealOptions = {}) {
  const deal = await createTransaction(db, {
    userId: agentId,
    commissionGrossCents: BigInt(options.grossCents ?? 1_000_000),
    ...(options.referral
      ? {
          commissionReferralName: options.referral.name,
          commissionReferralThousandths: options.referral.thousandths,
        }
      : {}),
  });
  const open = new Set(options.open ?? []);
  const accepted = deal.forms.filter((_form, position) => !open.has(position)).map((form) => form.id);
  await db.transactionForm.updateMany({
    where: { id: { in: accepted } },
    data: { status: 'accepted', fileKey: `transactions/${deal.id}/accepted.pdf`, version: 1 },
  });
  return deal;
}
