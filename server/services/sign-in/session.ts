import { randomUUID } from 'node:crypto';
import type { SessionAnswer } from '../../../shared/schemas/auth';
import type { Tx } from '../../db/client';
import type { AppDeps } from '../../deps';
import { SECOND_FACTORS, type SecondFactor, signAccessToken } from '../../security/access-tokens';
import { hashSecretToken, newSecretToken } from '../../security/secret-tokens';

/**
 * A session: a family of refresh tokens (one sign-in, every rotation a new row) and the access
 * tokens it hands out. Every way of signing in (password, a second factor, a passkey, single
 * sign-on) ends here, so each session remembers the same things the same way: when it began, and
 * whether its sign-in proved a second factor, which every access token it refreshes carries on.
 */

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
export const REFRESH_TOKEN_TTL_MS = 30 * DAY;
/** However often a session rotates its refresh token, it ends this long after sign-in. */
export const SESSION_MAX_LIFETIME_MS = 90 * DAY;

export { SECOND_FACTORS, type SecondFactor };

export type SessionUser = {
  id: string;
  role: 'user' | 'admin';
  tokenVersion: number;
  officeId: string | null;
};

export type SessionFamily = {
  familyId: string;
  sessionStartedAt: Date;
  /** Null when the sign-in did not prove a second factor. */
  secondFactor: SecondFactor | null;
};

/** The family of a new sign-in. */
export function newFamily(now: Date, secondFactor: SecondFactor | null): SessionFamily {
  return { familyId: randomUUID(), sessionStartedAt: now, secondFactor };
}

/** A stored value read back as a second factor; anything else reads as none. */
export function secondFactorOf(stored: string | null): SecondFactor | null {
  return (SECOND_FACTORS as readonly string[]).includes(stored ?? '') ? (stored as SecondFactor) : null;
}

/**
 * Stores a refresh token of the family (inside the caller's transaction) and returns it.
 * The access token is signed after the commit, by sessionAnswer: WebCrypto signs on libuv's
 * thread pool, behind any queued argon2 verifications, and a transaction waiting there holds a
 * pooled connection. Under a burst of sign-ins that exhausted the pool and turned sign-ins into
 * 500s (bench/sign-in.bench.ts).
 */
export async function storeRefreshToken(
  tx: Tx,
  deps: AppDeps,
  userId: string,
  family: SessionFamily,
): Promise<string> {
  const now = deps.clock.now();
  const refreshToken = newSecretToken();
  const expiresAt = Math.min(
    now.getTime() + REFRESH_TOKEN_TTL_MS,
    family.sessionStartedAt.getTime() + SESSION_MAX_LIFETIME_MS,
  );
  await tx.refreshToken.create({
    data: {
      userId,
      familyId: family.familyId,
      sessionStartedAt: family.sessionStartedAt,
      secondFactor: family.secondFactor,
      tokenHash: hashSecretToken(refreshToken),
      expiresAt: new Date(expiresAt),
    },
  });
  return refreshToken;
}

/** The session's answer: a fresh access token for the user, with the stored refresh token. */
export async function sessionAnswer(
  deps: AppDeps,
  user: SessionUser,
  refreshToken: string,
  secondFactor: SecondFactor | null,
): Promise<SessionAnswer> {
  const token = await signAccessToken(
    {
      sub: user.id,
      role: user.role,
      ver: user.tokenVersion,
      ...(user.officeId === null ? {} : { off: user.officeId }),
      ...(secondFactor === null ? {} : { mfa: secondFactor }),
    },
    deps.config.jwtSecret,
    deps.clock.now(),
  );
  return { token, refreshToken, _id: user.id };
}

/**
 * A new session for a user whose sign-in is complete (every check the way of signing in makes
 * has passed): its first refresh token stored, its access token signed after the commit.
 */
export async function openSession(
  deps: AppDeps,
  user: SessionUser,
  secondFactor: SecondFactor | null,
): Promise<SessionAnswer> {
  const family = newFamily(deps.clock.now(), secondFactor);
  const refreshToken = await deps.db.$transaction((tx) => storeRefreshToken(tx, deps, user.id, family));
  return sessionAnswer(deps, user, refreshToken, secondFactor);
}
