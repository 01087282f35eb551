import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PHONE_MAX_LENGTH } from '../constants';
import { validation } from '../messages';
import { idSchema } from './common';

/**
 * Inputs and answers of sign-in, registration and password reset (docs/API.md, "Accounts and
 * sessions"). The client's forms validate with these very schemas, so the
 * messages a user sees in the browser are the ones the server would answer.
 */

/** Registration's pattern: a top-level part of 2 to 4 letters. */
export const REGISTRATION_EMAIL = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,4}$/;
/** Registration's phone: "+" then a digit, then digits, spaces, dashes and parentheses. */
const INTERNATIONAL_PHONE = /^\+\d[\d\s()-]*$/;
/** The add-user dialog's form: 123-456-7890. */
const DASHED_PHONE = /^\d{3}-\d{3}-\d{4}$/;

const required = (message: string) => z.string({ error: message }).trim().min(1, { error: message });

/** A password as typed: never trimmed (spaces are characters too), bounded so hashing stays cheap. */
export const passwordSchema = z
  .string({ error: validation.passwordRequired })
  .min(1, { error: validation.passwordRequired })
  .min(PASSWORD_MIN_LENGTH, { error: validation.passwordMin })
  .max(PASSWORD_MAX_LENGTH, { error: `Password cannot exceed ${PASSWORD_MAX_LENGTH} characters` });

/**
 * Every form accepts both phone styles the product shows; the message for
 * a wrong one is the form's own.
 */
export function phoneSchema(formatMessage: string, requiredMessage: string) {
  return required(requiredMessage)
    .max(PHONE_MAX_LENGTH, { error: validation.phoneMax })
    .refine((value) => INTERNATIONAL_PHONE.test(value) || DASHED_PHONE.test(value), {
      error: formatMessage,
    })
    .meta({ pattern: PHONE_PATTERN, description: PHONE_RULES });
}

/** Both phone styles as one pattern, for the OpenAPI document (the refinement above is what runs). */
const PHONE_PATTERN = `^(?:${INTERNATIONAL_PHONE.source.slice(1, -1)}|${DASHED_PHONE.source.slice(1, -1)})$`;
const PHONE_RULES =
  `A phone number, at most ${PHONE_MAX_LENGTH} characters after trimming: \`+\` then a digit, then digits, ` +
  'spaces, dashes and parentheses (`+1 (555) 010-0000`), or the `123-456-7890` form.';

/** Addresses are compared case-insensitively (citext); stored as typed, minus surrounding spaces. */
const loginEmail = required(validation.emailRequired).regex(z.regexes.email, {
  error: validation.invalidEmailFormat,
});

export const loginInput = z.object({ email: loginEmail, password: passwordSchema });
export type LoginInput = z.infer<typeof loginInput>;

const registrationEmail = required(validation.fieldRequired)
  .max(254, { error: validation.invalidEmailAddress })
  .regex(REGISTRATION_EMAIL, { error: validation.invalidEmailAddress });

const confirmPassword = z
  .string({ error: validation.fieldRequired })
  .min(1, { error: validation.fieldRequired });

/** Adds the "Passwords do not match" rule, reported on confirmPassword as the form shows it. */
function withMatchingPasswords<T extends z.ZodType<{ password: string; confirmPassword: string }>>(
  schema: T,
) {
  return schema.refine((value) => value.password === value.confirmPassword, {
    error: validation.passwordsDoNotMatch,
    path: ['confirmPassword'],
    // Only once both fields are otherwise valid, so "required" is not joined by "do not match".
    when: (payload) =>
      typeof (payload.value as { confirmPassword?: unknown })?.confirmPassword === 'string' &&
      (payload.value as { confirmPassword: string }).confirmPassword.length > 0,
  });
}

const NAME_MAX = 100;
const name = required(validation.fieldRequired).max(NAME_MAX, {
  error: `Cannot exceed ${NAME_MAX} characters`,
});

export const registerInput = withMatchingPasswords(
  z.object({
    firstName: name,
    lastName: name,
    company: required(validation.fieldRequired).max(200, { error: 'Cannot exceed 200 characters' }),
    email: registrationEmail,
    phoneNumber: phoneSchema(validation.phoneFormatRegister, validation.fieldRequired),
    password: passwordSchema,
    confirmPassword,
  }),
);
export type RegisterInput = z.infer<typeof registerInput>;

export const resetRequestInput = z.object({
  email: required(validation.emailAddressRequired)
    .max(254, { error: validation.invalidEmailAddress })
    .regex(z.regexes.email, { error: validation.invalidEmailAddress }),
});
export type ResetRequestInput = z.infer<typeof resetRequestInput>;

/** The e-mailed tokens: 32 random bytes in base64url (43 characters). */
export const emailTokenSchema = z
  .string({ error: 'Token is required' })
  .trim()
  .min(1, { error: 'Token is required' })
  .max(200, { error: 'Invalid token' });

export const verifyEmailInput = z.object({ token: emailTokenSchema });

export const resendVerificationInput = resetRequestInput;

export const resetConfirmInput = withMatchingPasswords(
  z.object({ token: emailTokenSchema, password: passwordSchema, confirmPassword }),
);
export type ResetConfirmInput = z.infer<typeof resetConfirmInput>;

/** The form on /auth/new-password/:token: the same rules without the token field. */
export const newPasswordForm = withMatchingPasswords(z.object({ password: passwordSchema, confirmPassword }));

export const refreshInput = z.object({
  refreshToken: z.string({ error: 'Refresh token is required' }).min(1).max(200),
});
export const logoutInput = refreshInput;

/** Login and refresh answer the same shape. */
export const sessionAnswer = z.object({ token: z.string(), refreshToken: z.string(), _id: idSchema });
export type SessionAnswer = z.infer<typeof sessionAnswer>;
