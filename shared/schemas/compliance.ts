import { z } from 'zod';
import { complianceMessages } from '../messages';
import { idSchema, pagingInput } from './common';
import { officeFilter, reasonCode, transactionForm, transactionSummary } from './transactions';

/**
 * The compliance desk: rejection reasons, the review queue and bulk
 * review. Waivers, versions and closing belong to a transaction and live in ./transactions.
 */

const MAX_LABEL = 100;
const label = z
  .string({ error: complianceMessages.reasonLabelRequired })
  .trim()
  .min(1, { error: complianceMessages.reasonLabelRequired })
  .max(MAX_LABEL, { error: `Cannot exceed ${MAX_LABEL} characters` });

export const rejectionReason = z.object({ code: z.string(), label: z.string(), active: z.boolean() });
export type RejectionReason = z.infer<typeof rejectionReason>;
export const rejectionReasonsAnswer = z.array(rejectionReason);

export const createRejectionReasonInput = z.object({ label });
export const updateRejectionReasonInput = z
  .object({ code: reasonCode, label: label.optional(), active: z.boolean().optional() })
  .refine((input) => input.label !== undefined || input.active !== undefined, {
    error: 'Give a label, active, or both',
    path: ['label'],
  });
export type UpdateRejectionReasonInput = z.infer<typeof updateRejectionReasonInput>;

/**
 * The code a label gets: kebab-case ASCII ("Missing signature" -> missing-signature). Accents are
 * dropped, not lost; a label with no letter or digit at all gets "reason".
 */
export function reasonCodeOf(text: string): string {
  const code = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return code || 'reason';
}

export const REVIEW_KINDS = ['document', 'waiver'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

export const reviewQueueInput = pagingInput.extend({
  /** A transaction type, exactly as templates spell it. */
  type: z.string().trim().max(200, { error: 'Cannot exceed 200 characters' }).optional(),
  agentId: idSchema.optional(),
  /** A brokerage-wide admin's filter to one office; an office admin's queue is its office's. */
  ...officeFilter,
});
export type ReviewQueueInput = z.infer<typeof reviewQueueInput>;

/** A transaction as the desk's lists show it: where, what kind, and whose. */
export const deskTransaction = transactionSummary.pick({
  _id: true,
  streetAddress: true,
  city: true,
  state: true,
  zip: true,
  type: true,
  role: true,
  user: true,
});

/** An office as the desk names it. */
export const officeRef = z.object({ _id: idSchema, name: z.string() });
export type OfficeRef = z.infer<typeof officeRef>;

/** How long an item may wait for review in a file with no office (an office sets its own). */
export const DEFAULT_REVIEW_TARGET_HOURS = 24;

export const reviewQueueItem = z.object({
  transaction: deskTransaction,
  form: transactionForm,
  /** When the item entered the queue: its file's attachment, or its waiver's request. */
  submittedAt: z.iso.datetime(),
  waitingSeconds: z.number().int(),
  kind: z.enum(REVIEW_KINDS),
  /** Waiting longer than its office's review target (DEFAULT_REVIEW_TARGET_HOURS without an office). */
  overdue: z.boolean(),
  /** The transaction's office (its agent's); null when the agent has none. */
  office: officeRef.nullable(),
});
export type ReviewQueueItem = z.infer<typeof reviewQueueItem>;

export const reviewQueuePage = z.object({
  items: z.array(reviewQueueItem),
  totalPages: z.number().int(),
  totalItems: z.number().int(),
});
export type ReviewQueuePage = z.infer<typeof reviewQueuePage>;

export const MAX_BULK_REVIEW = 100;
export const bulkReviewInput = z.object({
  items: z
    .array(
      z.object({
        transactionId: idSchema,
        formId: idSchema,
        /** As in a single review: the version the reviewer saw, refused if replaced since. */
        version: z.coerce.number().int().min(1).optional(),
      }),
    )
    .min(1, { error: 'Choose at least one document' })
    .max(MAX_BULK_REVIEW, { error: `At most ${MAX_BULK_REVIEW} documents at once` })
    .refine((items) => new Set(items.map((item) => item.formId)).size === items.length, {
      error: complianceMessages.duplicateItems,
    }),
});
export type BulkReviewInput = z.infer<typeof bulkReviewInput>;
export const bulkReviewAnswer = z.object({ reviewed: z.number().int() });
