import { apiMessages } from '../../shared/messages';
import type { PublicUser } from '../../shared/schemas/users';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { AppError } from '../errors';
import { notifyUsers, revokeLiveSessions } from './notifications';
import { escapeLike, pageCount } from './paging';

/** The only columns of a user any answer may carry: never the hash, never token state. */
export const publicUserSelect = {
  id: true,
  firstName: true,
  lastName: true,
  company: true,
  email: true,
  phoneNumber: true,
  role: true,
  isAdminApproved: true,
  isOwner: true,
  emailVerifiedAt: true,
  createdAt: true,
} as const satisfies Prisma.UserSelect;

type PublicUserRow = Prisma.UserGetPayload<{ select: typeof publicUserSelect }>;

export function toPublicUser(row: PublicUserRow): PublicUser {
  return {
    _id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    company: row.company,
    email: row.email,
    phoneNumber: row.phoneNumber,
    role: row.role,
    isAdminApproved: row.isAdminApproved,
    isEmailVerified: row.emailVerifiedAt !== null,
    isOwner: row.isOwner,
    createdAt: row.createdAt.toISOString(),
  };
}

export type Caller = { id: string; role: 'user' | 'admin'; isOwner: boolean };

/**
 * Paths such as /api/settings/getUser/{userId} name a user: it must be the caller unless the
 * caller is an admin. Decided before any lookup, so the answer reveals nothing (DESIGN.md 11).
 */
export function assertSelfOrAdmin(caller: Caller, userId: string): void {
  if (caller.id !== userId && caller.role !== 'admin') throw new AppError('FORBIDDEN', apiMessages.forbidden);
}

export async function getUser(db: Db, userId: string): Promise<PublicUser> {
  const row = await db.user.findUnique({ where: { id: userId }, select: publicUserSelect });
  if (!row) throw new AppError('NOT_FOUND', apiMessages.notFound);
  return toPublicUser(row);
}

export async function listUsers(db: Db, input: { page: number; limit: number; query?: string | undefined }) {
  const term = input.query?.trim();
  const where: Prisma.UserWhereInput = term
    ? {
        OR: (['firstName', 'lastName', 'email', 'company'] as const).map((field) => ({
          [field]: { contains: escapeLike(term), mode: 'insensitive' as const },
        })),
      }
    : {};
  const [rows, total] = await Promise.all([
    db.user.findMany({
      where,
      select: publicUserSelect,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.limit,
      take: input.limit,
    }),
    db.user.count({ where }),
  ]);
  return { users: rows.map(toPublicUser), totalPages: pageCount(total, input.limit), totalUsers: total };
}

/** Approves a registration or re-activates an account; takes effect at the user's next sign-in. */
export async function activateUser(db: Db, id: string): Promise<PublicUser> {
  const found = await db.user.findUnique({ where: { id }, select: { id: true, isAdminApproved: true } });
  if (!found) throw new AppError('NOT_FOUND', apiMessages.notFound);
  return db.$transaction(async (tx) => {
    const row = await tx.user.update({
      where: { id },
      data: { isAdminApproved: true },
      select: publicUserSelect,
    });
    if (!found.isAdminApproved) {
      await notifyUsers(tx, [id], { message: apiMessages.accountApproved, link: '/home' });
    }
    return toPublicUser(row);
  });
}

/**
 * Deactivation applies at the user's next request (protected procedures load the user) and ends
 * every session they hold, so no refresh brings them back.
 */
export async function deactivateUser(db: Db, caller: Caller, id: string, now: Date): Promise<PublicUser> {
  const target = await db.user.findUnique({ where: { id }, select: { id: true, isOwner: true } });
  if (!target) throw new AppError('NOT_FOUND', apiMessages.notFound);
  if (target.isOwner) throw new AppError('FORBIDDEN', apiMessages.ownerCannotBeDeactivated);
  if (target.id === caller.id) throw new AppError('FORBIDDEN', apiMessages.cannotDeactivateSelf);
  return db.$transaction(async (tx) => {
    const row = await tx.user.update({
      where: { id },
      data: { isAdminApproved: false },
      select: publicUserSelect,
    });
    await tx.refreshToken.updateMany({ where: { userId: id, revokedAt: null }, data: { revokedAt: now } });
    // Their open live connections close on every instance, not only at the next request.
    await revokeLiveSessions(tx, id);
    return toPublicUser(row);
  });
}
