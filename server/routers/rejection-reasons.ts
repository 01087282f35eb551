import {
  createRejectionReasonInput,
  rejectionReason,
  rejectionReasonsAnswer,
  updateRejectionReasonInput,
} from '../../shared/schemas/compliance';
import * as reasons from '../services/rejection-reasons';
import { adminProcedure, router } from '../trpc/init';

/** The rejection reasons the desk picks from, kept by admins. */
export const rejectionReasonsRouter = router({
  list: adminProcedure.output(rejectionReasonsAnswer).query(({ ctx }) => reasons.listReasons(ctx)),

  create: adminProcedure
    .input(createRejectionReasonInput)
    .output(rejectionReason)
    .mutation(({ ctx, input }) => reasons.createReason(ctx, input)),

  update: adminProcedure
    .input(updateRejectionReasonInput)
    .output(rejectionReason)
    .mutation(({ ctx, input }) => reasons.updateReason(ctx, input)),
});
