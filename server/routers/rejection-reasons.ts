import {
  createRejectionReasonInput,
  rejectionReason,
  rejectionReasonsAnswer,
  updateRejectionReasonInput,
} from '../../shared/schemas/compliance';
import * as reasons from '../services/rejection-reasons';
import { adminProcedure, router } from '../trpc/init';
import examples from './rejection-reasons.examples.json';

/** The rejection reasons the desk picks from, kept by admins. */
export const rejectionReasonsRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/rejection-reasons',
        summary: 'The rejection reasons, retired ones included (active: false)',
        tag: 'compliance',
        scope: 'transactions:read',
        examples: examples.list,
      },
    })
    .output(rejectionReasonsAnswer)
    .query(({ ctx }) => reasons.listReasons(ctx)),

  create: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/rejection-reasons',
        summary: 'Add a rejection reason; its code is the label in kebab-case (409 if the label exists)',
        tag: 'compliance',
        scope: 'reviews:write',
        errors: [409],
        successStatus: 201,
        examples: examples.create,
      },
    })
    .input(createRejectionReasonInput)
    .output(rejectionReason)
    .mutation(({ ctx, input }) => reasons.createReason(ctx, input)),

  update: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/rejection-reasons/:code',
        summary: 'Reword a rejection reason or retire it (active: false); its code never changes',
        tag: 'compliance',
        scope: 'reviews:write',
        errors: [409],
        examples: examples.update,
      },
    })
    .input(updateRejectionReasonInput)
    .output(rejectionReason)
    .mutation(({ ctx, input }) => reasons.updateReason(ctx, input)),
});
