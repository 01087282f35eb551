import { z } from 'zod';
import { transactionIdInput } from '../../shared/schemas/transactions';
import * as uploads from '../services/uploads';
import { ownerProcedure, protectedProcedure, router } from '../trpc/init';

/**
 * Who may upload where. The multipart routes (server/plugins/uploads.ts) stream the bytes; before
 * reading a single one they call these procedures, so uploads obey the same base procedures,
 * ownership rules and authorization tests as everything else.
 */

const uploadTarget = z.object({ transactionId: z.uuid().nullable(), uploadedBy: z.uuid() });

export const uploadsRouter = router({
  transactionTarget: protectedProcedure
    .input(transactionIdInput)
    .output(uploadTarget)
    .query(({ ctx, input }) => uploads.transactionUploadTarget(ctx, input)),

  libraryTarget: ownerProcedure.output(uploadTarget).query(({ ctx }) => uploads.libraryUploadTarget(ctx)),
});
