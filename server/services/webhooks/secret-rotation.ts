import { PREVIOUS_SECRET_HONOURED_MS, type RotatedWebhookSecret } from '../../../shared/schemas/webhooks';
import { webhookMessages } from '../../../shared/webhook-messages';
import { AppError } from '../../errors';
import { newWebhookSecret } from '../../webhooks/signing';
import { actorOf, recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { assertBrokerageWide } from '../reach';
import { sealSecret } from './secrets';

/**
 * A new signing secret for an endpoint, shown in this answer only. The secret it replaces keeps
 * signing for PREVIOUS_SECRET_HONOURED_MS (deliveries carry both signatures, deliver.ts), so the
 * receiver can take the new one at its own pace. Only the current secret and the one just replaced
 * are kept: rotating again within the 24 hours drops the older one.
 */
export async function rotateSecret(
  ctx: CallerContext,
  { id }: { id: string },
): Promise<RotatedWebhookSecret> {
  assertBrokerageWide(ctx.user);
  const secret = newWebhookSecret();
  const honouredUntil = new Date(ctx.deps.clock.now().getTime() + PREVIOUS_SECRET_HONOURED_MS);
  return ctx.db.$transaction(async (tx) => {
    // One statement reads the current secret and replaces it, so two rotations at once each keep
    // the secret the other one made rather than both keeping the same older one.
    const rotated = await tx.$executeRaw`
      UPDATE webhook_endpoints
         SET previous_secret_sealed = secret_sealed,
             previous_secret_expires_at = ${honouredUntil},
             secret_sealed = ${sealSecret(ctx.deps, secret)},
             updated_at = now()
       WHERE id = ${id}::uuid`;
    if (rotated === 0) throw new AppError('NOT_FOUND', webhookMessages.notFound);
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'webhook.rotate-secret',
      entity: 'WebhookEndpoint',
      entityId: id,
      // Never a secret, sealed or not: when the replaced one stops signing.
      after: { previousSecretExpiresAt: honouredUntil.toISOString() },
    });
    return { secret };
  });
}
