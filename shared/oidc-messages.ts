/**
 * The words of single sign-on that the server answers and the lazy sign-in landing page shows
 * (not in messages.ts: the first download has no room for words most visits never read).
 */

export const oidcMessages = {
  /** The button's text and the service's name come from OIDC_NAME. */
  signInWith: (name: string) => `Sign in with ${name}`,
  notEnabled: 'Single sign-on is not set up for this portal.',
  unavailable:
    'Single sign-on is unavailable right now. Please try again shortly, or sign in with your password.',
  noAccount: (email: string) => `No account for ${email}`,
  emailUnverified: (name: string) =>
    `Your e-mail address is not verified with ${name}. Verify it there, or sign in with your password.`,
  noEmail: (name: string) => `${name} did not share your e-mail address, so no account could be found.`,
  flowExpired: 'This sign-in took too long or was already used. Please try again.',
  refusedByProvider: (name: string) => `${name} did not complete the sign-in. Please try again.`,
  failed: 'Single sign-on could not be completed. Please try again.',
  linkInvalid: 'This sign-in link is not valid or has expired. Please try again.',
  registeredAwaitingApproval:
    'Your account was created and is awaiting administrator approval. You can sign in once it is approved.',
  finishing: 'Finishing sign-in…',
  invalidReturnTo: 'returnTo must be a path of this site',
} as const;
