import { z } from 'zod';
import { transactionIdInput } from '../../shared/schemas/transactions';
import { assertVisible } from '../services/transactions';
import { ownerProcedure, protectedProcedure, router } from '../trpc/init';

/**
 * Who may upload where. The multipart routes (server/plugins/uploads.ts) stream the bytes; before
 * reading a single one they call these procedures, so uploads obey the same base procedures,
 * ownership rules and authorization tests as everything else.
 */
/** Whose file it will be: recorded with it in stored_files. */
const uploadTarget = z.object({ transactionId: z.uuid().nullable(), uploadedBy: z.uuid() });
export type UploadTarget = z.infer<typeof uploadTarget>;

export const uploadsRouter = router({
  /** An agent uploads to their own transaction, an admin to any: else 404. */
  transactionTarget: protectedProcedure
    .input(transactionIdInput)
    .output(uploadTarget)
    .query(async ({ ctx, input }) => {
      await assertVisible(ctx.db, ctx.user, input.id);
      return { transactionId: input.id, uploadedBy: ctx.user.id };
    }),

  /** Library forms are the owner's (DESIGN.md section 4). */
  libraryTarget: ownerProcedure
    .output(uploadTarget)
    .query(({ ctx }) => ({ transactionId: null, uploadedBy: ctx.user.id })),
});
