import { authMessages } from '../../../shared/messages';
import { oidcMessages } from '../../../shared/oidc-messages';
import type { OidcSettings } from '../../oidc-config';
import { newSecretToken } from '../../security/secret-tokens';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { notifyActiveAdmins } from '../notifications';
import { publicUserSelect, toPublicUser } from '../public-user';
import { emitWebhook } from '../webhooks/events';

/**
 * Which portal account a provider's identity signs in as. Only an e-mail address the provider
 * says it verified is matched, and only an active account (approved, not deactivated) signs in;
 * the portal's own approval stays the gate, also for accounts the provider creates.
 */

export type SsoIdentity = {
  email: string;
  givenName?: string | undefined;
  familyName?: string | undefined;
  name?: string | undefined;
};

/** A refusal the sign-in page shows, and the log line's outcome. */
export type SsoRefusal = {
  code: 'FORBIDDEN';
  message: string;
  outcome: 'no-account' | 'awaiting-approval' | 'registered';
};

export type SsoAccount = { userId: string } | { refusal: SsoRefusal };

const NAME_MAX = 100;
const clip = (text: string | undefined) => (text ?? '').trim().slice(0, NAME_MAX);

/** First and last name as the provider gives them; else its full name split once; else the address. */
function namesOf(identity: SsoIdentity): { firstName: string; lastName: string } {
  const first = clip(identity.givenName);
  const last = clip(identity.familyName);
  if (first || last) return { firstName: first, lastName: last };
  const full = clip(identity.name);
  if (full) {
    const space = full.indexOf(' ');
    return space < 0
      ? { firstName: full, lastName: '' }
      : { firstName: full.slice(0, space), lastName: full.slice(space + 1).trim() };
  }
  return { firstName: clip(identity.email.split('@', 1)[0]), lastName: '' };
}

export async function accountForIdentity(
  ctx: ServiceContext,
  settings: OidcSettings,
  identity: SsoIdentity,
): Promise<SsoAccount> {
  const { deps } = ctx;
  const user = await deps.db.user.findUnique({
    where: { email: identity.email },
    select: { id: true, isAdminApproved: true, deactivatedAt: true, emailVerifiedAt: true },
  });
  if (!user) {
    if (!settings.autoRegister)
      return {
        refusal: {
          code: 'FORBIDDEN',
          message: oidcMessages.noAccount(identity.email),
          outcome: 'no-account',
        },
      };
    return registerFromProvider(ctx, identity);
  }
  if (!user.isAdminApproved || user.deactivatedAt) {
    return {
      refusal: { code: 'FORBIDDEN', message: authMessages.awaitingApproval, outcome: 'awaiting-approval' },
    };
  }
  // The provider verified the address, which is what the portal's own link would have proven.
  if (!user.emailVerifiedAt) {
    await deps.db.user.updateMany({
      where: { id: user.id, emailVerifiedAt: null },
      data: { emailVerifiedAt: deps.clock.now() },
    });
  }
  return { userId: user.id };
}

const awaitingApproval = (): SsoAccount => ({
  refusal: { code: 'FORBIDDEN', message: oidcMessages.registeredAwaitingApproval, outcome: 'registered' },
});

/**
 * OIDC_AUTO_REGISTER: an agent awaiting approval, as a registration makes one, with the address
 * verified by the provider and a random password nobody knows (a reset link can set one later).
 * Admins hear of it as of a registration; it is audited as one.
 */
async function registerFromProvider(ctx: ServiceContext, identity: SsoIdentity): Promise<SsoAccount> {
  const { deps } = ctx;
  const passwordHash = await deps.passwords.hash(newSecretToken());
  const now = deps.clock.now();
  try {
    await deps.db.$transaction(async (tx) => {
      const user = await tx.user.create({
        data: {
          email: identity.email,
          ...namesOf(identity),
          company: '',
          phoneNumber: '',
          passwordHash,
          role: 'user',
          isAdminApproved: false,
          emailVerifiedAt: now,
        },
        select: publicUserSelect,
      });
      await recordAudit(tx, {
        actorId: user.id,
        action: 'user.register',
        entity: 'User',
        entityId: user.id,
        after: { ...toPublicUser(user), signedUpWith: 'sso' },
      });
      await emitWebhook(tx, deps, { type: 'user.registered', data: toPublicUser(user) });
      await notifyActiveAdmins(
        tx,
        {
          message: `New registration awaiting approval: ${user.firstName} ${user.lastName} (${user.email})`,
          link: '/users',
          event: 'registration',
        },
        deps,
      );
    });
  } catch (error) {
    // The same address registered at the same moment by another sign-in: it awaits approval too.
    if ((error as { code?: unknown }).code !== 'P2002') throw error;
  }
  return awaitingApproval();
}
