import { apiMessages } from '../../shared/messages';
import type { CreateUserInput, PublicUser, UpdateProfileInput } from '../../shared/schemas/users';
import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import type { AppDeps } from '../deps';
import { AppError, describeErrorForLog } from '../errors';
import { accountApprovedMessage } from '../mail/templates';
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

/**
 * Approves a registration or re-activates an account; takes effect at the user's next sign-in.
 * The user hears of it in the portal and by e-mail (a mail failure is logged, not fatal).
 */
export async function activateUser(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>,
  id: string,
  log: { error(obj: object, msg: string): void },
): Promise<PublicUser> {
  const found = await deps.db.user.findUnique({ where: { id }, select: { id: true, isAdminApproved: true } });
  if (!found) throw new AppError('NOT_FOUND', apiMessages.notFound);
  const user = await deps.db.$transaction(async (tx) => {
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
  if (!found.isAdminApproved) {
    await deps.mailer
      .send(
        accountApprovedMessage({
          to: user.email,
          firstName: user.firstName,
          link: `${deps.config.appUrl}/auth/login`,
        }),
      )
      .catch((error: unknown) =>
        log.error({ error: describeErrorForLog(error) }, 'sending the approval mail failed'),
      );
  }
  return user;
}

/** Admin-created accounts are verified and approved: they can sign in at once (DESIGN.md 4). */
export async function createUser(
  deps: Pick<AppDeps, 'db' | 'passwords' | 'clock'>,
  caller: Caller,
  input: CreateUserInput,
): Promise<PublicUser> {
  if (input.role === 'admin' && !caller.isOwner)
    throw new AppError('FORBIDDEN', apiMessages.ownerOnlyCreatesAdmins);
  const taken = await deps.db.user.findUnique({ where: { email: input.email }, select: { id: true } });
  if (taken) throw new AppError('CONFLICT', apiMessages.emailTaken);
  const passwordHash = await deps.passwords.hash(input.password);
  const row = await deps.db.user.create({
    data: {
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      phoneNumber: input.phoneNumber,
      company: input.company,
      role: input.role,
      passwordHash,
      isAdminApproved: true,
      emailVerifiedAt: deps.clock.now(),
    },
    select: publicUserSelect,
  });
  return toPublicUser(row);
}

export async function updateProfile(db: Db, input: UpdateProfileInput): Promise<PublicUser> {
  const found = await db.user.findUnique({ where: { id: input.userId }, select: { id: true } });
  if (!found) throw new AppError('NOT_FOUND', apiMessages.notFound);
  const { userId, ...fields } = input;
  return toPublicUser(
    await db.user.update({ where: { id: userId }, data: fields, select: publicUserSelect }),
  );
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
