import { z } from 'zod';
import { twoFactorMessages } from '../two-factor-messages';
import { passwordSchema, sessionAnswer } from './auth';

/** Inputs and answers of two-factor sign-in (docs/API.md, "Two-factor sign-in"). */

export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;

/** Six digits; spaces people type between groups are dropped. */
export const totpCodeSchema = z
  .string({ error: twoFactorMessages.codeFormat })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { error: twoFactorMessages.codeFormat }))
  .meta({ description: 'The 6-digit code the authenticator app shows (spaces ignored)' });

/** A recovery code as typed: case, spaces and dashes do not matter. */
export const recoveryCodeSchema = z
  .string({ error: twoFactorMessages.codeOrRecoveryCode })
  .trim()
  .min(1, { error: twoFactorMessages.codeOrRecoveryCode })
  .max(64, { error: twoFactorMessages.invalidCode });

export const totpSetupAnswer = z.object({
  /** Base32, for typing into the app by hand. */
  secret: z.string(),
  otpauthUrl: z.string(),
});
export type TotpSetupAnswer = z.infer<typeof totpSetupAnswer>;

export const totpEnableInput = z.object({ code: totpCodeSchema });
export const recoveryCodesAnswer = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesAnswer = z.infer<typeof recoveryCodesAnswer>;

export const totpDisableInput = z.object({ password: passwordSchema });

export const twoFactorStatus = z.object({
  totpEnabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  /** The owner requires a second factor of admins and this session proved none. */
  setupRequired: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

export const twoFactorVerifyInput = z
  .object({
    challenge: z.string({ error: twoFactorMessages.invalidCode }).min(1).max(200),
    code: totpCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
  })
  .refine((value) => (value.code === undefined) !== (value.recoveryCode === undefined), {
    error: twoFactorMessages.codeOrRecoveryCode,
    path: ['code'],
  });
export type TwoFactorVerifyInput = z.infer<typeof twoFactorVerifyInput>;

export const signInPolicy = z.object({ requireTwoFactorForAdmins: z.boolean() });
export type SignInPolicy = z.infer<typeof signInPolicy>;

/**
 * A password sign-in whose account has two-factor sign-in on: no tokens yet, only the challenge
 * that POST /api/auth/2fa/verify takes with the code.
 */
export const loginChallengeAnswer = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string(),
});
export type LoginChallengeAnswer = z.infer<typeof loginChallengeAnswer>;

/** What a password sign-in answers: a session, or the challenge of its second factor. */
export const loginAnswer = z.union([sessionAnswer, loginChallengeAnswer]);
export type LoginAnswer = z.infer<typeof loginAnswer>;
