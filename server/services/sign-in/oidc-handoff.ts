import { oidcMessages } from '../../../shared/oidc-messages';
import type { SessionAnswer } from '../../../shared/schemas/auth';
import type { ApiErrorCode } from '../../../shared/schemas/common';
import type { Tx } from '../../db/client';
import { AppError } from '../../errors';
import { hashSecretToken, newSecretToken } from '../../security/secret-tokens';
import type { ServiceContext } from '../context';
import { openSession, type SecondFactor } from './session';

/**
 * How a finished single sign-on reaches the browser: the callback stores its outcome (a user, or
 * the refusal to show) under a one-time code and sends the browser to the sign-in landing page
 * with the code in the address's fragment, which browsers never send to a server, so no log
 * holds it. The page trades it with POST /api/auth/oidc/exchange for the login answer (or the
 * refusal, as an error), once, within HANDOFF_TTL_MS.
 */

export const HANDOFF_TTL_MS = 2 * 60 * 1000;
/** The client page that finishes the sign-in. */
export const LANDING_PATH = '/auth/sso';

export type HandoffOutcome =
  | { userId: string; secondFactor: SecondFactor | null }
  | { error: { code: ApiErrorCode; message: string } };

/** Stores the outcome and returns where the browser goes: the landing page with its code. */
export async function handOff(
  tx: Tx,
  now: Date,
  outcome: HandoffOutcome,
  returnTo: string | null,
): Promise<string> {
  const code = newSecretToken();
  // Whatever expired meanwhile goes first (an indexed range, usually empty).
  await tx.oidcHandoff.deleteMany({ where: { expiresAt: { lte: now } } });
  await tx.oidcHandoff.create({
    data: {
      codeHash: hashSecretToken(code),
      ...('userId' in outcome
        ? { userId: outcome.userId, secondFactor: outcome.secondFactor }
        : { errorCode: outcome.error.code, errorMessage: outcome.error.message }),
      expiresAt: new Date(now.getTime() + HANDOFF_TTL_MS),
    },
  });
  const fragment = new URLSearchParams({ code });
  if (returnTo) fragment.set('next', returnTo);
  return `${LANDING_PATH}#${fragment}`;
}

const linkInvalid = () => new AppError('BAD_REQUEST', oidcMessages.linkInvalid);

/** Trades a one-time code for the login answer, or throws the refusal it stands for. */
export async function exchangeHandoff(
  ctx: ServiceContext,
  { code }: { code: string },
): Promise<SessionAnswer> {
  const { deps } = ctx;
  if (!(await deps.limits.take(['ssoPerIp', ctx.ip]))) {
    ctx.log.warn({ event: 'sign-in', method: 'sso', outcome: 'rate-limited' }, 'sign-in refused');
    throw await deps.limits.refused(['ssoPerIp', ctx.ip]);
  }
  const now = deps.clock.now();
  // Deleted as it is read: of two trades of one code, one finds it.
  const rows = await deps.db.oidcHandoff.findMany({ where: { codeHash: hashSecretToken(code) }, take: 1 });
  const row = rows[0];
  if (!row) throw linkInvalid();
  const taken = await deps.db.oidcHandoff.deleteMany({ where: { codeHash: row.codeHash } });
  if (taken.count !== 1 || row.expiresAt <= now) throw linkInvalid();
  if (!row.userId) {
    throw new AppError(
      (row.errorCode ?? 'FORBIDDEN') as ApiErrorCode,
      row.errorMessage ?? oidcMessages.failed,
    );
  }
  // Loaded again: an account deactivated since the callback does not get its session.
  const user = await deps.db.user.findUnique({
    where: { id: row.userId },
    select: {
      id: true,
      role: true,
      tokenVersion: true,
      officeId: true,
      isAdminApproved: true,
      deactivatedAt: true,
    },
  });
  if (!user?.isAdminApproved || user.deactivatedAt) throw linkInvalid();
  const secondFactor = row.secondFactor === 'sso' ? 'sso' : null;
  const session = await openSession(deps, user, secondFactor);
  ctx.log.info(
    { event: 'sign-in', method: 'sso', outcome: 'signed-in', userId: user.id, secondFactor },
    'signed in',
  );
  return session;
}
