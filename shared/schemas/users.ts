import { z } from 'zod';
import { ROLES } from '../constants';
import { idSchema, pagingInput } from './common';

/**
 * A user as the API shows it (DESIGN.md section 5: "user (no secrets)"). Built from a Prisma
 * select that never reads the password hash or tokens.
 */
export const publicUser = z.object({
  _id: idSchema,
  firstName: z.string(),
  lastName: z.string(),
  company: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  role: z.enum(ROLES),
  isAdminApproved: z.boolean(),
  isEmailVerified: z.boolean(),
  /** The spec's "designated admin" (DESIGN.md section 9.3). */
  isOwner: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type PublicUser = z.infer<typeof publicUser>;

/** Paths such as /api/settings/getUser/{userId}: the caller's own id unless an admin calls. */
export const userIdInput = z.object({ userId: idSchema });

export const userActivationInput = z.object({ id: idSchema });

export const usersListInput = pagingInput.extend({
  query: z.string().trim().max(200).optional(),
});
export const usersListAnswer = z.object({
  users: z.array(publicUser),
  totalPages: z.number().int(),
  totalUsers: z.number().int(),
});
