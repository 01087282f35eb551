import { z } from 'zod';
import { commissionMessages } from '../commission-messages';
import { keyDateMessages } from '../messages';
import { idSchema } from './common';
import { SALE_PRICE_MAX_CENTS } from './facts';
import { calendarDay } from './key-dates';

/**
 * Commission plans (how an agent's commissions split with the brokerage) and a transaction's
 * commission. Money is integer cents; percents of a commission carry up to 3 decimals.
 */

const MAX_NAME = 100;
/** Any amount of cents the portal takes: up to the largest sale price. */
const cents = z.number().int().min(0).max(SALE_PRICE_MAX_CENTS);

export const commissionPlanInput = z.strictObject({
  name: z
    .string({ error: commissionMessages.nameRequired })
    .trim()
    .min(1, { error: commissionMessages.nameRequired })
    .max(MAX_NAME, { error: `Cannot exceed ${MAX_NAME} characters` }),
  /** The agent's whole percent of what remains after any referral; the brokerage takes the rest. */
  agentSplit: z.number().int().min(0).max(100),
  /** The most the brokerage takes of one agent's commissions in a calendar year; null: no cap. */
  capCents: cents.nullable(),
  /** Moved from the agent's share to the brokerage on every transaction. */
  transactionFeeCents: cents.default(0),
});
export type CommissionPlanInput = z.infer<typeof commissionPlanInput>;
export const updateCommissionPlanInput = commissionPlanInput.extend({ id: idSchema });
export type UpdateCommissionPlanInput = z.infer<typeof updateCommissionPlanInput>;

export const commissionPlan = z.object({
  _id: idSchema,
  name: z.string(),
  agentSplit: z.number().int(),
  capCents: z.number().int().nullable(),
  transactionFeeCents: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type CommissionPlan = z.infer<typeof commissionPlan>;
export const commissionPlansAnswer = z.array(commissionPlan);

/** A percent with at most 3 decimals (12.345), so it is stored exactly in thousandths. */
const hasThreeDecimals = (value: number) => Math.abs(value * 1000 - Math.round(value * 1000)) < 1e-6;
const percent = (max: { value: number; inclusive: boolean }) =>
  z
    .number()
    // The least percent 3 decimals hold: anything smaller would be stored as 0.
    .gte(0.001, { error: 'Must be at least 0.001' })
    .refine((value) => (max.inclusive ? value <= max.value : value < max.value), {
      error: `Must be ${max.inclusive ? 'at most' : 'below'} ${max.value}`,
    })
    .refine(hasThreeDecimals, { error: commissionMessages.threeDecimals });

export const referral = z.strictObject({
  name: z.string().trim().min(1).max(MAX_NAME),
  /** The referral's percent of the gross commission: above 0, below 100. */
  percent: percent({ value: 100, inclusive: false }),
});

/** Exactly one of grossCommissionCents and ratePercent (of the sale price). */
export const setCommissionInput = z
  .strictObject({
    id: idSchema,
    grossCommissionCents: cents.min(1).optional(),
    ratePercent: percent({ value: 100, inclusive: true }).optional(),
    referral: referral.nullable().optional(),
  })
  .refine((input) => (input.grossCommissionCents === undefined) !== (input.ratePercent === undefined), {
    error: commissionMessages.grossOrRate,
    path: ['grossCommissionCents'],
  });
export type SetCommissionInput = z.infer<typeof setCommissionInput>;

/**
 * A transaction's commission. With a rate, grossCents is the rate of the sale price as it is now,
 * rounded down to the cent (null while the sale price is not set); ratePercent is null when a
 * gross amount was given.
 */
export const transactionCommission = z.object({
  grossCents: z.number().int().nullable(),
  ratePercent: z.number().nullable(),
  referral: z.object({ name: z.string(), percent: z.number() }).nullable(),
});
export type TransactionCommission = z.infer<typeof transactionCommission>;

/** Who a CDA line pays: a referral, the brokerage (its share and the transaction fee), the agent. */
export const CDA_LINE_KINDS = ['referral', 'brokerage', 'agent', 'fee'] as const;
export const CDA_STATUSES = ['issued', 'paid', 'superseded'] as const;

export const issueCdaInput = z.strictObject({
  id: idSchema,
  /** For a file that is not compliant yet: brokerage-wide admins only, with the reason. */
  override: z
    .strictObject({
      reason: z
        .string({ error: commissionMessages.overrideReasonRequired })
        .trim()
        .min(1, { error: commissionMessages.overrideReasonRequired })
        .max(500, { error: 'Cannot exceed 500 characters' }),
    })
    .optional(),
});
export type IssueCdaInput = z.infer<typeof issueCdaInput>;

export const markCdaPaidInput = z.strictObject({
  id: idSchema,
  cdaId: idSchema,
  /** When the money went out; default now. Not in the future. */
  paidAt: z.iso.datetime({ offset: true }).optional(),
});
export type MarkCdaPaidInput = z.infer<typeof markCdaPaidInput>;

export const cdaLine = z.object({
  kind: z.enum(CDA_LINE_KINDS),
  /** The referral's name, the brokerage's name, or the agent's name. */
  payee: z.string(),
  amountCents: z.number().int().nonnegative(),
});
export type CdaLine = z.infer<typeof cdaLine>;

const userRef = z.object({ _id: idSchema, name: z.string() });

export const cda = z.object({
  _id: idSchema,
  transactionId: idSchema,
  version: z.number().int().positive(),
  status: z.enum(CDA_STATUSES),
  lines: z.array(cdaLine),
  grossCents: z.number().int().positive(),
  /** A signed link to the PDF, valid for a while like every download link. */
  pdfUrl: z.string(),
  /** Hex SHA-256 of the PDF's bytes. */
  sha256: z.string(),
  issuedAt: z.iso.datetime(),
  issuedBy: userRef,
  /** Set when a brokerage-wide admin issued it for a file that was not compliant. */
  override: z.object({ reason: z.string() }).nullable(),
  paidAt: z.iso.datetime().nullable(),
  paidBy: userRef.nullable(),
  supersededAt: z.iso.datetime().nullable(),
  /** The plan as it was when issued, and the brokerage's shares of the agent's year before it. */
  plan: z.object({
    name: z.string(),
    agentSplit: z.number().int(),
    capCents: z.number().int().nullable(),
    transactionFeeCents: z.number().int(),
  }),
  brokerageYearToDateCents: z.number().int().nonnegative(),
});
export type Cda = z.infer<typeof cda>;
export const cdasAnswer = z.array(cda);

/**
 * The paid CDAs' lines, by the day they were paid (UTC days, both inclusive; default: all), of
 * the transactions the admin reaches; `officeId` narrows a brokerage-wide admin's to one office
 * (as the admin lists' filter: an office admin's are its office's whatever it asks).
 */
export const payoutsInput = z
  .object({ from: calendarDay.optional(), to: calendarDay.optional(), officeId: idSchema.optional() })
  .refine((value) => !value.from || !value.to || value.from <= value.to, {
    error: keyDateMessages.rangeReversed,
    path: ['to'],
  });
export type PayoutsInput = z.infer<typeof payoutsInput>;
