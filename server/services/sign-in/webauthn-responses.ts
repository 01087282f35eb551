import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { z } from 'zod';
import { passkeyMessages } from '../../../shared/passkey-messages';
import type { authenticationResponse, registrationResponse } from '../../../shared/schemas/passkeys';
import { AppError } from '../../errors';

/** Reading what a browser's passkey answers carry, before @simplewebauthn/server checks them. */

const responseInvalid = () => new AppError('BAD_REQUEST', passkeyMessages.responseInvalid);

/**
 * The challenge the client data answers, so the stored one can be found; the library checks the
 * rest. Anything that is not JSON with a string challenge is a 400 here, not a 500 there. An
 * answer made inside another site's frame (crossOrigin) is refused: the portal is never framed.
 */
export function challengeOf(clientDataJSON: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
  } catch {
    throw responseInvalid();
  }
  const { challenge, crossOrigin } = (parsed ?? {}) as { challenge?: unknown; crossOrigin?: unknown };
  if (typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 512)
    throw responseInvalid();
  if (crossOrigin !== undefined && crossOrigin !== false) throw responseInvalid();
  return challenge;
}

/**
 * The user handle a passkey is made for: the user's id, which says nothing about the person
 * (no e-mail or name, as WebAuthn asks), and lets sign-in confirm whose passkey answered.
 */
export function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId, 'utf8'));
}

export function userHandleMatches(userHandle: string | undefined, userId: string): boolean {
  return userHandle === undefined || userHandle === Buffer.from(userId, 'utf8').toString('base64url');
}

/** The validated input as the library's types (the schemas mirror them, bounded). */
export function toWebAuthnResponse(response: z.infer<typeof registrationResponse>): RegistrationResponseJSON;
export function toWebAuthnResponse(
  response: z.infer<typeof authenticationResponse>,
): AuthenticationResponseJSON;
export function toWebAuthnResponse(response: object): RegistrationResponseJSON | AuthenticationResponseJSON {
  return response as RegistrationResponseJSON | AuthenticationResponseJSON;
}
