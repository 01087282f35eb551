import { z } from 'zod';
import {
  loginInput,
  logoutInput,
  refreshInput,
  registerInput,
  resendVerificationInput,
  resetConfirmInput,
  resetRequestInput,
  sessionAnswer,
  verifyEmailInput,
} from '../../shared/schemas/auth';
import { messageAnswer } from '../../shared/schemas/common';
import { loginAnswer } from '../../shared/schemas/two-factor';
import * as auth from '../services/auth';
import { publicProcedure, router } from '../trpc/init';
import examples from './auth.examples.json';

/** Sign-in and account recovery. Every rule lives in services/auth.ts. */
export const authRouter = router({
  register: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/register',
        summary: 'Register an account; a verification link is e-mailed (409 if the email is taken)',
        tag: 'auth',
        scope: 'personal',
        errors: [409],
        successStatus: 201,
        examples: examples.register,
      },
    })
    .input(registerInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => auth.register(ctx, input)),

  verifyEmail: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/verify-email',
        summary: 'Confirm an e-mail address with the token from the verification link',
        tag: 'auth',
        scope: 'personal',
        examples: examples.verifyEmail,
      },
    })
    .input(verifyEmailInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => auth.verifyEmail(ctx, input)),

  resendVerification: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/verify-email/resend',
        summary: 'Send a new verification link (same answer whether or not the address is known)',
        tag: 'auth',
        scope: 'personal',
        examples: examples.resendVerification,
      },
    })
    .input(resendVerificationInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => auth.resendVerification(ctx, input)),

  login: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/login',
        summary:
          'Sign in: an access token (15 min) and a refresh token, or, with two-factor sign-in on, the challenge of its second step',
        tag: 'auth',
        scope: 'personal',
        errors: [401, 403],
        examples: examples.login,
      },
    })
    .input(loginInput)
    .output(loginAnswer)
    .mutation(({ ctx, input }) => auth.login(ctx, input)),

  refresh: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/refresh',
        summary: 'Trade a refresh token for a new pair; a replayed one ends its session',
        tag: 'auth',
        scope: 'personal',
        errors: [401],
        examples: examples.refresh,
      },
    })
    .input(refreshInput)
    .output(sessionAnswer)
    .mutation(({ ctx, input }) => auth.refresh(ctx, input)),

  logout: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/logout',
        summary: 'End the session the refresh token belongs to',
        tag: 'auth',
        scope: 'personal',
        successStatus: 204,
        examples: examples.logout,
      },
    })
    .input(logoutInput)
    .output(z.void())
    .mutation(({ ctx, input }) => auth.logout(ctx, input)),

  requestPasswordReset: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/reset',
        summary: 'E-mail a password reset link (404 "We didn\'t find your email")',
        tag: 'auth',
        scope: 'personal',
        errors: [404],
        examples: examples.requestPasswordReset,
      },
    })
    .input(resetRequestInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => auth.requestPasswordReset(ctx, input)),

  confirmPasswordReset: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/reset/confirm',
        summary: 'Set a new password with the token from the reset link; signs out every session',
        tag: 'auth',
        scope: 'personal',
        examples: examples.confirmPasswordReset,
      },
    })
    .input(resetConfirmInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => auth.confirmPasswordReset(ctx, input)),
});
