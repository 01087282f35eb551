import { apiMessages } from '../../shared/messages';
import type {
  CreateUserInput,
  PublicUser,
  UpdateProfileInput,
  UsersListAnswer,
  UsersListInput,
} from '../../shared/schemas/users';
import type { Prisma } from '../db/generated/client';
import { AppError } from '../errors';
import { accountApprovedMessage } from '../mail/templates';
import { assertSelfOrAdmin } from './access';
import { actorOf, recordAudit } from './audit';
import type { CallerContext } from './context';
import { queueMail } from './mail';
import { notifyUsers, revokeLiveSessions } from './notifications';
import { escapeLike, pageCount } from './paging';
import { publicUserSelect, toPublicUser } from './public-user';
import { isOfficeAdmin, reachedUsersWhere, reachesUser } from './reach';
import { assertAssignable, writeCoordinations } from './user-offices';
import { emitWebhook } from './webhooks/events';

/**
 * Accounts as admins and their owners manage them. Every change writes an
 * audit event with the account before and after (public fields only: never a hash or a token),
 * in the database transaction of the change.
 */

const notFound = () => new AppError('NOT_FOUND', apiMessages.notFound);

/** A user the caller reaches (an office admin: one of its office), or 404. */
async function findPublicUser(ctx: CallerContext, id: string): Promise<PublicUser> {
  const row = await ctx.db.user.findUnique({ where: { id }, select: publicUserSelect });
  if (!row || !reachesUser(ctx.user, row)) throw notFound();
  return toPublicUser(row);
}

export async function getUser(ctx: CallerContext, input: { userId: string }): Promise<PublicUser> {
  assertSelfOrAdmin(ctx.user, input.userId);
  return findPublicUser(ctx, input.userId);
}

export async function listUsers(ctx: CallerContext, input: UsersListInput): Promise<UsersListAnswer> {
  const term = input.query?.trim();
  const where: Prisma.UserWhereInput = {
    ...reachedUsersWhere(ctx.user, input.officeId),
    ...(term
      ? {
          OR: (['firstName', 'lastName', 'email', 'company'] as const).map((field) => ({
            [field]: { contains: escapeLike(term), mode: 'insensitive' as const },
          })),
        }
      : {}),
  };
  const [rows, total] = await Promise.all([
    ctx.db.user.findMany({
      where,
      select: publicUserSelect,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.limit,
      take: input.limit,
    }),
    ctx.db.user.count({ where }),
  ]);
  return { users: rows.map(toPublicUser), totalPages: pageCount(total, input.limit), totalUsers: total };
}

/**
 * Approves a registration or re-activates an account; takes effect at the user's next sign-in.
 * The user hears of it in the portal and by e-mail (queued with the change: an SMTP outage delays it).
 */
export async function activateUser(ctx: CallerContext, input: { id: string }): Promise<PublicUser> {
  const before = await findPublicUser(ctx, input.id);
  const user = await ctx.db.$transaction(async (tx) => {
    const row = await tx.user.update({
      where: { id: input.id },
      data: { isAdminApproved: true, deactivatedAt: null },
      select: publicUserSelect,
    });
    const after = toPublicUser(row);
    if (!before.isAdminApproved) {
      await recordAudit(tx, {
        ...actorOf(ctx.user),
        action: 'user.activate',
        entity: 'User',
        entityId: input.id,
        before,
        after,
      });
      await notifyUsers(tx, [input.id], { message: apiMessages.accountApproved, link: '/home' }, ctx.deps);
      // The approval mail leaves with the change, through the outbox.
      await queueMail(tx, ctx.deps, {
        kind: 'account.approved',
        userId: input.id,
        content: accountApprovedMessage({
          to: row.email,
          firstName: row.firstName,
          link: `${ctx.deps.config.appUrl}/auth/login`,
        }),
      });
      await emitWebhook(tx, ctx.deps, { type: 'user.activated', data: after });
    }
    return after;
  });
  return user;
}

/** Admin-created accounts are verified and approved: they can sign in at once. */
export async function createUser(ctx: CallerContext, input: CreateUserInput): Promise<PublicUser> {
  if (input.role === 'admin' && !ctx.user.isOwner)
    throw new AppError('FORBIDDEN', apiMessages.ownerOnlyCreatesAdmins);
  // An office admin's new users join its office.
  const officeId =
    input.officeId === undefined
      ? isOfficeAdmin(ctx.user)
        ? (ctx.user.officeId ?? null)
        : null
      : input.officeId;
  await assertAssignable(ctx, { role: input.role }, { officeId, coordinatesFor: input.coordinatesFor });
  const taken = await ctx.db.user.findUnique({ where: { email: input.email }, select: { id: true } });
  if (taken) throw new AppError('CONFLICT', apiMessages.emailTaken);
  const passwordHash = await ctx.deps.passwords.hash(input.password);
  return ctx.db.$transaction(async (tx) => {
    const created = await tx.user.create({
      data: {
        officeId,
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        phoneNumber: input.phoneNumber,
        company: input.company,
        role: input.role,
        passwordHash,
        isAdminApproved: true,
        emailVerifiedAt: ctx.deps.clock.now(),
      },
      select: { id: true },
    });
    await writeCoordinations(tx, created.id, input.coordinatesFor ?? []);
    const user = toPublicUser(
      await tx.user.findUniqueOrThrow({ where: { id: created.id }, select: publicUserSelect }),
    );
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'user.create',
      entity: 'User',
      entityId: user._id,
      after: user,
    });
    // An account added by an admin is a new account as much as a registration is.
    await emitWebhook(tx, ctx.deps, { type: 'user.registered', data: user });
    return user;
  });
}

export async function updateProfile(ctx: CallerContext, input: UpdateProfileInput): Promise<PublicUser> {
  assertSelfOrAdmin(ctx.user, input.userId);
  const before = await findPublicUser(ctx, input.userId);
  const { userId, ...fields } = input;
  return ctx.db.$transaction(async (tx) => {
    const after = toPublicUser(
      await tx.user.update({ where: { id: userId }, data: fields, select: publicUserSelect }),
    );
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'user.update',
      entity: 'User',
      entityId: userId,
      before,
      after,
    });
    return after;
  });
}

/**
 * Deactivation applies at the user's next request (protected procedures load the user) and ends
 * every session they hold, so no refresh brings them back.
 */
export async function deactivateUser(ctx: CallerContext, input: { id: string }): Promise<PublicUser> {
  const target = await ctx.db.user.findUnique({ where: { id: input.id }, select: publicUserSelect });
  if (!target || !reachesUser(ctx.user, target)) throw notFound();
  if (target.isOwner) throw new AppError('FORBIDDEN', apiMessages.ownerCannotBeDeactivated);
  if (target.id === ctx.user.id) throw new AppError('FORBIDDEN', apiMessages.cannotDeactivateSelf);
  const before = toPublicUser(target);
  return ctx.db.$transaction(async (tx) => {
    const row = await tx.user.update({
      where: { id: input.id },
      // Only an account that was active becomes "deactivated": refusing a registration that was
      // never approved leaves it awaiting approval (and its first deactivation date stays).
      data: {
        isAdminApproved: false,
        ...(target.isAdminApproved ? { deactivatedAt: ctx.deps.clock.now() } : {}),
      },
      select: publicUserSelect,
    });
    await tx.refreshToken.updateMany({
      where: { userId: input.id, revokedAt: null },
      data: { revokedAt: ctx.deps.clock.now() },
    });
    // Their open live connections close on every instance, not only at the next request.
    await revokeLiveSessions(tx, input.id);
    const after = toPublicUser(row);
    if (before.isAdminApproved) {
      await recordAudit(tx, {
        ...actorOf(ctx.user),
        action: 'user.deactivate',
        entity: 'User',
        entityId: input.id,
        before,
        after,
      });
      await emitWebhook(tx, ctx.deps, { type: 'user.deactivated', data: after });
    }
    return after;
  });
}
