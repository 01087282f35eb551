/**
 * The words of two-factor sign-in that only the server and the lazily loaded two-factor screens
 * read (kept out of the first download). Quoted words are part of the contract (docs/API.md).
 */
export const twoFactorMessages = {
  invalidCode: 'Invalid code',
  alreadyOn: 'Two-factor sign-in is already on',
  notStarted: 'Start the setup first: ask for a new secret',
  notOn: 'Two-factor sign-in is not on',
  wrongPassword: 'Wrong password',
  codeOrRecoveryCode: 'Enter either a code or a recovery code',
  codeFormat: 'Enter the 6 digits of the code',
  codeStepPrompt: 'Enter the 6-digit code from your authenticator app',
  recoveryStepPrompt: 'Enter one of your recovery codes',
  useRecoveryCode: 'Use a recovery code',
  useAuthenticatorCode: 'Use a code from your authenticator app',
  turnedOff: 'Two-factor sign-in is off',
  setupBanner:
    'The brokerage requires administrators to sign in with a second factor. Set up two-factor sign-in below, then sign in again with a code.',
} as const;
