import { z } from 'zod';
import { transactionIdInput } from '../../shared/schemas/transactions';
import { assertVisible } from '../services/transactions';
import { ownerProcedure, protectedProcedure, router } from '../trpc/init';

/**
 * Who may upload where. The multipart routes (server/plugins/uploads.ts) stream the bytes; before
 * reading a single one they call these procedures, so uploads obey the same base procedures,
 * ownership rules and authorization tests as everything else.
 */
export const uploadsRouter = router({
  /** An agent uploads to their own transaction, an admin to any: else 404. */
  transactionTarget: protectedProcedure
    .input(transactionIdInput)
    .output(z.object({ id: z.uuid() }))
    .query(async ({ ctx, input }) => {
      await assertVisible(ctx.db, ctx.user, input.id);
      return { id: input.id };
    }),

  /** Library forms are the owner's (DESIGN.md section 4). */
  libraryTarget: ownerProcedure
    .output(z.object({ ok: z.literal(true) }))
    .query(() => ({ ok: true as const })),
});
