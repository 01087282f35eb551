import {
  createUserInput,
  publicUser,
  userActivationInput,
  usersListAnswer,
  usersListInput,
} from '../../shared/schemas/users';
import * as users from '../services/users';
import { adminProcedure, router } from '../trpc/init';

/** User administration (spec section 2, /users): admins only. */
export const usersRouter = router({
  list: adminProcedure
    .input(usersListInput)
    .output(usersListAnswer)
    .query(({ ctx, input }) => users.listUsers(ctx.db, input)),

  activate: adminProcedure
    .input(userActivationInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => users.activateUser(ctx.deps, input.id, ctx.log)),

  create: adminProcedure
    .input(createUserInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => users.createUser(ctx.deps, ctx.user, input)),

  deactivate: adminProcedure
    .input(userActivationInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => users.deactivateUser(ctx.db, ctx.user, input.id, ctx.deps.clock.now())),
});
