import { z } from 'zod';
import { auditExportInput } from './audit';
import { idSchema } from './common';
import { reviewQueueInput } from './compliance';
import { adminSearchInput, complianceStatus, officeFilter } from './transactions';
import { usersListInput } from './users';

/**
 * The CSV exports (docs/API.md, "CSV exports"): the filters of the lists they export, without paging (every
 * matching row is sent). What a route answers before streaming is an ExportPlan: who may, and
 * the filter as parsed, settled by a procedure (server/routers/exports.ts) before a byte is sent.
 */

export const transactionsExportInput = z.object({
  status: complianceStatus.optional(),
  /** The admin search's term (address fields and the agent's name); absent or blank: every row. */
  query: adminSearchInput.shape.term.optional(),
  ...officeFilter,
});
export type TransactionsExportInput = z.infer<typeof transactionsExportInput>;

export const reviewQueueExportInput = reviewQueueInput
  .pick({ type: true, agentId: true })
  .extend(officeFilter);
export type ReviewQueueExportInput = z.infer<typeof reviewQueueExportInput>;

export const usersExportInput = usersListInput.pick({ query: true }).extend(officeFilter);
export type UsersExportInput = z.infer<typeof usersExportInput>;

const filename = z.string();
export const exportPlan = z.discriminatedUnion('kind', [
  transactionsExportInput.extend({ kind: z.literal('transactions'), filename }),
  z.object({
    kind: z.literal('review-queue'),
    filename,
    type: z.string().optional(),
    agentId: idSchema.optional(),
    ...officeFilter,
  }),
  usersExportInput.extend({ kind: z.literal('users'), filename }),
  auditExportInput.extend({ kind: z.literal('audit'), filename }),
  z.object({
    kind: z.literal('payouts'),
    filename,
    from: z.string().optional(),
    to: z.string().optional(),
    ...officeFilter,
  }),
]);
export type ExportPlan = z.infer<typeof exportPlan>;
