import { z } from 'zod';
import { retentionMessages } from '../retention-messages';
import { idSchema } from './common';

export const MAX_HOLD_REASON = 500;

/**
 * PUT /api/admin/transactions/{id}/legal-hold. Placing a hold needs its reason (what a court or
 * counsel asked for is what the next admin must read); releasing one takes an optional note, kept
 * in the audit trail.
 */
export const legalHoldInput = z
  .object({
    id: idSchema,
    hold: z.boolean({ error: retentionMessages.holdMustBeBoolean }),
    reason: z
      .string()
      .trim()
      .max(MAX_HOLD_REASON, { error: retentionMessages.reasonTooLong(MAX_HOLD_REASON) })
      .optional(),
  })
  .refine((input) => !input.hold || (input.reason ?? '').length > 0, {
    error: retentionMessages.holdReasonRequired,
    path: ['reason'],
  });
export type LegalHoldInput = z.infer<typeof legalHoldInput>;
