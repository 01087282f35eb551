import type { NotificationEvent } from '../../../shared/schemas/notification-settings';
import type { Tx } from '../../db/client';
import type { CallerContext } from '../context';
import { notifyActiveAdmins, notifyUsers } from '../notifications';

/** Who hears of a change to a transaction, and in what words. */

export const agentLink = (id: string) => `/home/transactions/${id}`;
const adminLink = (id: string) => `/adminTransactions/transactions/${id}`;

export const placeOf = (t: { streetAddress: string; city: string }) => `${t.streetAddress}, ${t.city}`;

export async function nameOf(tx: Tx, userId: string): Promise<string> {
  const user = await tx.user.findUnique({
    where: { id: userId },
    select: { firstName: true, lastName: true },
  });
  return user ? `${user.firstName} ${user.lastName}` : 'Someone';
}

/** A comment's first words, for a one-line notification. */
export function excerpt(text: string, length = 80): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/**
 * "The other side" of a transaction: when its agent acts, every active admin hears of it; when
 * anyone else acts, the agent does. Inside the change's transaction, so both commit together.
 */
export async function notifyOtherSide(
  tx: Tx,
  ctx: Pick<CallerContext, 'deps' | 'user'>,
  transaction: { id: string; userId: string },
  message: string,
  event: NotificationEvent,
): Promise<void> {
  const transactionId = transaction.id;
  const actor = ctx.user;
  if (actor.id === transaction.userId) {
    const link = adminLink(transactionId);
    await notifyActiveAdmins(tx, { message, link, transactionId, event }, ctx.deps, actor.id);
  } else {
    const link = agentLink(transactionId);
    await notifyUsers(tx, [transaction.userId], { message, link, transactionId, event }, ctx.deps);
  }
}
