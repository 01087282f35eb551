import { sessionAnswer } from '../../shared/schemas/auth';
import { messageAnswer } from '../../shared/schemas/common';
import {
  recoveryCodesAnswer,
  totpDisableInput,
  totpEnableInput,
  totpSetupAnswer,
  twoFactorStatus,
  twoFactorVerifyInput,
} from '../../shared/schemas/two-factor';
import { twoFactorMessages } from '../../shared/two-factor-messages';
import { verifySecondFactor } from '../services/sign-in/challenge';
import { disableTotp, enableTotp, setupTotp, twoFactorStatus as statusOf } from '../services/sign-in/totp';
import { protectedProcedure, publicProcedure, router } from '../trpc/init';
import examples from './two-factor.examples.json';

/**
 * Two-factor sign-in: the caller's own authenticator, and the second step of a password sign-in.
 * The rules live in services/sign-in/ (totp.ts, challenge.ts).
 */
export const twoFactorRouter = router({
  status: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/auth/2fa',
        summary: "The caller's two-factor sign-in: on or off, recovery codes left, setup required",
        tag: 'auth',
        scope: 'personal',
        examples: examples.status,
      },
    })
    .output(twoFactorStatus)
    .query(({ ctx }) => statusOf(ctx)),

  totpSetup: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/2fa/totp/setup',
        summary: 'Start setting up an authenticator app: a new secret, pending until enabled',
        tag: 'auth',
        scope: 'personal',
        errors: [409],
        examples: examples.totpSetup,
      },
    })
    .output(totpSetupAnswer)
    .mutation(({ ctx }) => setupTotp(ctx)),

  totpEnable: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/2fa/totp/enable',
        summary: 'Turn two-factor sign-in on with a first code: 10 single-use recovery codes, shown once',
        tag: 'auth',
        scope: 'personal',
        errors: [409],
        examples: examples.totpEnable,
      },
    })
    .input(totpEnableInput)
    .output(recoveryCodesAnswer)
    .mutation(({ ctx, input }) => enableTotp(ctx, input)),

  totpDisable: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/2fa/totp/disable',
        summary: 'Turn two-factor sign-in off (the password is required; audited and e-mailed)',
        tag: 'auth',
        scope: 'personal',
        errors: [409],
        examples: examples.totpDisable,
      },
    })
    .input(totpDisableInput)
    .output(messageAnswer)
    .mutation(async ({ ctx, input }) => {
      await disableTotp(ctx, input);
      return { message: twoFactorMessages.turnedOff };
    }),

  verify: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/2fa/verify',
        summary: 'The second step of sign-in: the challenge with a code or a recovery code, for the session',
        tag: 'auth',
        scope: 'personal',
        errors: [401, 403],
        examples: examples.verify,
      },
    })
    .input(twoFactorVerifyInput)
    .output(sessionAnswer)
    .mutation(({ ctx, input }) => verifySecondFactor(ctx, input)),
});
