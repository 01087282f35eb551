import { signInPolicy } from '../../shared/schemas/two-factor';
import { readSignInPolicy, updateSignInPolicy } from '../services/sign-in/admin-policy';
import { adminProcedure, ownerProcedure, router } from '../trpc/init';
import examples from './admin-security.examples.json';

/** The brokerage's sign-in policy for admins: admins read it, the owner sets it. */
export const adminSecurityRouter = router({
  get: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/security',
        summary: 'Whether admins must sign in with a second factor',
        tag: 'admin',
        scope: 'personal',
        examples: examples.get,
      },
    })
    .output(signInPolicy)
    .query(({ ctx }) => readSignInPolicy(ctx)),

  update: ownerProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/security',
        summary: 'Require (or stop requiring) a second factor of admins; owner only, audited',
        tag: 'admin',
        scope: 'personal',
        examples: examples.update,
      },
    })
    .input(signInPolicy)
    .output(signInPolicy)
    .mutation(({ ctx, input }) => updateSignInPolicy(ctx, input)),
});
