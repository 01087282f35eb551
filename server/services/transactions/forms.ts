import { apiMessages } from '../../../shared/messages';
import type { ReviewInput } from '../../../shared/schemas/transactions';
import { AppError } from '../../errors';
import { isValidKey, keyFromLink } from '../../storage/keys';
import type { Storage } from '../../storage/storage';
import { recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { fileLinker } from '../file-links';
import { findForm } from './access';
import { commentSelect, formSelect, toComment, toForm } from './mappers';
import { excerpt, nameOf, notifyOtherSide, placeOf } from './notify';

/**
 * The checklist of a transaction: attaching a file to a form, the conversation on each form, and
 * the admins' review. Each change is audited and notified in its own database transaction.
 */

/**
 * Accepts the url an upload answered (absolute, /files/... or the bare key) and returns its key.
 * Only a key under this transaction's folder that exists in storage is accepted.
 */
async function keyOfUpload(storage: Storage, transactionId: string, url: string): Promise<string> {
  const key = keyFromLink(url);
  const belongs = isValidKey(key) && key.startsWith(`transactions/${transactionId}/`);
  if (!belongs || !(await storage.exists(key))) {
    throw new AppError('BAD_REQUEST', apiMessages.fileNotOfTransaction, [
      { path: 'url', message: apiMessages.fileNotOfTransaction },
    ]);
  }
  return key;
}

export async function setFormFile(ctx: CallerContext, input: { id: string; formId: string; url: string }) {
  const { transaction, form } = await findForm(ctx, input.id, input.formId);
  const key = await keyOfUpload(ctx.deps.storage, transaction.id, input.url);
  return ctx.db.$transaction(async (tx) => {
    // A new file is a new submission: it waits for review again. The old file stays in storage.
    const row = await tx.transactionForm.update({
      where: { id: form.id },
      data: { fileKey: key, status: 'pending' },
      select: formSelect,
    });
    await recordAudit(tx, {
      actorId: ctx.user.id,
      action: 'form.upload',
      entity: 'TransactionForm',
      entityId: form.id,
      transactionId: transaction.id,
      before: { label: form.label, fileKey: form.fileKey, status: form.status },
      after: { label: row.label, fileKey: row.fileKey, status: row.status },
    });
    await notifyOtherSide(
      tx,
      ctx.user,
      transaction,
      `${await nameOf(tx, ctx.user.id)} uploaded "${form.label}" for ${placeOf(transaction)}`,
    );
    return toForm(fileLinker(ctx), row);
  });
}

export async function addComment(ctx: CallerContext, input: { id: string; formId: string; text: string }) {
  const caller = ctx.user;
  const { transaction, form } = await findForm(ctx, input.id, input.formId);
  return ctx.db.$transaction(async (tx) => {
    // The role is the caller's real one, whatever a client sends (DESIGN.md section 11).
    const row = await tx.comment.create({
      data: { formId: form.id, userId: caller.id, text: input.text, role: caller.role },
      select: commentSelect,
    });
    const answer = toComment(row);
    await recordAudit(tx, {
      actorId: caller.id,
      action: 'comment.create',
      entity: 'Comment',
      entityId: row.id,
      transactionId: transaction.id,
      after: { form: form.label, text: answer.text },
    });
    await notifyOtherSide(
      tx,
      caller,
      transaction,
      `${await nameOf(tx, caller.id)} commented on "${form.label}" (${placeOf(transaction)}): ${excerpt(answer.text)}`,
    );
    return answer;
  });
}

/** Accept or reject a form, with or without a comment; either decision can be changed later. */
export async function review(ctx: CallerContext, input: ReviewInput) {
  const caller = ctx.user;
  const { transaction, form } = await findForm(ctx, input.id, input.formId);
  const text = input.text?.trim() ?? '';
  return ctx.db.$transaction(async (tx) => {
    if (input.status)
      await tx.transactionForm.update({ where: { id: form.id }, data: { status: input.status } });
    // One review action is one comment row: the decision and its reason together.
    await tx.comment.create({
      data: { formId: form.id, userId: caller.id, text, role: caller.role, status: input.status ?? null },
    });
    await recordAudit(tx, {
      actorId: caller.id,
      action: input.status ? 'form.review' : 'comment.create',
      entity: 'TransactionForm',
      entityId: form.id,
      transactionId: transaction.id,
      before: { label: form.label, status: form.status },
      after: { label: form.label, status: input.status ?? form.status, ...(text ? { comment: text } : {}) },
    });
    // One review action, one notification: the decision and its reason together.
    const message = input.status
      ? `"${form.label}" was ${input.status} (${placeOf(transaction)})${text ? `: ${excerpt(text)}` : ''}`
      : `${await nameOf(tx, caller.id)} commented on "${form.label}" (${placeOf(transaction)}): ${excerpt(text)}`;
    await notifyOtherSide(tx, caller, transaction, message);
    const row = await tx.transactionForm.findUniqueOrThrow({ where: { id: form.id }, select: formSelect });
    return toForm(fileLinker(ctx), row);
  });
}
