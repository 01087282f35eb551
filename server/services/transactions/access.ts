import { apiMessages } from '../../../shared/messages';
import { AppError } from '../../errors';
import type { CallerContext } from '../context';
import { type DetailRow, detailSelect } from './mappers';

/**
 * The ownership rule, once: an agent reaches only their own transactions, an admin any; a
 * soft-deleted one is gone for everyone. Anything else is 404, so an id reveals nothing.
 */

export const notFound = () => new AppError('NOT_FOUND', apiMessages.notFound);

/** The transaction if the caller may see it (and, with `ownerId`, if it is that user's). Else 404. */
export async function findVisible(ctx: CallerContext, id: string, ownerId?: string): Promise<DetailRow> {
  const row = await ctx.db.transaction.findFirst({
    where: { id, deletedAt: null, ...(ownerId ? { userId: ownerId } : {}) },
    select: detailSelect,
  });
  if (!row || (ctx.user.role !== 'admin' && row.userId !== ctx.user.id)) throw notFound();
  return row;
}

/** Whether the caller may touch the transaction (uploads check this before reading a byte). */
export async function assertVisible(ctx: CallerContext, { id }: { id: string }): Promise<void> {
  const row = await ctx.db.transaction.findFirst({
    where: { id, deletedAt: null },
    select: { userId: true },
  });
  if (!row || (ctx.user.role !== 'admin' && row.userId !== ctx.user.id)) throw notFound();
}

/** A form of a visible transaction, or 404. */
export async function findForm(ctx: CallerContext, id: string, formId: string) {
  const transaction = await findVisible(ctx, id);
  const form = transaction.forms.find((f) => f.id === formId);
  if (!form) throw notFound();
  return { transaction, form };
}
