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
    .query(({ ctx, input }) => users.listUsers(ctx, input)),

  activate: adminProcedure
    .input(userActivationInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => users.activateUser(ctx, input)),

  create: adminProcedure
    .input(createUserInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => users.createUser(ctx, input)),

  deactivate: adminProcedure
    .input(userActivationInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => users.deactivateUser(ctx, input)),
});
