import type { AccountStatus, PublicUser } from '../../shared/schemas/users';
import type { Prisma } from '../db/generated/client';

/** A user as answers show it, from the only columns they may read. */

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
  deactivatedAt: true,
  createdAt: true,
  officeId: true,
  commissionPlanId: true,
  coordinating: { select: { agentId: true }, orderBy: { agentId: 'asc' } },
} as const satisfies Prisma.UserSelect;

type PublicUserRow = Prisma.UserGetPayload<{ select: typeof publicUserSelect }>;

/**
 * Where an account stands, in the order that decides: approved is active; an account
 * that was active and was deactivated says so; a registration waits first for its e-mail, then
 * for an admin.
 */
export function accountStatus(row: {
  isAdminApproved: boolean;
  deactivatedAt: Date | null;
  emailVerifiedAt: Date | null;
}): AccountStatus {
  if (row.isAdminApproved) return 'active';
  if (row.deactivatedAt) return 'deactivated';
  return row.emailVerifiedAt ? 'awaitingApproval' : 'emailUnverified';
}

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
    status: accountStatus(row),
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    officeId: row.officeId,
    coordinatesFor: row.coordinating.map((c) => c.agentId),
    isCoordinator: row.coordinating.length > 0,
    commissionPlanId: row.commissionPlanId,
  };
}
