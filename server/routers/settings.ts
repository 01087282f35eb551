import { sessionAnswer } from '../../shared/schemas/auth';
import { changePasswordInput, publicUser, updateProfileInput, userIdInput } from '../../shared/schemas/users';
import { changePassword } from '../services/auth';
import { getUser, updateProfile } from '../services/users';
import { protectedProcedure, router } from '../trpc/init';
import examples from './settings.examples.json';

/** The signed-in user's profile (/settings). */
export const settingsRouter = router({
  getUser: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/settings/getUser/:userId',
        summary: "A user's profile (the caller's own, or anyone's for an admin)",
        tag: 'settings',
        scope: 'users:read',
        examples: examples.getUser,
      },
    })
    .input(userIdInput)
    .output(publicUser)
    .query(({ ctx, input }) => getUser(ctx, input)),

  updateUser: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/settings/updateUser/:userId',
        summary: "Change a profile (the caller's own, or anyone's for an admin); the e-mail stays",
        tag: 'settings',
        scope: 'users:write',
        examples: examples.updateUser,
      },
    })
    .input(updateProfileInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => updateProfile(ctx, input)),

  changePassword: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/settings/changePassword/:userId',
        summary: 'Change your password; every other session ends and this one gets a new pair',
        tag: 'settings',
        scope: 'personal',
        examples: examples.changePassword,
      },
    })
    .input(changePasswordInput)
    .output(sessionAnswer)
    .mutation(({ ctx, input }) => changePassword(ctx, input)),
});
