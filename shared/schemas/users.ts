import { z } from 'zod';
import { ADD_USER_FIRST_NAME_MIN_LENGTH, ROLES } from '../constants';
import { validation } from '../messages';
import { passwordSchema, phoneSchema } from './auth';
import { idSchema, pagingInput } from './common';

export const ACCOUNT_STATUSES = ['emailUnverified', 'awaitingApproval', 'active', 'deactivated'] as const;

/**
 * A user as the API shows it ("user (no secrets)"). Built from a Prisma
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
  /** The owner, the one "designated admin". */
  isOwner: z.boolean(),
  /**
   * Where the account stands: emailUnverified (registered, address not confirmed),
   * awaitingApproval (confirmed, not approved yet), active, or deactivated (was active, then
   * deactivated by an admin).
   */
  status: z.enum(ACCOUNT_STATUSES),
  /** When the account was last deactivated; null while active or never deactivated. */
  deactivatedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  /** The user's office; null: none (an admin without one is brokerage-wide). */
  officeId: idSchema.nullable(),
  /** The agents this user coordinates for, as their transaction coordinator. */
  coordinatesFor: z.array(idSchema),
  /** coordinatesFor is not empty. */
  isCoordinator: z.boolean(),
  /** The commission plan the user's commissions split by; null: none yet. */
  commissionPlanId: idSchema.nullable(),
});
export type PublicUser = z.infer<typeof publicUser>;
export type AccountStatus = PublicUser['status'];

/** Paths such as /api/settings/getUser/{userId}: the caller's own id unless an admin calls. */
export const userIdInput = z.object({ userId: idSchema });

export const userActivationInput = z.object({ id: idSchema });

export const usersListInput = pagingInput.extend({
  query: z.string().trim().max(200).optional(),
  /** A brokerage-wide admin's filter; an office admin always sees its own office's users. */
  officeId: idSchema.optional(),
});
export type UsersListInput = z.infer<typeof usersListInput>;
export const usersListAnswer = z.object({
  users: z.array(publicUser),
  totalPages: z.number().int(),
  totalUsers: z.number().int(),
});
export type UsersListAnswer = z.infer<typeof usersListAnswer>;

/**
 * Where a user works: its office (null: none) and the agents it coordinates for. Absent leaves
 * each as it is (on creation: no office, unless an office admin creates, and no one).
 */
const officeAssignment = {
  officeId: idSchema.nullable().optional(),
  coordinatesFor: z.array(idSchema).max(500).optional(),
};

/** An admin changes a user's office, the agents it coordinates for, or its commission plan (null: none). */
export const updateUserInput = z.object({
  id: idSchema,
  ...officeAssignment,
  commissionPlanId: idSchema.nullable().optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserInput>;

/** The Add user dialog: its own messages, the 123-456-7890 phone form. */
export const createUserInput = z.object({
  firstName: z
    .string({ error: validation.firstNameRequired })
    .trim()
    .min(1, { error: validation.firstNameRequired })
    .min(ADD_USER_FIRST_NAME_MIN_LENGTH, { error: validation.firstNameMin })
    .max(100),
  lastName: z
    .string({ error: validation.lastNameRequired })
    .trim()
    .min(1, { error: validation.lastNameRequired })
    .max(100),
  email: z
    .string({ error: validation.fieldRequired })
    .trim()
    .min(1, { error: validation.fieldRequired })
    .max(254, { error: validation.invalidEmailAddress })
    .regex(z.regexes.email, { error: validation.invalidEmailAddress }),
  phoneNumber: phoneSchema(validation.phoneFormatAddUser, validation.phoneRequired),
  company: z
    .string({ error: validation.companyNameRequired })
    .trim()
    .min(1, { error: validation.companyNameRequired })
    .max(200),
  password: passwordSchema,
  role: z.enum(ROLES, { error: validation.roleRequired }),
  ...officeAssignment,
});
export type CreateUserInput = z.infer<typeof createUserInput>;

/** Profile settings: email is read-only and not part of it. */
export const updateProfileInput = z.object({
  userId: idSchema,
  firstName: z
    .string({ error: validation.firstNameRequired })
    .trim()
    .min(1, { error: validation.firstNameRequired })
    .max(100),
  lastName: z
    .string({ error: validation.lastNameRequired })
    .trim()
    .min(1, { error: validation.lastNameRequired })
    .max(100),
  company: z
    .string({ error: validation.companyRequired })
    .trim()
    .min(1, { error: validation.companyRequired })
    .max(200),
  phoneNumber: phoneSchema(validation.phoneFormatProfile, validation.phoneRequired),
});
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

export const changePasswordInput = z
  .object({
    userId: idSchema,
    currentPassword: z
      .string({ error: validation.passwordRequired })
      .min(1, { error: validation.passwordRequired })
      .max(256),
    password: passwordSchema,
    confirmPassword: z
      .string({ error: validation.fieldRequired })
      .min(1, { error: validation.fieldRequired }),
  })
  .refine((value) => value.password === value.confirmPassword, {
    error: validation.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;
