import type { SignInPolicy } from '../../../shared/schemas/two-factor';
import { recordAudit } from '../audit';
import type { CallerContext, ServiceContext } from '../context';

/**
 * The owner's policy for admins: require a second factor. Read by every signed-in call in the
 * statement that loads its user (services/sessions.ts), so a change applies on the next call of
 * every instance; written by the owner only (the procedure says so), audited.
 */

export async function readSignInPolicy(ctx: ServiceContext): Promise<SignInPolicy> {
  const row = await ctx.db.signInPolicy.findUnique({
    where: { id: true },
    select: { requireTwoFactorForAdmins: true },
  });
  return { requireTwoFactorForAdmins: row?.requireTwoFactorForAdmins ?? false };
}

export async function updateSignInPolicy(ctx: CallerContext, input: SignInPolicy): Promise<SignInPolicy> {
  return ctx.deps.db.$transaction(async (tx) => {
    const before = await tx.signInPolicy.findUnique({
      where: { id: true },
      select: { requireTwoFactorForAdmins: true },
    });
    const after = await tx.signInPolicy.upsert({
      where: { id: true },
      create: { id: true, requireTwoFactorForAdmins: input.requireTwoFactorForAdmins },
      update: { requireTwoFactorForAdmins: input.requireTwoFactorForAdmins },
      select: { requireTwoFactorForAdmins: true },
    });
    await recordAudit(tx, {
      actorId: ctx.user.id,
      apiKeyId: ctx.user.apiKey?.id ?? null,
      action: 'sign-in-policy.update',
      entity: 'User',
      entityId: ctx.user.id,
      before: before ?? { requireTwoFactorForAdmins: false },
      after,
    });
    return after;
  });
}

/**
 * Whether the policy holds this caller back: an admin, signed in (an API key is not a session:
 * its creator made it, and it keeps working), whose session proved no second factor.
 */
export async function adminNeedsSecondFactor(ctx: CallerContext): Promise<boolean> {
  const { user } = ctx;
  if (user.role !== 'admin' || user.apiKey || user.secondFactor) return false;
  return (await readSignInPolicy(ctx)).requireTwoFactorForAdmins;
}
