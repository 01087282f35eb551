import {
  createUserInput,
  publicUser,
  updateUserInput,
  userActivationInput,
  usersListAnswer,
  usersListInput,
} from '../../shared/schemas/users';
import * as userOffices from '../services/user-offices';
import * as users from '../services/users';
import { adminProcedure, router } from '../trpc/init';
import examples from './users.examples.json';

/** User administration (/users): admins only. */
export const usersRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/users',
        summary: 'Users, newest first, searchable by name, email and company',
        tag: 'users',
        scope: 'users:read',
        examples: examples.list,
      },
    })
    .input(usersListInput)
    .output(usersListAnswer)
    .query(({ ctx, input }) => users.listUsers(ctx, input)),

  activate: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/users/activate/:id',
        summary: 'Approve or re-activate an account',
        tag: 'users',
        scope: 'users:write',
        examples: examples.activate,
      },
    })
    .input(userActivationInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => users.activateUser(ctx, input)),

  create: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/users',
        summary: 'Add a user who can sign in at once (admins; only the owner adds admins)',
        tag: 'users',
        scope: 'users:write',
        errors: [409],
        successStatus: 201,
        examples: examples.create,
      },
    })
    .input(createUserInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => users.createUser(ctx, input)),

  deactivate: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/users/deactivated/:id',
        summary: 'Deactivate an account (not the owner); its sessions end at once',
        tag: 'users',
        scope: 'users:write',
        examples: examples.deactivate,
      },
    })
    .input(userActivationInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => users.deactivateUser(ctx, input)),

  update: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/users/:id',
        summary: "Set a user's office and the agents it coordinates for (an office admin: within its office)",
        tag: 'users',
        scope: 'users:write',
        examples: examples.update,
      },
    })
    .input(updateUserInput)
    .output(publicUser)
    .mutation(({ ctx, input }) => userOffices.updateUser(ctx, input)),
});
