import { apiMessages, integrationMessages } from '../../shared/messages';
import { Prisma } from '../db/generated/client';
import { AppError } from '../errors';
import type { Caller, CallerContext } from './context';

/**
 * What a caller reaches, decided here and nowhere else. Every list, queue, search, calendar,
 * dashboard, export and lookup of transactions or users asks this module for its filter, so a
 * new query cannot forget an office.
 *
 * - The owner, and an admin without an office (brokerage-wide): everything; their lists may be
 *   narrowed to one office (`officeId=`).
 * - An admin with an office (an office admin): that office's users and the transactions of its
 *   agents. Anything else does not exist for them: 404, never 403.
 * - Anyone else (an agent): their own transactions and those of the agents they coordinate for.
 *
 * A transaction's office is its agent's: the database copies it to transactions.office_id.
 */

const notFound = () => new AppError('NOT_FOUND', apiMessages.notFound);

/** An admin held to one office: it has an office and is not the owner. */
export const isOfficeAdmin = (caller: Caller): boolean =>
  caller.role === 'admin' && !caller.isOwner && (caller.officeId ?? null) !== null;

/** An admin who sees the whole brokerage. */
export const isBrokerageWide = (caller: Caller): boolean => caller.role === 'admin' && !isOfficeAdmin(caller);

/** The agents whose transactions the caller works on as its own: itself and those it coordinates for. */
export const agentsOf = (caller: Caller): string[] => [caller.id, ...(caller.coordinatesFor ?? [])];

/** Whether the caller works on `agentId`'s transactions as that agent could. */
export const actsFor = (caller: Caller, agentId: string): boolean =>
  caller.id === agentId || (caller.coordinatesFor ?? []).includes(agentId);

/**
 * The office an admin's lists are held to: an office admin's own whatever it asks, a
 * brokerage-wide admin's `requested` filter, or null (every office, and users with none).
 */
export function officeOfLists(caller: Caller, requested?: string | null): string | null {
  if (isOfficeAdmin(caller)) return caller.officeId ?? null;
  return requested ?? null;
}

/**
 * The transactions (`t`) an admin's list shows: the office filter of officeOfLists, else all.
 * `true` costs the planner nothing, so the brokerage-wide statement keeps its plan.
 */
export function adminTransactionsSql(caller: Caller, requested?: string | null): Prisma.Sql {
  return transactionsOfOfficeSql(officeOfLists(caller, requested));
}

/** Transactions `t` of an office settled by officeOfLists (an export's plan holds it); null: all. */
export const transactionsOfOfficeSql = (office: string | null): Prisma.Sql =>
  office === null ? Prisma.sql`true` : Prisma.sql`t.office_id = ${office}::uuid`;

/** Users `u` of an office settled by officeOfLists; null: all. */
export const usersOfOfficeSql = (office: string | null): Prisma.Sql =>
  office === null ? Prisma.sql`true` : Prisma.sql`u.office_id = ${office}::uuid`;

/**
 * Users `u` of the office a statement names itself (`office`: a column or a parameter of the
 * statement), for figures grouped by office over offices already settled by officeOfLists.
 */
export const usersOfOfficeNamedSql = (office: Prisma.Sql): Prisma.Sql => Prisma.sql`u.office_id = ${office}`;

/**
 * Notices to the admins (admin_notices `a`) a user `u` reads, by the office `u` has now: the
 * owner and admins without an office read every notice; a user with an office reads only the
 * notices of that office. Notices of no office (no transaction: a registration) are read by
 * brokerage-wide admins alone. Ranges of past admin terms hold a former admin with an office to
 * that office too: nothing wider than it had. Migration 20261203120000_office_notices spells the
 * same rule in the notification_feed view and in the admins' bus messages.
 *
 * The two parts exclude each other, so a statement can read each as an index range of its own
 * (every notice, or one office's), each gated on `u` alone.
 */
export const readsEveryOfficeSql = Prisma.sql`(u.is_owner OR u.office_id IS NULL)`;
/** The notices `a` of `u`'s own office, for a user `u` that does not read every office. */
export const readsOwnOfficeSql = Prisma.sql`(NOT u.is_owner AND a.office_id = u.office_id)`;
/** Whether user `u` reads notice `a`. */
export const noticeReachesUserSql = Prisma.sql`(${readsEveryOfficeSql} OR ${readsOwnOfficeSql})`;

/**
 * The office whose notices an admin's live stream is handed, or null for every office (the bus
 * then also hands it notices of no office): the same rule for a caller.
 */
export const noticesOfficeOf = (caller: Caller): string | null => officeOfLists(caller);

/**
 * Whether a transaction of `agentId` belongs under a path naming `userId`
 * (/api/transactions/individual/{id}/{userId}): that user's own transactions, and on the caller's
 * own path also those of the agents it coordinates for, as its own list shows them.
 */
export function pathHoldsAgent(caller: Caller, userId: string, agentId: string): boolean {
  return userId === caller.id ? actsFor(caller, agentId) : agentId === userId;
}

/** Whether the caller reaches one transaction, given its agent and its office. */
export function reachesTransaction(
  caller: Caller,
  row: { userId: string; officeId: string | null },
): boolean {
  if (caller.role === 'admin') return !isOfficeAdmin(caller) || row.officeId === caller.officeId;
  return actsFor(caller, row.userId);
}

/** The users (Prisma `where`) an admin's user lists show: an office admin's office, else all or the filter. */
export function reachedUsersWhere(caller: Caller, requested?: string | null): Prisma.UserWhereInput {
  const office = officeOfLists(caller, requested);
  return office === null ? {} : { officeId: office };
}

/** Whether an admin reaches a user (an office admin: one of its office). */
export function reachesUser(caller: Caller, user: { officeId: string | null }): boolean {
  return !isOfficeAdmin(caller) || user.officeId === caller.officeId;
}

/** Whether the caller reaches an office: a brokerage-wide admin any, an office admin its own. */
export function reachesOffice(caller: Caller, officeId: string): boolean {
  return !isOfficeAdmin(caller) || caller.officeId === officeId;
}

/**
 * What only a brokerage-wide admin may do (offices themselves, settings every office shares:
 * templates, libraries, rejection reasons, webhooks): an office admin is refused (403); it knows
 * these exist, as it reads them.
 */
export function assertBrokerageWide(caller: Caller): void {
  if (!isBrokerageWide(caller)) throw new AppError('FORBIDDEN', apiMessages.forbidden);
}

/**
 * Whose transaction a caller may open: its own; a coordinator, one of its agents'; an admin (and
 * an API key, as its admin), any active agent it reaches, so that a back-office sync opens deals
 * in the agents' names. An admin naming anyone else (no one, an inactive or unapproved account,
 * an admin, another office's agent) is told the id names no active agent: a 400, since the id is
 * a field of the body, and the same for all of them, so it tells nothing of other offices.
 */
export async function assertOpensFor(ctx: CallerContext, agentId: string): Promise<void> {
  if (actsFor(ctx.user, agentId)) return;
  if (ctx.user.role !== 'admin') throw new AppError('FORBIDDEN', apiMessages.forbidden);
  const agent = await ctx.db.user.findUnique({
    where: { id: agentId },
    select: { role: true, officeId: true, isAdminApproved: true, emailVerifiedAt: true, deactivatedAt: true },
  });
  const active =
    agent?.role === 'user' && agent.isAdminApproved && agent.emailVerifiedAt !== null && !agent.deactivatedAt;
  if (!agent || !active || !reachesUser(ctx.user, agent)) {
    const message = integrationMessages.noActiveAgent;
    throw new AppError('BAD_REQUEST', message, [{ path: 'agentId', message }]);
  }
}

/**
 * Paths such as /api/transactions/{userId} name whose transactions they are about. The caller
 * may use them for itself, for an agent it coordinates for, and, as an admin, for any user it
 * reaches; a user of another office is not found (404), and an agent naming someone else is
 * refused (403, as before offices existed: the agent knows no other user's id to probe with).
 */
export async function assertActsForUser(ctx: CallerContext, userId: string): Promise<void> {
  if (actsFor(ctx.user, userId)) return;
  if (ctx.user.role !== 'admin') throw new AppError('FORBIDDEN', apiMessages.forbidden);
  if (!isOfficeAdmin(ctx.user)) return;
  const user = await ctx.db.user.findUnique({ where: { id: userId }, select: { officeId: true } });
  if (!user || !reachesUser(ctx.user, user)) throw notFound();
}

/**
 * Paths such as /api/settings/notifications/{userId} name a user's own settings or feed: the user
 * themself, or an admin who reaches that user. A coordinator has no say there (403, decided before
 * any lookup); an office admin naming a user of another office, or no user, is not found (404).
 */
export async function assertSelfOrReachingAdmin(ctx: CallerContext, userId: string): Promise<void> {
  if (ctx.user.id === userId) return;
  if (ctx.user.role !== 'admin') throw new AppError('FORBIDDEN', apiMessages.forbidden);
  if (!isOfficeAdmin(ctx.user)) return;
  const user = await ctx.db.user.findUnique({ where: { id: userId }, select: { officeId: true } });
  if (!user || !reachesUser(ctx.user, user)) throw notFound();
}
