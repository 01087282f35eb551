import { z } from 'zod';
import { sessionAnswer } from '../../shared/schemas/auth';
import {
  loginOptionsAnswer,
  loginVerifyInput,
  passkeyAnswer,
  passkeyList,
  registerVerifyInput,
  registrationOptions,
  removePasskeyInput,
  renamePasskeyInput,
} from '../../shared/schemas/passkeys';
import { loginOptions, loginWithPasskey } from '../services/sign-in/passkey-login';
import * as passkeys from '../services/sign-in/passkeys';
import { protectedProcedure, publicProcedure, router } from '../trpc/init';
import examples from './passkeys.examples.json';

/** Passkeys (WebAuthn): adding and managing one's own, and signing in with one. Rules: services/sign-in/. */
export const passkeysRouter = router({
  registerOptions: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/passkeys/register/options',
        summary:
          'Start adding a passkey: the options for navigator.credentials.create (the challenge lasts 5 minutes)',
        tag: 'passkeys',
        scope: 'personal',
        examples: examples.registerOptions,
      },
    })
    .output(registrationOptions)
    .mutation(({ ctx }) => passkeys.registrationOptions(ctx)),

  registerVerify: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/passkeys/register/verify',
        summary: "Finish adding a passkey with the authenticator's answer (409 if it is registered already)",
        tag: 'passkeys',
        scope: 'personal',
        errors: [409],
        successStatus: 201,
        examples: examples.registerVerify,
      },
    })
    .input(registerVerifyInput)
    .output(passkeyAnswer)
    .mutation(({ ctx, input }) => passkeys.registerPasskey(ctx, input)),

  loginOptions: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/passkeys/login/options',
        summary:
          'Start a passkey sign-in: the options for navigator.credentials.get and the challenge id to answer with',
        tag: 'passkeys',
        scope: 'personal',
        examples: examples.loginOptions,
      },
    })
    .output(loginOptionsAnswer)
    .mutation(({ ctx }) => loginOptions(ctx)),

  loginVerify: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/passkeys/login/verify',
        summary: "Sign in with a passkey's answer: the login answer, a session that proved a second factor",
        tag: 'passkeys',
        scope: 'personal',
        errors: [401, 403],
        examples: examples.loginVerify,
      },
    })
    .input(loginVerifyInput)
    .output(sessionAnswer)
    .mutation(({ ctx, input }) => loginWithPasskey(ctx, input)),

  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/auth/passkeys',
        summary: "The caller's passkeys, oldest first",
        tag: 'passkeys',
        scope: 'personal',
        examples: examples.list,
      },
    })
    .output(passkeyList)
    .query(({ ctx }) => passkeys.listPasskeys(ctx)),

  rename: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/auth/passkeys/:id',
        summary: 'Rename one of your passkeys',
        tag: 'passkeys',
        scope: 'personal',
        examples: examples.rename,
      },
    })
    .input(renamePasskeyInput)
    .output(passkeyAnswer)
    .mutation(({ ctx, input }) => passkeys.renamePasskey(ctx, input)),

  remove: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/auth/passkeys/:id',
        summary:
          'Remove one of your passkeys; the last one needs `password` in the body (and you are mailed)',
        tag: 'passkeys',
        scope: 'personal',
        successStatus: 204,
        deleteWithBody: true,
        examples: examples.remove,
      },
    })
    .input(removePasskeyInput)
    .output(z.void())
    .mutation(({ ctx, input }) => passkeys.removePasskey(ctx, input)),
});
