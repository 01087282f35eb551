import { passkeyMessages } from '../../../shared/passkey-messages';

/**
 * The browser's side of passkeys (@simplewebauthn/browser), fetched the first time a passkey is
 * used: the module stays out of the first download, and out of pages that never ask for it.
 */

/** A failure of the browser's part (no passkey support, the prompt closed), not the server's. */
class PromptFailure extends Error {
  constructor(readonly reason: unknown) {
    super('passkey prompt failed');
  }
}

/** Runs a step of the browser's part, so its failure reads as the prompt's. */
export function prompted<T>(step: Promise<T>): Promise<T> {
  return step.catch((error: unknown) => {
    throw new PromptFailure(error);
  });
}

export function passkeyBrowser() {
  return prompted(
    import('@simplewebauthn/browser').then((browser) => {
      if (!browser.browserSupportsWebAuthn()) throw new Error(passkeyMessages.unsupported);
      return browser;
    }),
  );
}

/**
 * The words for a failed step: the prompt closed or timed out (NotAllowedError) is a
 * cancellation, another refusal of the browser's is a failure; the server's own message otherwise.
 */
export function passkeyFailureOf(error: unknown, serverMessage: (error: unknown) => string): string {
  if (!(error instanceof PromptFailure)) return serverMessage(error);
  const reason = error.reason;
  if (reason instanceof Error && reason.message === passkeyMessages.unsupported) return reason.message;
  const name =
    reason instanceof Error ? ((reason as { cause?: { name?: string } }).cause?.name ?? reason.name) : '';
  return name === 'NotAllowedError' || name === 'AbortError'
    ? passkeyMessages.cancelled
    : passkeyMessages.signInFailed;
}
