import type { NotificationEvent } from '../../../shared/schemas/notification-settings';
import type { Tx } from '../../db/client';
import { Prisma } from '../../db/generated/client';
import type { CallerContext } from '../context';
import { notifyActiveAdmins, notifyUsers } from '../notifications';
import { actsFor } from '../reach';

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
 * Who hears what is meant for an agent: the agent, and every active coordinator working for them
 * (they act on the agent's files, so they hear of rejections, comments and reminders too).
 */
export async function agentAudience(tx: Pick<Tx, 'coordination'>, agentId: string): Promise<string[]> {
  const rows = await tx.coordination.findMany({
    where: { agentId, coordinator: { isAdminApproved: true } },
    select: { coordinatorId: true },
    orderBy: { coordinatorId: 'asc' },
  });
  return [agentId, ...rows.map((row) => row.coordinatorId)];
}

/** agentAudience's coordinators in SQL, for the agent whose id is `agent`: an array of ids. */
export const coordinatorsSql = (agent: Prisma.Sql) => Prisma.sql`ARRAY(
  SELECT c.coordinator_id::text FROM coordinations c JOIN users cu ON cu.id = c.coordinator_id
   WHERE c.agent_id = ${agent} AND cu.is_admin_approved ORDER BY c.coordinator_id)`;

/**
 * "The other side" of a transaction: when its agent acts, or a coordinator for them, every active
 * admin hears of it; when anyone else acts, the agent and its coordinators do (agentAudience).
 * Inside the change's transaction, so both commit together.
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
  if (actsFor(actor, transaction.userId)) {
    const link = adminLink(transactionId);
    await notifyActiveAdmins(tx, { message, link, transactionId, event }, ctx.deps, actor.id);
  } else {
    const link = agentLink(transactionId);
    const audience = await agentAudience(tx, transaction.userId);
    await notifyUsers(tx, audience, { message, link, transactionId, event }, ctx.deps);
  }
}
