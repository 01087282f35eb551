import { apiMessages, complianceMessages } from '../../../shared/messages';
import type { Tx } from '../../db/client';
import { AppError } from '../../errors';
import type { CallerContext } from '../context';
import { pathHoldsAgent, reachesTransaction } from '../reach';
import { type DetailRow, detailSelect } from './mappers';

/**
 * The ownership rule, once: a transaction is visible to whom it reaches (services/reach.ts: its
 * agent and their coordinators, the admins of its office, brokerage-wide admins); a soft-deleted
 * one is gone for everyone. Anything else is 404, so an id reveals nothing.
 */

export const notFound = () => new AppError('NOT_FOUND', apiMessages.notFound);

/**
 * The transaction if the caller may see it (and, with `pathUserId`, if it belongs under the path
 * naming that user: reach.ts, pathHoldsAgent). Else 404.
 */
export async function findVisible(ctx: CallerContext, id: string, pathUserId?: string): Promise<DetailRow> {
  const row = await ctx.db.transaction.findFirst({ where: { id, deletedAt: null }, select: detailSelect });
  if (!row || !reachesTransaction(ctx.user, row)) throw notFound();
  if (pathUserId !== undefined && !pathHoldsAgent(ctx.user, pathUserId, row.userId)) throw notFound();
  return row;
}

/**
 * Whether the caller may touch the transaction (uploads check this before reading a byte); with
 * `toChange`, also whether its checklist may still change: a closed file takes no new file.
 */
export async function assertVisible(
  ctx: CallerContext,
  { id }: { id: string },
  options: { toChange?: boolean } = {},
): Promise<void> {
  const row = await ctx.db.transaction.findFirst({
    where: { id, deletedAt: null },
    select: { userId: true, officeId: true, closedAt: true },
  });
  if (!row || !reachesTransaction(ctx.user, row)) throw notFound();
  if (options.toChange && row.closedAt) throw closed();
}

/** A form of a visible transaction, or 404. */
export async function findForm(ctx: CallerContext, id: string, formId: string) {
  const transaction = await findVisible(ctx, id);
  const form = transaction.forms.find((f) => f.id === formId);
  if (!form) throw notFound();
  return { transaction, form };
}

export const closed = () => new AppError('CONFLICT', complianceMessages.transactionClosed);

export type LockedTransaction = {
  id: string;
  userId: string;
  officeId: string | null;
  streetAddress: string;
  city: string;
  closedAt: Date | null;
  deletedAt: Date | null;
  requiredCount: number;
  acceptedCount: number;
  waivedCount: number;
};

/**
 * Locks the rows of the given transactions until the end of the database transaction, in id
 * order, and reads them as they are now. Every change to a checklist takes this lock first (the
 * progress trigger takes it too, in the same order), so two changes to one file run one after
 * the other and each decides on what the other committed: two admins accepting one item, a bulk
 * accept racing an upload, a close racing a rejection. Missing ids are simply absent.
 */
export async function lockTransactions(
  tx: Tx,
  ids: readonly string[],
): Promise<Map<string, LockedTransaction>> {
  const rows = await tx.$queryRaw<LockedTransaction[]>`
    SELECT id::text AS id, user_id::text AS "userId", office_id::text AS "officeId", street_address AS "streetAddress", city,
           closed_at AS "closedAt", deleted_at AS "deletedAt", required_count AS "requiredCount",
           accepted_count AS "acceptedCount", waived_count AS "waivedCount"
      FROM transactions WHERE id = ANY (${[...new Set(ids)]}::uuid[]) ORDER BY id FOR UPDATE`;
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Locks one transaction the caller has already been shown (findVisible) and checks it is still
 * there, and, for a change to its checklist, still open: a closed file is frozen for everyone
 * (an admin reopens it first); its conversation alone goes on.
 */
export async function lockForChange(tx: Tx, id: string): Promise<LockedTransaction> {
  const row = (await lockTransactions(tx, [id])).get(id);
  if (!row || row.deletedAt) throw notFound();
  if (row.closedAt) throw closed();
  return row;
}
