import { apiMessages } from '../../shared/messages';
import { sessionAnswer } from '../../shared/schemas/auth';
import { changePasswordInput, publicUser, updateProfileInput, userIdInput } from '../../shared/schemas/users';
import { AppError } from '../errors';
import { changePassword } from '../services/auth';
import { assertSelfOrAdmin, getUser, updateProfile } from '../services/users';
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

  updateUser: protectedProcedure
    .input(updateProfileInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => {
      assertSelfOrAdmin(ctx.user, input.userId);
      return updateProfile(ctx.db, input);
    }),

  /** Only for oneself: it needs the current password, which nobody else should know. */
  changePassword: protectedProcedure
    .input(changePasswordInput)
    .output(sessionAnswer)
    .mutation(({ ctx, input }) => {
      if (input.userId !== ctx.user.id) throw new AppError('FORBIDDEN', apiMessages.forbidden);
      return changePassword(ctx.deps, ctx.user.id, input);
    }),
});
