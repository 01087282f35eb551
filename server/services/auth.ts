import { apiMessages, authMessages } from '../../shared/messages';
import type {
  LoginInput,
  RegisterInput,
  ResetConfirmInput,
  ResetRequestInput,
  SessionAnswer,
} from '../../shared/schemas/auth';
import type { LoginAnswer } from '../../shared/schemas/two-factor';
import type { ChangePasswordInput } from '../../shared/schemas/users';
import type { Db, Tx } from '../db/client';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { resetPasswordMessage, verifyEmailMessage } from '../mail/templates';
import type { LimitEvent } from '../security/rate-limits';
import { hashSecretToken, newSecretToken } from '../security/secret-tokens';
import { assertSelf } from './access';
import { recordAudit } from './audit';
import type { CallerContext, ServiceContext } from './context';
import { queueMail } from './mail';
import { notifyActiveAdmins } from './notifications';
import { publicUserSelect, toPublicUser } from './public-user';
import { hasTotpEnabled, openChallenge } from './sign-in/challenge';
import { newFamily, openSession, secondFactorOf, sessionAnswer, storeRefreshToken } from './sign-in/session';
import { emitWebhook } from './webhooks/events';

/**
 * Registration, e-mail verification, sign-in, refresh-token rotation, sign-out and password
 * reset. The rules that matter for security live here, in one place:
 * limits are checked before any hashing, unknown e-mail and wrong password look the same, and a
 * replayed refresh token ends the whole session it belongs to.
 */

const HOUR = 60 * 60 * 1000;
export const VERIFY_EMAIL_TTL_MS = 48 * HOUR;
export const RESET_PASSWORD_TTL_MS = 1 * HOUR;

const invalidCredentials = () => new AppError('UNAUTHORIZED', authMessages.invalidCredentials);
const sessionInvalid = () => new AppError('UNAUTHORIZED', apiMessages.sessionInvalid);
const linkInvalid = () => new AppError('BAD_REQUEST', authMessages.linkInvalid);

/** Rate-limit keys for an address are case-insensitive, as the address itself is. */
const emailKey = (email: string) => email.trim().toLowerCase();

function link(deps: AppDeps, path: string, token: string): string {
  return `${deps.config.appUrl}${path}/${token}`;
}

async function createEmailToken(
  tx: Tx,
  deps: AppDeps,
  userId: string,
  purpose: 'verify_email' | 'reset_password',
): Promise<string> {
  const now = deps.clock.now();
  // Only the newest link of a kind works: asking again retires the older ones.
  await tx.emailToken.updateMany({ where: { userId, purpose, usedAt: null }, data: { usedAt: now } });
  const token = newSecretToken();
  const ttl = purpose === 'verify_email' ? VERIFY_EMAIL_TTL_MS : RESET_PASSWORD_TTL_MS;
  await tx.emailToken.create({
    data: { userId, purpose, tokenHash: hashSecretToken(token), expiresAt: new Date(now.getTime() + ttl) },
  });
  return token;
}

/**
 * Marks an e-mailed token used and returns its user, or null when it is unknown, used, expired
 * or of another purpose. The conditional update makes a double click count once.
 */
async function consumeEmailToken(
  tx: Tx,
  now: Date,
  token: string,
  purpose: 'verify_email' | 'reset_password',
): Promise<string | null> {
  const tokenHash = hashSecretToken(token);
  const row = await tx.emailToken.findUnique({
    where: { tokenHash },
    select: { userId: true, purpose: true },
  });
  if (!row || row.purpose !== purpose) return null;
  const claimed = await tx.emailToken.updateMany({
    where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return claimed.count === 1 ? row.userId : null;
}

/** The verification mail, queued in the transaction that made its token. */
function queueVerificationMail(
  tx: Tx,
  deps: AppDeps,
  user: { id: string; email: string; firstName: string },
  token: string,
) {
  return queueMail(tx, deps, {
    kind: 'account.verify-email',
    userId: user.id,
    content: verifyEmailMessage({
      to: user.email,
      firstName: user.firstName,
      link: link(deps, '/auth/verify-email', token),
    }),
  });
}

export async function register(ctx: ServiceContext, input: RegisterInput) {
  const { deps } = ctx;
  await deps.limits.check(['registerPerIp', ctx.ip]);
  const taken = await deps.db.user.findUnique({ where: { email: input.email }, select: { id: true } });
  if (taken) throw new AppError('CONFLICT', apiMessages.emailTaken);

  const passwordHash = await deps.passwords.hash(input.password);
  // A concurrent registration of the same address ends in P2002 here, which answers 409 too.
  await deps.db.$transaction(async (tx) => {
    const user = await tx.user.create({
      data: {
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        company: input.company,
        phoneNumber: input.phoneNumber,
        passwordHash,
        role: 'user',
        isAdminApproved: false,
      },
      select: publicUserSelect,
    });
    // Self-registration: the new account is its own actor.
    await recordAudit(tx, {
      actorId: user.id,
      action: 'user.register',
      entity: 'User',
      entityId: user.id,
      after: toPublicUser(user),
    });
    await emitWebhook(tx, deps, { type: 'user.registered', data: toPublicUser(user) });
    // The mail leaves with the account: an SMTP outage delays it, never loses it.
    await queueVerificationMail(tx, deps, user, await createEmailToken(tx, deps, user.id, 'verify_email'));
  });
  return { message: apiMessages.registered };
}

export async function verifyEmail(ctx: ServiceContext, { token }: { token: string }) {
  const { deps } = ctx;
  const now = deps.clock.now();
  await deps.db.$transaction(async (tx) => {
    const userId = await consumeEmailToken(tx, now, token, 'verify_email');
    if (!userId) throw linkInvalid();
    const verified = await tx.user.updateMany({
      where: { id: userId, emailVerifiedAt: null },
      data: { emailVerifiedAt: now },
    });
    const user = await tx.user.findUniqueOrThrow({
      where: { id: userId },
      select: { firstName: true, lastName: true, email: true, isAdminApproved: true },
    });
    // Now it really awaits approval: every active admin hears of it.
    if (verified.count === 1 && !user.isAdminApproved) {
      await notifyActiveAdmins(
        tx,
        {
          message: `New registration awaiting approval: ${user.firstName} ${user.lastName} (${user.email})`,
          link: '/users',
          event: 'registration',
        },
        deps,
      );
    }
  });
  return { message: authMessages.verified };
}

/** Same answer whether or not the address exists or still needs verifying. */
export async function resendVerification(ctx: ServiceContext, { email }: { email: string }) {
  const { deps } = ctx;
  await checkResetLimits(ctx, email);
  const user = await deps.db.user.findUnique({
    where: { email },
    select: { id: true, email: true, firstName: true, emailVerifiedAt: true },
  });
  if (user && !user.emailVerifiedAt) {
    await deps.db.$transaction(async (tx) =>
      queueVerificationMail(tx, deps, user, await createEmailToken(tx, deps, user.id, 'verify_email')),
    );
  }
  return { message: apiMessages.verificationResent };
}

/** Both counted in one step, or neither when either is used up. */
function checkResetLimits(ctx: ServiceContext, email: string): Promise<void> {
  return ctx.deps.limits.check(['resetPerEmail', emailKey(email)], ['resetPerIp', ctx.ip]);
}

export async function requestPasswordReset(ctx: ServiceContext, input: ResetRequestInput) {
  const { deps } = ctx;
  await checkResetLimits(ctx, input.email);
  const user = await deps.db.user.findUnique({
    where: { email: input.email },
    select: { id: true, email: true, firstName: true },
  });
  // The product shows "We didn't find your email" on a 404 (docs/SECURITY.md weighs it).
  if (!user) throw new AppError('NOT_FOUND', authMessages.emailNotFound);
  // Queued with its token: a mail server that is down delays the mail, and the
  // answer no longer depends on it (it used to be a 503).
  await deps.db.$transaction(async (tx) =>
    queueMail(tx, deps, {
      kind: 'account.reset-password',
      userId: user.id,
      content: resetPasswordMessage({
        to: user.email,
        firstName: user.firstName,
        link: link(deps, '/auth/new-password', await createEmailToken(tx, deps, user.id, 'reset_password')),
      }),
    }),
  );
  return { message: apiMessages.resetSent };
}

export async function confirmPasswordReset(ctx: ServiceContext, input: ResetConfirmInput) {
  const { deps } = ctx;
  const now = deps.clock.now();
  // Check the link before hashing: an invalid token must not cost us an argon2 run.
  const known = await deps.db.emailToken.findUnique({
    where: { tokenHash: hashSecretToken(input.token) },
    select: { purpose: true, usedAt: true, expiresAt: true },
  });
  if (known?.purpose !== 'reset_password' || known.usedAt || known.expiresAt <= now) throw linkInvalid();

  const passwordHash = await deps.passwords.hash(input.password);
  await deps.db.$transaction(async (tx) => {
    const userId = await consumeEmailToken(tx, now, input.token, 'reset_password');
    if (!userId) throw linkInvalid();
    const user = await tx.user.findUniqueOrThrow({
      where: { id: userId },
      select: { emailVerifiedAt: true },
    });
    await tx.user.update({
      where: { id: userId },
      data: {
        passwordHash,
        // Older access tokens stop at once; every session signs in again.
        tokenVersion: { increment: 1 },
        // Following the e-mailed link proved the address is theirs.
        ...(user.emailVerifiedAt ? {} : { emailVerifiedAt: now }),
      },
    });
    await tx.refreshToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
    await tx.emailToken.updateMany({
      where: { userId, purpose: 'reset_password', usedAt: null },
      data: { usedAt: now },
    });
    // Who followed the e-mailed link is the account itself; nothing of the password is kept.
    await recordAudit(tx, {
      actorId: userId,
      action: 'user.password-reset',
      entity: 'User',
      entityId: userId,
    });
  });
  return { message: authMessages.passwordReset };
}

export async function login(ctx: ServiceContext, input: LoginInput): Promise<LoginAnswer> {
  const { deps } = ctx;
  const accountKey = `${emailKey(input.email)}\u0000${ctx.ip}`;
  // Both limits are checked before the password is looked at, let alone hashed, in one statement.
  // The attempt counts as a failure of the account until the password is proven (then reset
  // clears it): counting only after argon2 answered would let parallel guesses all pass a check
  // made before any of them had failed. One after another it refuses exactly what counting
  // failures afterwards refused: the 11th attempt after 10 failures.
  const attempt: LimitEvent[] = [
    ['loginFailuresPerAccount', accountKey],
    ['loginPerIp', ctx.ip],
  ];
  if (!(await deps.limits.take(...attempt))) {
    logSignIn(ctx, 'rate-limited');
    throw await deps.limits.refused(...attempt);
  }

  const user = await deps.db.user.findUnique({
    where: { email: input.email },
    select: {
      id: true,
      role: true,
      passwordHash: true,
      emailVerifiedAt: true,
      isAdminApproved: true,
      tokenVersion: true,
      officeId: true,
    },
  });
  const passwordMatches = user
    ? await deps.passwords.verify(user.passwordHash, input.password)
    : await deps.passwords.verifyAgainstNothing(input.password);
  if (!user || !passwordMatches) {
    logSignIn(ctx, user ? 'wrong-password' : 'unknown-account', user?.id);
    throw invalidCredentials();
  }
  await deps.limits.reset('loginFailuresPerAccount', accountKey);

  // Only now, with the password proven, may the answer say anything about the account.
  if (!user.emailVerifiedAt) {
    logSignIn(ctx, 'email-not-verified', user.id);
    throw new AppError('FORBIDDEN', authMessages.emailNotVerified, undefined, {
      error: 'email-not-verified',
    });
  }
  if (!user.isAdminApproved) {
    logSignIn(ctx, 'awaiting-approval', user.id);
    throw new AppError('FORBIDDEN', authMessages.awaitingApproval);
  }

  // With two-factor sign-in on, the password only earns the challenge of the second step.
  if (await hasTotpEnabled(deps, user.id)) {
    logSignIn(ctx, 'second-factor-required', user.id);
    return openChallenge(deps, user.id);
  }

  const session = await openSession(deps, user, null);
  logSignIn(ctx, 'signed-in', user.id);
  return session;
}

type SignInOutcome =
  | 'signed-in'
  | 'second-factor-required'
  | 'rate-limited'
  | 'unknown-account'
  | 'wrong-password'
  | 'email-not-verified'
  | 'awaiting-approval';

/**
 * One line per sign-in attempt, success or not (ASVS 16.3.1), for spotting credential stuffing.
 * It names the account by id only: never the typed e-mail (people type passwords into it) and
 * never the password.
 */
function logSignIn(ctx: ServiceContext, outcome: SignInOutcome, userId?: string): void {
  const entry = { event: 'sign-in', outcome, ...(userId ? { userId } : {}) };
  if (outcome === 'second-factor-required') ctx.log.info(entry, 'password accepted; second factor due');
  else if (outcome === 'signed-in') ctx.log.info(entry, 'signed in');
  else ctx.log.warn(entry, 'sign-in refused');
}

async function revokeFamily(db: Db | Tx, familyId: string, now: Date): Promise<void> {
  await db.refreshToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: now } });
}

export async function refresh(
  ctx: ServiceContext,
  { refreshToken }: { refreshToken: string },
): Promise<SessionAnswer> {
  const { deps } = ctx;
  await deps.limits.check(['refreshPerIp', ctx.ip]);
  const now = deps.clock.now();
  const stored = await deps.db.refreshToken.findUnique({
    where: { tokenHash: hashSecretToken(refreshToken) },
    select: {
      id: true,
      familyId: true,
      sessionStartedAt: true,
      secondFactor: true,
      expiresAt: true,
      usedAt: true,
      revokedAt: true,
      user: {
        select: {
          id: true,
          role: true,
          tokenVersion: true,
          officeId: true,
          isAdminApproved: true,
          emailVerifiedAt: true,
        },
      },
    },
  });
  if (!stored || stored.revokedAt) throw sessionInvalid();
  if (stored.usedAt) {
    // A rotated token came back: someone holds a copy. End the whole session for both of them.
    await revokeFamily(deps.db, stored.familyId, now);
    ctx.log.warn({ userId: stored.user.id }, 'refresh token reused; its session was revoked');
    throw sessionInvalid();
  }
  if (stored.expiresAt <= now || !stored.user.isAdminApproved || !stored.user.emailVerifiedAt)
    throw sessionInvalid();

  const family = { ...stored, secondFactor: secondFactorOf(stored.secondFactor) };
  const rotated = await deps.db.$transaction(async (tx) => {
    // Conditional, so of two simultaneous refreshes with one token only one succeeds.
    const claimed = await tx.refreshToken.updateMany({
      where: { id: stored.id, usedAt: null, revokedAt: null },
      data: { usedAt: now },
    });
    if (claimed.count !== 1) return null;
    return storeRefreshToken(tx, deps, stored.user.id, family);
  });
  if (!rotated) {
    await revokeFamily(deps.db, stored.familyId, now);
    ctx.log.warn({ userId: stored.user.id }, 'refresh token used twice at once; its session was revoked');
    throw sessionInvalid();
  }
  return sessionAnswer(deps, stored.user, rotated, family.secondFactor);
}

/** Ends the session the token belongs to. Unknown or already revoked tokens are not an error. */
export async function logout(ctx: ServiceContext, { refreshToken }: { refreshToken: string }): Promise<void> {
  const stored = await ctx.db.refreshToken.findUnique({
    where: { tokenHash: hashSecretToken(refreshToken) },
    select: { familyId: true },
  });
  if (stored) await revokeFamily(ctx.db, stored.familyId, ctx.deps.clock.now());
}

/**
 * A signed-in user changes their password: the current one is required, so only for
 * oneself, never an admin for someone else; every other session ends (token version bumped,
 * refresh tokens revoked) and this browser gets a new pair.
 */
export async function changePassword(ctx: CallerContext, input: ChangePasswordInput): Promise<SessionAnswer> {
  assertSelf(ctx.user, input.userId);
  const { deps } = ctx;
  const { userId } = input;
  const user = await deps.db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { id: true, role: true, passwordHash: true, tokenVersion: true },
  });
  if (!(await deps.passwords.verify(user.passwordHash, input.currentPassword))) {
    throw new AppError('BAD_REQUEST', apiMessages.wrongCurrentPassword, [
      { path: 'currentPassword', message: apiMessages.wrongCurrentPassword },
    ]);
  }
  const passwordHash = await deps.passwords.hash(input.password);
  const now = deps.clock.now();
  // This browser's new session proved what the one it was made in proved.
  const family = newFamily(now, ctx.user.secondFactor ?? null);
  const { updated, refreshToken } = await deps.db.$transaction(async (tx) => {
    const updated = await tx.user.update({
      where: { id: userId },
      data: { passwordHash, tokenVersion: { increment: 1 } },
      select: { id: true, role: true, tokenVersion: true, officeId: true },
    });
    await tx.refreshToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
    const refreshToken = await storeRefreshToken(tx, deps, userId, family);
    await recordAudit(tx, {
      actorId: userId,
      action: 'user.password-change',
      entity: 'User',
      entityId: userId,
    });
    return { updated, refreshToken };
  });
  return sessionAnswer(deps, updated, refreshToken, family.secondFactor);
}
