/**
 * How a commission divides, as pure arithmetic in integer cents (no database): the referral
 * first, the rest (net) between the agent and the brokerage by the agent's plan, the brokerage's
 * share held under the plan's yearly cap, then the transaction fee from the agent to the
 * brokerage. Referral and agent shares are rounded down to the cent and the brokerage takes what
 * remains, so the lines always sum to the gross.
 */

export type SplitPlan = {
  /** The agent's percent of the net, 0 to 100. */
  agentSplit: number;
  /** The most the brokerage takes of the agent's commissions in a calendar year; null: no cap. */
  capCents: number | null;
  transactionFeeCents: number;
};

export type SplitInput = {
  grossCents: number;
  /** The referral's percent of the gross (up to 3 decimals), or null: no referral. */
  referralPercent: number | null;
  plan: SplitPlan;
  /** The brokerage's shares already counted for the agent since its last 1 January. */
  brokerageYearToDateCents: number;
};

export type SplitLineKind = 'referral' | 'brokerage' | 'agent' | 'fee';
export type SplitLine = { kind: SplitLineKind; amountCents: number };

/** A percent with up to 3 decimals as an integer count of thousandths of a percent. */
export const thousandthsOf = (percent: number): number => Math.round(percent * 1000);

/** `cents` x `thousandths` / 100,000, rounded down: in bigint, as the product passes 2^53. */
export const shareOf = (cents: number, thousandths: number): number =>
  Number((BigInt(cents) * BigInt(thousandths)) / 100_000n);

function assertCents(name: string, value: number) {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be whole cents >= 0`);
}

/**
 * The lines, in order: referral (only when there is one), brokerage, agent, and fee (only when
 * the plan has one). With a cap, the brokerage line never takes the year's total past it: what
 * would is the agent's. The fee never exceeds the agent's share.
 */
export function splitCommission(input: SplitInput): SplitLine[] {
  const { grossCents, referralPercent, plan, brokerageYearToDateCents } = input;
  assertCents('grossCents', grossCents);
  assertCents('brokerageYearToDateCents', brokerageYearToDateCents);
  assertCents('transactionFeeCents', plan.transactionFeeCents);
  if (plan.capCents !== null) assertCents('capCents', plan.capCents);
  if (!Number.isInteger(plan.agentSplit) || plan.agentSplit < 0 || plan.agentSplit > 100) {
    throw new RangeError('agentSplit must be a whole percent from 0 to 100');
  }
  const referralThousandths = referralPercent === null ? null : thousandthsOf(referralPercent);
  if (referralThousandths !== null && (referralThousandths < 0 || referralThousandths > 100_000)) {
    throw new RangeError('referralPercent must be from 0 to 100');
  }

  const referral = referralThousandths === null ? 0 : shareOf(grossCents, referralThousandths);
  const net = grossCents - referral;
  const agentBeforeCap = shareOf(net, plan.agentSplit * 1000);
  const brokerageBeforeCap = net - agentBeforeCap;
  const room =
    plan.capCents === null ? brokerageBeforeCap : Math.max(0, plan.capCents - brokerageYearToDateCents);
  const brokerage = Math.min(brokerageBeforeCap, room);
  const agentBeforeFee = net - brokerage;
  const fee = Math.min(plan.transactionFeeCents, agentBeforeFee);

  const lines: SplitLine[] = [];
  if (referralThousandths !== null) lines.push({ kind: 'referral', amountCents: referral });
  lines.push({ kind: 'brokerage', amountCents: brokerage });
  lines.push({ kind: 'agent', amountCents: agentBeforeFee - fee });
  if (plan.transactionFeeCents > 0) lines.push({ kind: 'fee', amountCents: fee });
  return lines;
}
