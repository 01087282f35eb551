import { apiMessages } from '../../shared/messages';
import { AppError } from '../errors';
import type { Caller } from '../services/context';

/**
 * The owner's policy for admins, enforced for every signed-in procedure here and nowhere else:
 * an admin whose session proved no second factor may only reach what leads to one. Open to it:
 * the signed-in paths under /api/auth (two-factor setup, passkeys), its own settings (a settings
 * path naming its own user), and, for the owner, /api/admin/security, so the owner can always
 * change the policy. An API key is not a session and is never held back: its creator, an admin,
 * made it, and it acts within its scopes.
 */

const OPEN_PREFIX = '/api/auth/';
const OWN_SETTINGS_PREFIX = '/api/settings/';
const POLICY_PATH = '/api/admin/security';

type Gate = {
  /** The procedure's REST path (procedures without one are never open). */
  restPath: string | undefined;
  getRawInput: () => Promise<unknown>;
};

async function openWithoutSecondFactor(user: Caller, { restPath, getRawInput }: Gate): Promise<boolean> {
  if (restPath === undefined) return false;
  if (restPath.startsWith(OPEN_PREFIX)) return true;
  if (restPath === POLICY_PATH) return user.isOwner;
  if (restPath.startsWith(OWN_SETTINGS_PREFIX)) {
    const input = await getRawInput();
    return typeof input === 'object' && input !== null && (input as { userId?: unknown }).userId === user.id;
  }
  return false;
}

/** Refuses the call with 403 when the policy holds the caller back from this procedure. */
export async function assertSecondFactorPolicy(
  user: Caller,
  secondFactorRequired: boolean,
  gate: Gate,
): Promise<void> {
  if (!secondFactorRequired || user.apiKey || user.secondFactor) return;
  if (await openWithoutSecondFactor(user, gate)) return;
  throw new AppError('FORBIDDEN', apiMessages.twoFactorSetupRequired, undefined, {
    error: 'second-factor-required',
  });
}
