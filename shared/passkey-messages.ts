/**
 * The words of passkeys (WebAuthn). A module of its own, not messages.ts: messages.ts travels in
 * the first download of every visit, which has a budget (scripts/check-bundle-budget.mjs), while
 * only the server, the settings page and the lazy sign-in button read these. The ones docs/API.md
 * quotes are part of the API.
 */
/** The longest name a passkey may have (the field's limit and the server's). */
export const PASSKEY_NAME_MAX = 100;

export const passkeyMessages = {
  signInButton: 'Sign in with a passkey',
  signInFailed: 'Passkey sign-in failed',
  unknownPasskey: 'This passkey is not registered here',
  challengeExpired: 'This passkey request has expired. Try again.',
  registrationFailed: 'The passkey could not be verified',
  alreadyRegistered: 'This passkey is already registered',
  counterRegressed: 'This passkey reported a used signature counter: it may have been copied',
  responseInvalid: 'Invalid passkey response',
  nameRequired: 'Passkey name is required',
  nameTooLong: `Passkey name is at most ${PASSKEY_NAME_MAX} characters`,
  notFound: 'There is no such passkey',
  passwordForLast: 'Enter your password to remove your last passkey',
  wrongPassword: 'Wrong password',
  cancelled: 'The passkey request was cancelled',
  unsupported: 'This browser cannot use passkeys',
  added: 'Passkey added',
  renamed: 'Passkey renamed',
  removed: 'Passkey removed',
} as const;
