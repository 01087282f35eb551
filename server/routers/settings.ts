import { sessionAnswer } from '../../shared/schemas/auth';
import { changePasswordInput, publicUser, updateProfileInput, userIdInput } from '../../shared/schemas/users';
import { changePassword } from '../services/auth';
import { getUser, updateProfile } from '../services/users';
import { protectedProcedure, router } from '../trpc/init';

/** The signed-in user's profile (spec section 2, /settings). */
export const settingsRouter = router({
  getUser: protectedProcedure
    .input(userIdInput)
    .output(publicUser)
    .query(({ ctx, input }) => getUser(ctx, input)),

  updateUser: protectedProcedure
    .input(updateProfileInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => updateProfile(ctx, input)),

  changePassword: protectedProcedure
    .input(changePasswordInput)
    .output(sessionAnswer)
    .mutation(({ ctx, input }) => changePassword(ctx, input)),
});
