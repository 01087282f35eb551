import { publicUser, userIdInput } from '../../shared/schemas/users';
import { assertSelfOrAdmin, getUser } from '../services/users';
import { protectedProcedure, router } from '../trpc/init';

/** The signed-in user's profile (spec section 2, /settings). */
export const settingsRouter = router({
  getUser: protectedProcedure
    .input(userIdInput)
    .output(publicUser)
    .query(({ ctx, input }) => {
      assertSelfOrAdmin(ctx.user, input.userId);
      return getUser(ctx.db, input.userId);
    }),
});
