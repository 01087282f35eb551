import type { WebhookEventType } from '../../../shared/schemas/webhooks';
import type { Tx } from '../../db/client';
import type { CallerContext } from '../context';
import { notifyUsers } from '../notifications';
import { agentLink } from '../transactions/notify';
import { emitWebhook } from '../webhooks/events';
import { type CdaRow, toCdaData } from './cda-answer';

/**
 * What a CDA's issue or payment tells the outside, in the database transaction of the change:
 * integrators get the CDA as answered, without its PDF link (a link expires; the event stays),
 * and the agent paid is notified in the portal.
 */

export async function emitCdaEvent(
  tx: Tx,
  ctx: CallerContext,
  type: Extract<WebhookEventType, `cda.${string}`>,
  row: CdaRow,
): Promise<void> {
  await emitWebhook(tx, ctx.deps, { type, data: toCdaData(row), transactionId: row.transactionId });
}

/** The agent of the transaction hears of it, unless the agent did it. */
export async function notifyAgentOfCda(
  tx: Tx,
  ctx: CallerContext,
  deal: { id: string; userId: string },
  message: string,
): Promise<void> {
  if (deal.userId === ctx.user.id) return;
  await notifyUsers(tx, [deal.userId], { message, link: agentLink(deal.id), transactionId: deal.id });
}
