import { auditExportInput } from '../../shared/schemas/audit';
import { payoutsInput } from '../../shared/schemas/commission';
import {
  exportPlan,
  reviewQueueExportInput,
  transactionsExportInput,
  usersExportInput,
} from '../../shared/schemas/exports';
import * as exports from '../services/exports';
import { adminProcedure, router } from '../trpc/init';

/**
 * Who may export what. The CSV routes (server/plugins/exports.ts) stream the
 * rows; before sending a byte they call these procedures, so exports obey the same base
 * procedures, input validation and authorization tests as everything else.
 */
export const exportsRouter = router({
  transactions: adminProcedure
    .input(transactionsExportInput)
    .output(exportPlan)
    .query(({ ctx, input }) => exports.planTransactionsExport(ctx, input)),

  reviewQueue: adminProcedure
    .input(reviewQueueExportInput)
    .output(exportPlan)
    .query(({ ctx, input }) => exports.planReviewQueueExport(ctx, input)),

  users: adminProcedure
    .input(usersExportInput)
    .output(exportPlan)
    .query(({ ctx, input }) => exports.planUsersExport(ctx, input)),

  payouts: adminProcedure
    .input(payoutsInput)
    .output(exportPlan)
    .query(({ ctx, input }) => exports.planPayoutsExport(ctx, input)),

  audit: adminProcedure
    .input(auditExportInput)
    .output(exportPlan)
    .query(({ ctx, input }) => exports.planAuditExport(ctx, input)),
});
