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
import * as auth from '../services/auth';
import { publicProcedure, router } from '../trpc/init';

/** Sign-in and account recovery. Every rule lives in services/auth.ts. */
export const authRouter = router({
  register: publicProcedure
    .input(registerInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => auth.register(ctx, input)),

  verifyEmail: publicProcedure
    .input(verifyEmailInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => auth.verifyEmail(ctx, input)),

  resendVerification: publicProcedure
    .input(resendVerificationInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => auth.resendVerification(ctx, input)),

  login: publicProcedure
    .input(loginInput)
    .output(sessionAnswer)
    .mutation(({ ctx, input }) => auth.login(ctx, input)),

  refresh: publicProcedure
    .input(refreshInput)
    .output(sessionAnswer)
    .mutation(({ ctx, input }) => auth.refresh(ctx, input)),

  logout: publicProcedure
    .input(logoutInput)
    .output(z.void())
    .mutation(({ ctx, input }) => auth.logout(ctx, input)),

  requestPasswordReset: publicProcedure
    .input(resetRequestInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => auth.requestPasswordReset(ctx, input)),

  confirmPasswordReset: publicProcedure
    .input(resetConfirmInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => auth.confirmPasswordReset(ctx, input)),
});
