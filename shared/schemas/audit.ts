import { z } from 'zod';
import { idSchema } from './common';

/** The audit trail's hash chain, as GET /api/admin/audit/verify reports it. */
export const auditChainAnswer = z.object({
  /** Every event links to the one before it and hashes to what it holds, up to the chain's head. */
  valid: z.boolean(),
  /** Events in the trail. */
  events: z.number().int(),
  /** The first event whose link or hash does not match; null when valid or only the end is cut off. */
  firstBrokenId: idSchema.nullable(),
});
export type AuditChainAnswer = z.infer<typeof auditChainAnswer>;
