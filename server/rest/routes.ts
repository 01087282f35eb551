import { z } from 'zod';
import {
  loginInput,
  logoutInput,
  refreshInput,
  registerInput,
  resendVerificationInput,
  resetConfirmInput,
  resetRequestInput,
  sessionAnswer,
  verifyEmailInput,
} from '../../shared/schemas/auth';
import { messageAnswer } from '../../shared/schemas/common';
import { publicUser, usersListAnswer, usersListInput } from '../../shared/schemas/users';
import { appRouter } from '../trpc/router';
import { type RestRoute, restRoute } from './adapter';

/**
 * Every documented /api path (DESIGN.md section 5) and the procedure it calls. Each feature adds
 * its rows here, next to its router; the OpenAPI document and the REST conformance tests are
 * generated from this table.
 */

const body = ({ body }: { body: unknown }) => body as never;

const authRoutes: RestRoute[] = [
  restRoute({
    method: 'POST',
    url: '/api/auth/register',
    summary: 'Register an account; a verification link is e-mailed (409 if the email is taken)',
    tag: 'auth',
    procedure: appRouter.auth.register,
    input: body,
    body: registerInput,
    response: messageAnswer,
    successStatus: 201,
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/verify-email',
    summary: 'Confirm an e-mail address with the token from the verification link',
    tag: 'auth',
    procedure: appRouter.auth.verifyEmail,
    input: body,
    body: verifyEmailInput,
    response: messageAnswer,
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/verify-email/resend',
    summary: 'Send a new verification link (same answer whether or not the address is known)',
    tag: 'auth',
    procedure: appRouter.auth.resendVerification,
    input: body,
    body: resendVerificationInput,
    response: messageAnswer,
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/login',
    summary: 'Sign in: an access token (15 min) and a refresh token',
    tag: 'auth',
    procedure: appRouter.auth.login,
    input: body,
    body: loginInput,
    response: sessionAnswer,
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/refresh',
    summary: 'Trade a refresh token for a new pair; a replayed one ends its session',
    tag: 'auth',
    procedure: appRouter.auth.refresh,
    input: body,
    body: refreshInput,
    response: sessionAnswer,
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/logout',
    summary: 'End the session the refresh token belongs to',
    tag: 'auth',
    procedure: appRouter.auth.logout,
    input: body,
    body: logoutInput,
    successStatus: 204,
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/reset',
    summary: 'E-mail a password reset link (404 "We didn\'t find your email")',
    tag: 'auth',
    procedure: appRouter.auth.requestPasswordReset,
    input: body,
    body: resetRequestInput,
    response: messageAnswer,
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/reset/confirm',
    summary: 'Set a new password with the token from the reset link; signs out every session',
    tag: 'auth',
    procedure: appRouter.auth.confirmPasswordReset,
    input: body,
    body: resetConfirmInput,
    response: messageAnswer,
  }),
];

const idParam = z.object({ id: z.uuid() });

const userRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/settings/getUser/:userId',
    summary: "A user's profile (the caller's own, or anyone's for an admin)",
    tag: 'settings',
    procedure: appRouter.settings.getUser,
    input: ({ params }) => ({ userId: params.userId ?? '' }),
    params: z.object({ userId: z.uuid() }),
    response: publicUser,
  }),
  restRoute({
    method: 'GET',
    url: '/api/users',
    summary: 'Users, newest first, searchable by name, email and company',
    tag: 'users',
    procedure: appRouter.users.list,
    input: ({ query }) => query as never,
    query: usersListInput,
    response: usersListAnswer,
  }),
  restRoute({
    method: 'GET',
    url: '/api/users/activate/:id',
    summary: 'Approve or re-activate an account',
    tag: 'users',
    procedure: appRouter.users.activate,
    input: ({ params }) => ({ id: params.id ?? '' }),
    params: idParam,
    response: publicUser,
  }),
  restRoute({
    method: 'GET',
    url: '/api/users/deactivated/:id',
    summary: 'Deactivate an account (not the owner); its sessions end at once',
    tag: 'users',
    procedure: appRouter.users.deactivate,
    input: ({ params }) => ({ id: params.id ?? '' }),
    params: idParam,
    response: publicUser,
  }),
];

export const restRoutes: ReadonlyArray<RestRoute> = [...authRoutes, ...userRoutes];
