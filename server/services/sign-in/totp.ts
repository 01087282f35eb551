import { apiMessages } from '../../../shared/messages';
import type {
  RecoveryCodesAnswer,
  TotpSetupAnswer,
  TwoFactorStatus,
} from '../../../shared/schemas/two-factor';
import { RECOVERY_CODE_COUNT } from '../../../shared/schemas/two-factor';
import { twoFactorMessages } from '../../../shared/two-factor-messages';
import type { Tx } from '../../db/client';
import { AppError } from '../../errors';
import { recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { queueMail } from '../mail';
import { adminNeedsSecondFactor } from './admin-policy';
import {
  hashRecoveryCode,
  matchingStep,
  newRecoveryCode,
  newTotpSecret,
  openTotpSecret,
  totpSealer,
} from './totp-codes';
import { twoFactorChangedMessage } from './two-factor-mail';

/**
 * A user's own authenticator: set up (a pending secret), enabled by its first code (which hands
 * out the recovery codes, once), turned off with the password. Always the caller's own: there is
 * no path to anyone else's, and an API key (not a session) never reaches these.
 */

const personOnly = (ctx: CallerContext) => {
  if (ctx.user.apiKey) throw new AppError('FORBIDDEN', apiMessages.forbidden);
};

export async function twoFactorStatus(ctx: CallerContext): Promise<TwoFactorStatus> {
  const userId = ctx.user.id;
  const [authenticator, recoveryCodesLeft] = await Promise.all([
    ctx.db.totpAuthenticator.findUnique({ where: { userId }, select: { enabledAt: true } }),
    ctx.db.recoveryCode.count({ where: { userId, usedAt: null } }),
  ]);
  return {
    totpEnabled: Boolean(authenticator?.enabledAt),
    recoveryCodesLeft,
    setupRequired: await adminNeedsSecondFactor(ctx),
  };
}

/** A new pending secret (replacing a pending one); refused while two-factor sign-in is on. */
export async function setupTotp(ctx: CallerContext): Promise<TotpSetupAnswer> {
  personOnly(ctx);
  const userId = ctx.user.id;
  const user = await ctx.db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { email: true, totpAuthenticator: { select: { enabledAt: true } } },
  });
  if (user.totpAuthenticator?.enabledAt) throw new AppError('CONFLICT', twoFactorMessages.alreadyOn);
  const { secret, otpauthUrl } = newTotpSecret(user.email);
  const sealedSecret = totpSealer(ctx.deps.config.jwtSecret).seal(secret);
  await ctx.db.totpAuthenticator.upsert({
    where: { userId },
    create: { userId, sealedSecret },
    update: { sealedSecret, lastUsedStep: null, enabledAt: null },
  });
  return { secret, otpauthUrl };
}

/** Replaces the user's recovery codes with new ones and answers them in clear, this once. */
async function replaceRecoveryCodes(tx: Tx, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({
    data: codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })),
  });
  return codes;
}

const invalidCode = () =>
  new AppError('BAD_REQUEST', twoFactorMessages.invalidCode, [
    { path: 'code', message: twoFactorMessages.invalidCode },
  ]);

export async function enableTotp(
  ctx: CallerContext,
  { code }: { code: string },
): Promise<RecoveryCodesAnswer> {
  personOnly(ctx);
  const { deps } = ctx;
  const userId = ctx.user.id;
  const pending = await ctx.db.totpAuthenticator.findUnique({
    where: { userId },
    select: { sealedSecret: true, enabledAt: true },
  });
  if (!pending) throw new AppError('CONFLICT', twoFactorMessages.notStarted);
  if (pending.enabledAt) throw new AppError('CONFLICT', twoFactorMessages.alreadyOn);
  const secret = openTotpSecret(deps.config.jwtSecret, pending.sealedSecret);
  if (secret === null) throw new AppError('CONFLICT', twoFactorMessages.notStarted);
  const step = matchingStep(secret, code, deps.clock.now());
  if (step === null) throw invalidCode();

  const recoveryCodes = await deps.db.$transaction(async (tx) => {
    // Conditional: of two enables at once, one wins; the code it used counts as used.
    const enabled = await tx.totpAuthenticator.updateMany({
      where: { userId, enabledAt: null, sealedSecret: pending.sealedSecret },
      data: { enabledAt: deps.clock.now(), lastUsedStep: step },
    });
    if (enabled.count !== 1) throw new AppError('CONFLICT', twoFactorMessages.alreadyOn);
    const codes = await replaceRecoveryCodes(tx, userId);
    await recordAudit(tx, {
      actorId: userId,
      action: 'user.two-factor-enable',
      entity: 'User',
      entityId: userId,
    });
    await queueChangeMail(tx, ctx, true);
    return codes;
  });
  return { recoveryCodes };
}

export async function disableTotp(ctx: CallerContext, { password }: { password: string }): Promise<void> {
  personOnly(ctx);
  const { deps } = ctx;
  const userId = ctx.user.id;
  const user = await ctx.db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { passwordHash: true, totpAuthenticator: { select: { enabledAt: true } } },
  });
  if (!(await deps.passwords.verify(user.passwordHash, password))) {
    throw new AppError('BAD_REQUEST', twoFactorMessages.wrongPassword, [
      { path: 'password', message: twoFactorMessages.wrongPassword },
    ]);
  }
  if (!user.totpAuthenticator?.enabledAt) throw new AppError('CONFLICT', twoFactorMessages.notOn);
  await deps.db.$transaction(async (tx) => {
    await tx.totpAuthenticator.deleteMany({ where: { userId } });
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await tx.loginChallenge.deleteMany({ where: { userId } });
    await recordAudit(tx, {
      actorId: userId,
      action: 'user.two-factor-disable',
      entity: 'User',
      entityId: userId,
    });
    await queueChangeMail(tx, ctx, false);
  });
}

async function queueChangeMail(tx: Tx, ctx: CallerContext, turnedOn: boolean): Promise<void> {
  const user = await tx.user.findUniqueOrThrow({
    where: { id: ctx.user.id },
    select: { email: true, firstName: true },
  });
  await queueMail(tx, ctx.deps, {
    kind: turnedOn ? 'account.two-factor-on' : 'account.two-factor-off',
    userId: ctx.user.id,
    content: twoFactorChangedMessage({
      to: user.email,
      firstName: user.firstName,
      turnedOn,
      settingsUrl: `${ctx.deps.config.appUrl}/settings`,
    }),
  });
}
