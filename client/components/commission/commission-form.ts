import { commissionMessages } from '../../../shared/commission-messages';
import {
  type SetCommissionInput,
  setCommissionInput,
  type TransactionCommission,
} from '../../../shared/schemas/commission';
import { centsOfDollars, dollarsText, percentOfText, percentText } from './money';

/**
 * The Commission card's fields as typed, and the commission they mean: an amount in dollars
 * (sent in cents) or a rate of the sale price, and an optional referral.
 */

export type CommissionMode = 'amount' | 'rate';

export type CommissionDraft = {
  mode: CommissionMode;
  /** Dollars as typed. */
  amount: string;
  /** A percent as typed. */
  rate: string;
  referralName: string;
  referralPercent: string;
};

export type CommissionField = 'amount' | 'rate' | 'referralName' | 'referralPercent';
export type CommissionErrors = Partial<Record<CommissionField, string>>;

export const NOT_DOLLARS = 'Enter an amount in dollars, like 12,500.00';
export const NOT_PERCENT = 'Enter a percent, like 2.5';
export const REFERRAL_INCOMPLETE = 'Give both the referral’s name and percent, or neither';

export function draftOfCommission(commission: TransactionCommission | null): CommissionDraft {
  const referral = commission?.referral;
  const base = {
    referralName: referral?.name ?? '',
    referralPercent: referral ? percentText(referral.percent) : '',
  };
  if (commission?.ratePercent != null)
    return { mode: 'rate', amount: '', rate: percentText(commission.ratePercent), ...base };
  return {
    mode: 'amount',
    amount: commission?.grossCents != null ? dollarsText(commission.grossCents) : '',
    rate: '',
    ...base,
  };
}

/** Where a refusal's path belongs among the card's fields. */
export function fieldOfPath(path: string): CommissionField | undefined {
  if (path === 'grossCommissionCents') return 'amount';
  if (path === 'ratePercent') return 'rate';
  if (path === 'referral.name') return 'referralName';
  if (path === 'referral.percent' || path === 'referral') return 'referralPercent';
  return undefined;
}

/** A refusal without a path that still belongs to a field. */
export function fieldOfMessage(message: string): CommissionField | undefined {
  return message === commissionMessages.needsSalePrice ? 'rate' : undefined;
}

/** The draft as the call that sets it, or the fields it gets wrong (checked by the shared schema). */
export function commissionInputOf(
  id: string,
  draft: CommissionDraft,
): { input: SetCommissionInput } | { errors: CommissionErrors } {
  const errors: CommissionErrors = {};
  const amount = draft.mode === 'amount' ? centsOfDollars(draft.amount) : undefined;
  const rate = draft.mode === 'rate' ? percentOfText(draft.rate) : undefined;
  if (Number.isNaN(amount)) errors.amount = NOT_DOLLARS;
  if (Number.isNaN(rate)) errors.rate = NOT_PERCENT;
  if (amount === null) errors.amount = 'Enter the gross commission';
  if (rate === null) errors.rate = 'Enter the rate';

  const name = draft.referralName.trim();
  const percent = percentOfText(draft.referralPercent);
  if (Number.isNaN(percent)) errors.referralPercent = NOT_PERCENT;
  else if (name === '' && percent !== null) errors.referralName = REFERRAL_INCOMPLETE;
  else if (name !== '' && percent === null) errors.referralPercent = REFERRAL_INCOMPLETE;

  const parsed = setCommissionInput.safeParse({
    id,
    ...(amount != null && !Number.isNaN(amount) ? { grossCommissionCents: amount } : {}),
    ...(rate != null && !Number.isNaN(rate) ? { ratePercent: rate } : {}),
    referral: name && percent !== null && !Number.isNaN(percent) ? { name, percent } : null,
  });
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = fieldOfPath(issue.path.map(String).join('.'));
      if (field) errors[field] ??= issue.message;
    }
  if (Object.keys(errors).length || !parsed.success) return { errors };
  return { input: parsed.data };
}

/**
 * The gross a typed rate makes of the sale price, as the server works it out: rounded down to
 * the cent. In BigInt: a sale price of billions times thousandths of a percent passes 2^53.
 */
export function grossOfRate(salePriceCents: number | null, rateText: string): number | null {
  const rate = percentOfText(rateText);
  if (salePriceCents === null || rate === null || Number.isNaN(rate)) return null;
  const thousandths = BigInt(Math.round(rate * 1000));
  return Number((BigInt(salePriceCents) * thousandths) / 100_000n);
}
