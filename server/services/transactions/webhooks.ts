import type { WebhookEventType } from '../../../shared/schemas/webhooks';
import type { Tx } from '../../db/client';
import type { CallerContext } from '../context';
import { fileLinker } from '../file-links';
import { emitWebhooks, subscribedTypes } from '../webhooks/events';
import type { LockedTransaction } from './access';
import { type DetailRow, detailSelect, type FormRow, formSelect, toForm, toTransaction } from './mappers';

/**
 * The webhook events of transactions and their checklists, each emitted in the
 * database transaction of its change. `data` is the resource as the REST API answers it, with
 * absolute file links whoever made the change (the portal's own pages get site-relative ones).
 * A checklist item is answered with the `transactionId` it belongs to added.
 */

const absoluteLinks = (ctx: CallerContext) => fileLinker({ ...ctx, fileLinks: 'absolute' });

export async function emitTransactionEvents(
  tx: Tx,
  ctx: CallerContext,
  types: readonly WebhookEventType[],
  row: DetailRow,
): Promise<void> {
  const wanted = await subscribedTypes(tx, types);
  if (wanted.length === 0) return;
  const data = await toTransaction(absoluteLinks(ctx), row, ctx.deps.clock.now());
  await emitWebhooks(
    tx,
    ctx.deps,
    wanted.map((type) => ({ type, data, transactionId: row.id })),
  );
}

export async function emitFormEvent(
  tx: Tx,
  ctx: CallerContext,
  type: WebhookEventType,
  transactionId: string,
  row: FormRow,
): Promise<void> {
  if ((await subscribedTypes(tx, [type])).length === 0) return;
  await emitFormData(tx, ctx, type, transactionId, row);
}

/** A checklist item read again under the lock, for its event (only when someone listens). */
export async function emitFormEventById(
  tx: Tx,
  ctx: CallerContext,
  type: WebhookEventType,
  transactionId: string,
  formId: string,
): Promise<void> {
  if ((await subscribedTypes(tx, [type])).length === 0) return;
  const row = await tx.transactionForm.findUniqueOrThrow({ where: { id: formId }, select: formSelect });
  await emitFormData(tx, ctx, type, transactionId, row);
}

async function emitFormData(
  tx: Tx,
  ctx: CallerContext,
  type: WebhookEventType,
  transactionId: string,
  row: FormRow,
): Promise<void> {
  const data = { ...(await toForm(absoluteLinks(ctx), row)), transactionId };
  await emitWebhooks(tx, ctx.deps, [{ type, data, transactionId }]);
}

const isCompliant = (row: Pick<LockedTransaction, 'requiredCount' | 'acceptedCount' | 'waivedCount'>) =>
  row.acceptedCount + row.waivedCount >= row.requiredCount;

/**
 * `transaction.compliant` when a change made a file compliant: every required item accepted or
 * waived now, and not before (`locked`: the counters read under the lock, before the change).
 */
export async function emitIfNowCompliant(
  tx: Tx,
  ctx: CallerContext,
  before: readonly LockedTransaction[],
): Promise<void> {
  if (before.every(isCompliant)) return;
  if ((await subscribedTypes(tx, ['transaction.compliant'])).length === 0) return;
  for (const locked of before) {
    if (isCompliant(locked)) continue;
    const row = await tx.transaction.findUniqueOrThrow({ where: { id: locked.id }, select: detailSelect });
    if (isCompliant(row)) await emitTransactionEvents(tx, ctx, ['transaction.compliant'], row);
  }
}
