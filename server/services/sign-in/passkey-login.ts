import { generateAuthenticationOptions, verifyAuthenticationResponse } from '@simplewebauthn/server';
import { authMessages } from '../../../shared/messages';
import { passkeyMessages } from '../../../shared/passkey-messages';
import type { SessionAnswer } from '../../../shared/schemas/auth';
import type { LoginVerifyInput } from '../../../shared/schemas/passkeys';
import { AppError } from '../../errors';
import type { ServiceContext } from '../context';
import { reasonOf } from './passkeys';
import { relyingPartyOf } from './relying-party';
import { openSession } from './session';
import { storeChallenge, takeChallenge } from './webauthn-challenges';
import { challengeOf, toWebAuthnResponse, userHandleMatches } from './webauthn-responses';

/**
 * Signing in with a passkey: options with a fresh challenge (no account named: the passkeys are
 * discoverable, the browser offers the user's own), then the signed answer checked against the
 * stored public key. The passkey was verified by its user (PIN or biometrics) and is something
 * they hold, so the session counts as a second factor ('passkey'). The account must be allowed
 * in exactly as for a password sign-in.
 */

const CEREMONY_TIMEOUT_MS = 60_000;

const signInFailed = () => new AppError('UNAUTHORIZED', passkeyMessages.signInFailed);

export async function loginOptions(ctx: ServiceContext) {
  const { deps } = ctx;
  await deps.limits.check(['passkeyOptionsPerIp', ctx.ip]);
  const rp = relyingPartyOf(deps.config);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    timeout: CEREMONY_TIMEOUT_MS,
  });
  const challengeId = await storeChallenge(ctx.db, deps.clock.now(), {
    purpose: 'login',
    challenge: options.challenge,
    userId: null,
  });
  return { challengeId, options };
}

type Outcome =
  | 'signed-in'
  | 'rate-limited'
  | 'challenge-expired'
  | 'unknown-passkey'
  | 'refused'
  | 'counter-regressed'
  | 'email-not-verified'
  | 'awaiting-approval';

/** One line per attempt, as for passwords: by ids only, never what was sent. */
function logSignIn(ctx: ServiceContext, outcome: Outcome, facts: { userId?: string; reason?: string } = {}) {
  const entry = { event: 'sign-in', method: 'passkey', outcome, ...facts };
  if (outcome === 'signed-in') ctx.log.info(entry, 'signed in');
  else ctx.log.warn(entry, 'sign-in refused');
}

export async function loginWithPasskey(ctx: ServiceContext, input: LoginVerifyInput): Promise<SessionAnswer> {
  const { deps } = ctx;
  // The same budget as password sign-ins from the address: one attacker, one count.
  if (!(await deps.limits.take(['loginPerIp', ctx.ip]))) {
    logSignIn(ctx, 'rate-limited');
    throw await deps.limits.refused(['loginPerIp', ctx.ip]);
  }
  const rp = relyingPartyOf(deps.config);
  // Readable client data first: a broken answer does not spend the challenge.
  challengeOf(input.response.response.clientDataJSON);
  const expected = await takeChallenge(ctx.db, deps.clock.now(), { id: input.challengeId, purpose: 'login' });
  if (expected === null) {
    logSignIn(ctx, 'challenge-expired');
    throw new AppError('BAD_REQUEST', passkeyMessages.challengeExpired);
  }

  const passkey = await ctx.db.passkey.findUnique({
    where: { credentialId: input.response.id },
    select: {
      id: true,
      credentialId: true,
      publicKey: true,
      counter: true,
      transports: true,
      user: {
        select: {
          id: true,
          role: true,
          tokenVersion: true,
          officeId: true,
          emailVerifiedAt: true,
          isAdminApproved: true,
        },
      },
    },
  });
  if (!passkey) {
    logSignIn(ctx, 'unknown-passkey');
    throw new AppError('UNAUTHORIZED', passkeyMessages.unknownPasskey);
  }
  const { user } = passkey;
  if (!userHandleMatches(input.response.response.userHandle, user.id)) {
    logSignIn(ctx, 'refused', { userId: user.id, reason: 'user handle of another account' });
    throw signInFailed();
  }

  const storedCounter = Number(passkey.counter);
  let newCounter: number;
  let backedUp: boolean;
  try {
    const verification = await verifyAuthenticationResponse({
      response: toWebAuthnResponse(input.response),
      expectedChallenge: expected,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      // Checked below, once the signature is known to be the passkey's own.
      credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: 0 },
      requireUserVerification: true,
    });
    if (!verification.verified) throw new Error('not verified');
    newCounter = verification.authenticationInfo.newCounter;
    backedUp = verification.authenticationInfo.credentialBackedUp;
  } catch (error) {
    logSignIn(ctx, 'refused', { userId: user.id, reason: reasonOf(error) });
    throw signInFailed();
  }

  // Only now, with the passkey proven, may the answer say anything about the account.
  if (!user.emailVerifiedAt) {
    logSignIn(ctx, 'email-not-verified', { userId: user.id });
    throw new AppError('FORBIDDEN', authMessages.emailNotVerified, undefined, {
      error: 'email-not-verified',
    });
  }
  if (!user.isAdminApproved) {
    logSignIn(ctx, 'awaiting-approval', { userId: user.id });
    throw new AppError('FORBIDDEN', authMessages.awaitingApproval);
  }

  // An authenticator that counts must count up: a counter at or below the last one seen means
  // two copies of the key are in use (WebAuthn 6.1.1). Authenticators that do not count send 0.
  const counts = newCounter > 0 || storedCounter > 0;
  const regressed = counts && newCounter <= storedCounter;
  // Conditional on the counter read above, so two answers racing with one value cannot both pass.
  const claimed = regressed
    ? { count: 0 }
    : await ctx.db.passkey.updateMany({
        where: { id: passkey.id, counter: passkey.counter },
        data: { counter: BigInt(newCounter), lastUsedAt: deps.clock.now(), backedUp },
      });
  if (claimed.count !== 1) {
    logSignIn(ctx, 'counter-regressed', { userId: user.id });
    throw new AppError('UNAUTHORIZED', passkeyMessages.counterRegressed);
  }
  const session = await openSession(deps, user, 'passkey');
  logSignIn(ctx, 'signed-in', { userId: user.id });
  return session;
}
