import { authMessages } from '../../../shared/messages';
import type { SessionAnswer } from '../../../shared/schemas/auth';
import type { LoginChallengeAnswer, TwoFactorVerifyInput } from '../../../shared/schemas/two-factor';
import { twoFactorMessages } from '../../../shared/two-factor-messages';
import { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { hashSecretToken, newSecretToken } from '../../security/secret-tokens';
import type { ServiceContext } from '../context';
import { openSession } from './session';
import { hashRecoveryCode, matchingStep, newTotpSecret, openTotpSecret, totpSealer } from './totp-codes';

/**
 * The second step of a password sign-in when two-factor sign-in is on. The password step hands
 * out a challenge (random, stored hashed, 5 minutes); the code or a recovery code trades it for
 * the session. Each attempt is counted on the challenge before the code is checked, so parallel
 * guesses cannot all slip under the limit: the 5th wrong code ends it, and an ended, expired or
 * unknown challenge answers exactly as a wrong code does. Both run the same statements and the
 * same code check (an unknown challenge against a decoy secret), so timing tells them apart no
 * better than the answer does.
 */

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const MAX_CHALLENGE_ATTEMPTS = 5;
/** Stands in for the user of an unknown challenge: no row has it. */
const NO_USER = '00000000-0000-0000-0000-000000000000';

const invalidCode = () => new AppError('UNAUTHORIZED', twoFactorMessages.invalidCode);

/** Whether the user has two-factor sign-in on (the password step asks). */
export async function hasTotpEnabled(deps: AppDeps, userId: string): Promise<boolean> {
  const row = await deps.db.totpAuthenticator.findUnique({ where: { userId }, select: { enabledAt: true } });
  return Boolean(row?.enabledAt);
}

/** A new challenge for a user whose password was right; older expired ones are swept. */
export async function openChallenge(deps: AppDeps, userId: string): Promise<LoginChallengeAnswer> {
  const now = deps.clock.now();
  const challenge = newSecretToken();
  await deps.db.$transaction(async (tx) => {
    await tx.loginChallenge.deleteMany({ where: { userId, expiresAt: { lte: now } } });
    await tx.loginChallenge.create({
      data: {
        userId,
        tokenHash: hashSecretToken(challenge),
        expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
      },
    });
  });
  return { twoFactorRequired: true, challenge };
}

type CountedChallenge = {
  id: string;
  user_id: string;
  sealed_secret: string | null;
};

/** Counts one attempt on a live challenge and reads what checking the code needs, in one statement. */
async function countAttempt(
  deps: AppDeps,
  tokenHash: string,
  now: Date,
): Promise<CountedChallenge | undefined> {
  const [row] = await sqlRows<CountedChallenge>(
    deps.db,
    Prisma.sql`UPDATE login_challenges c SET attempts = c.attempts + 1
                WHERE c.token_hash = ${tokenHash} AND c.expires_at > ${now}::timestamptz
                  AND c.attempts < ${MAX_CHALLENGE_ATTEMPTS}::int
            RETURNING c.id::text, c.user_id::text,
                      (SELECT t.sealed_secret FROM totp_authenticators t
                        WHERE t.user_id = c.user_id AND t.enabled_at IS NOT NULL) AS sealed_secret`,
    { prepared: true },
  );
  return row;
}

let decoy: { sealed: string; jwtSecret: string } | undefined;
/** A sealed secret no user has, opened and checked in place of a real one for an unknown challenge. */
function decoySealedSecret(jwtSecret: string): string {
  if (decoy?.jwtSecret !== jwtSecret) {
    decoy = { jwtSecret, sealed: totpSealer(jwtSecret).seal(newTotpSecret('decoy').secret) };
  }
  return decoy.sealed;
}

/**
 * Uses a recovery code (conditional: a code counts once even when sent twice at once), or checks
 * a TOTP code and claims its step. Null when the code does not hold.
 */
async function proveFactor(
  deps: AppDeps,
  userId: string,
  sealedSecret: string,
  input: TwoFactorVerifyInput,
): Promise<'totp' | 'recovery' | null> {
  const now = deps.clock.now();
  if (input.recoveryCode !== undefined) {
    const used = await sqlRows<{ id: string }>(
      deps.db,
      Prisma.sql`UPDATE recovery_codes SET used_at = ${now}::timestamptz
                  WHERE user_id = ${userId}::uuid AND code_hash = ${hashRecoveryCode(input.recoveryCode)}
                    AND used_at IS NULL
              RETURNING id::text`,
      { prepared: true },
    );
    return used.length === 1 ? 'recovery' : null;
  }
  const secret = openTotpSecret(deps.config.jwtSecret, sealedSecret);
  const step = secret === null ? null : matchingStep(secret, input.code ?? '', now);
  if (step === null || userId === NO_USER) return null;
  // A step at or before the last one used is refused: a code is accepted once.
  const claimed = await deps.db.totpAuthenticator.updateMany({
    where: {
      userId,
      enabledAt: { not: null },
      OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: step } }],
    },
    data: { lastUsedStep: step },
  });
  return claimed.count === 1 ? 'totp' : null;
}

export async function verifySecondFactor(
  ctx: ServiceContext,
  input: TwoFactorVerifyInput,
): Promise<SessionAnswer> {
  const { deps } = ctx;
  if (!(await deps.limits.take(['secondFactorPerIp', ctx.ip]))) {
    logSecondFactor(ctx, 'rate-limited');
    throw await deps.limits.refused(['secondFactorPerIp', ctx.ip]);
  }
  const now = deps.clock.now();
  const tokenHash = hashSecretToken(input.challenge);
  const counted = await countAttempt(deps, tokenHash, now);
  const userId = counted?.sealed_secret ? counted.user_id : NO_USER;
  // An unknown challenge counts against a key of its own, never seen again: the same statement.
  const accountKey = userId === NO_USER ? tokenHash : userId;
  if (!(await deps.limits.take(['secondFactorFailuresPerAccount', accountKey]))) {
    logSecondFactor(ctx, 'rate-limited', counted?.user_id);
    throw await deps.limits.refused(['secondFactorFailuresPerAccount', accountKey]);
  }
  const factor = await proveFactor(
    deps,
    userId,
    counted?.sealed_secret ?? decoySealedSecret(deps.config.jwtSecret),
    input,
  );
  if (!counted || !factor) {
    logSecondFactor(ctx, counted ? 'wrong-code' : 'unknown-challenge', counted?.user_id);
    throw invalidCode();
  }

  // The challenge is spent: of two right answers at once, one opens the session.
  const spent = await deps.db.loginChallenge.deleteMany({ where: { id: counted.id } });
  if (spent.count !== 1) throw invalidCode();
  await deps.limits.reset('secondFactorFailuresPerAccount', userId);

  const user = await deps.db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { id: true, role: true, tokenVersion: true, officeId: true, isAdminApproved: true },
  });
  // Deactivated between the two steps.
  if (!user.isAdminApproved) throw new AppError('FORBIDDEN', authMessages.awaitingApproval);
  const session = await openSession(deps, user, factor);
  logSecondFactor(ctx, 'signed-in', userId);
  return session;
}

type SecondFactorOutcome = 'signed-in' | 'rate-limited' | 'wrong-code' | 'unknown-challenge';

/** One line per attempt, as the password step logs its own; never the code or the challenge. */
function logSecondFactor(ctx: ServiceContext, outcome: SecondFactorOutcome, userId?: string): void {
  const entry = { event: 'sign-in-second-factor', outcome, ...(userId ? { userId } : {}) };
  if (outcome === 'signed-in') ctx.log.info(entry, 'second factor accepted');
  else ctx.log.warn(entry, 'second factor refused');
}
