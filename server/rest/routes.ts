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
import {
  formsPage,
  libraryFormInput,
  libraryItem,
  tutorialInput,
  tutorialsPage,
} from '../../shared/schemas/libraries';
import { notificationsPage } from '../../shared/schemas/notifications';
import {
  template,
  templateInput,
  templatesListAnswer,
  templatesSearchAnswer,
} from '../../shared/schemas/templates';
import {
  addCommentInput,
  addressFields,
  adminUpdateTransactionInput,
  comment,
  createTransactionInput,
  historyEntry,
  setFormFileInput,
  transaction,
  transactionForm,
  transactionsPage,
} from '../../shared/schemas/transactions';
import {
  createUserInput,
  publicUser,
  updateProfileInput,
  usersListAnswer,
  usersListInput,
} from '../../shared/schemas/users';
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

const id = z.uuid();
const paging = {
  page: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).optional(),
};
const pagingQuery = z.object(paging);

const transactionRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/transactions/:userId',
    summary: "A user's transactions, newest first",
    tag: 'transactions',
    procedure: appRouter.transactions.list,
    input: ({ params, query }) => ({ ...(query as object), userId: params.userId ?? '' }) as never,
    params: z.object({ userId: id }),
    query: pagingQuery,
    response: transactionsPage,
  }),
  restRoute({
    method: 'GET',
    url: '/api/transactions/search/:userId/:term',
    summary: "Search a user's transactions by street address, city, state or zip",
    tag: 'transactions',
    procedure: appRouter.transactions.search,
    input: ({ params, query }) =>
      ({ ...(query as object), userId: params.userId ?? '', term: params.term ?? '' }) as never,
    params: z.object({ userId: id, term: z.string() }),
    query: pagingQuery,
    response: transactionsPage,
  }),
  restRoute({
    method: 'POST',
    url: '/api/transactions',
    summary: 'Open a transaction; its forms come from the template of (type, role)',
    tag: 'transactions',
    procedure: appRouter.transactions.create,
    input: body,
    body: createTransactionInput,
    response: transaction,
    successStatus: 201,
  }),
  restRoute({
    method: 'GET',
    url: '/api/transactions/individual/:id/:userId',
    summary: 'One transaction with its forms and comments',
    tag: 'transactions',
    procedure: appRouter.transactions.get,
    input: ({ params }) => ({ id: params.id ?? '', userId: params.userId ?? '' }),
    params: z.object({ id, userId: id }),
    response: transaction,
  }),
  restRoute({
    method: 'PUT',
    url: '/api/transactions/:id/:userId',
    summary: 'Change the address of a transaction',
    tag: 'transactions',
    procedure: appRouter.transactions.update,
    input: ({ params, body }) =>
      ({ ...(body as object), id: params.id ?? '', userId: params.userId ?? '' }) as never,
    params: z.object({ id, userId: id }),
    body: addressFields,
    response: transaction,
  }),
  restRoute({
    method: 'PUT',
    url: '/api/transactions/:id/forms/:formId',
    summary: 'Attach an uploaded file to a form (the url or key from the upload); status back to pending',
    tag: 'transactions',
    procedure: appRouter.transactions.setFormFile,
    input: ({ params, body }) =>
      ({ ...(body as object), id: params.id ?? '', formId: params.formId ?? '' }) as never,
    params: z.object({ id, formId: id }),
    body: setFormFileInput.pick({ url: true }),
    response: transactionForm,
  }),
  restRoute({
    method: 'POST',
    url: '/api/transactions/:id/forms/:formId/comments',
    summary: "Comment on a form; the comment's role is the caller's",
    tag: 'transactions',
    procedure: appRouter.transactions.addComment,
    input: ({ params, body }) =>
      ({ ...(body as object), id: params.id ?? '', formId: params.formId ?? '' }) as never,
    params: z.object({ id, formId: id }),
    body: addCommentInput.pick({ text: true }),
    response: comment,
    successStatus: 201,
  }),
];

const adminTransactionRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/admin/transactions',
    summary: "Every user's transactions, newest first",
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.list,
    input: ({ query }) => query as never,
    query: pagingQuery,
    response: transactionsPage,
  }),
  restRoute({
    method: 'GET',
    url: '/api/admin/transactions/search/:term',
    summary: "Search every user's transactions (address fields and the agent's name)",
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.search,
    input: ({ params, query }) => ({ ...(query as object), term: params.term ?? '' }) as never,
    params: z.object({ term: z.string() }),
    query: pagingQuery,
    response: transactionsPage,
  }),
  restRoute({
    method: 'GET',
    url: '/api/admin/transactions/individual/:id',
    summary: 'Any transaction with its forms and comments',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.get,
    input: ({ params }) => ({ id: params.id ?? '' }),
    params: z.object({ id }),
    response: transaction,
  }),
  restRoute({
    method: 'PUT',
    url: '/api/admin/transactions/:id',
    summary: 'Change the address and the three checkboxes of any transaction',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.update,
    input: ({ params, body }) => ({ ...(body as object), id: params.id ?? '' }) as never,
    params: z.object({ id }),
    body: adminUpdateTransactionInput.omit({ id: true }),
    response: transaction,
  }),
  restRoute({
    method: 'DELETE',
    url: '/api/admin/transactions/:id',
    summary: 'Delete a transaction (kept on file, gone from every list)',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.delete,
    input: ({ params }) => ({ id: params.id ?? '' }),
    params: z.object({ id }),
    response: messageAnswer,
  }),
  restRoute({
    method: 'POST',
    url: '/api/admin/transactions/:id/forms/:formId/comments',
    summary: 'Review a form: accept or reject it, with or without a comment',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.review,
    input: ({ params, body }) =>
      ({ ...(body as object), id: params.id ?? '', formId: params.formId ?? '' }) as never,
    params: z.object({ id, formId: id }),
    body: z.object({ status: z.enum(['accepted', 'rejected']).optional(), text: z.string().optional() }),
    response: transactionForm,
    successStatus: 201,
  }),
  restRoute({
    method: 'GET',
    url: '/api/admin/transactions/:id/history',
    summary: 'The audit trail of a transaction, newest first',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.history,
    input: ({ params }) => ({ id: params.id ?? '' }),
    params: z.object({ id }),
    response: z.array(historyEntry),
  }),
];

const TEMPLATES = '/api/admin/forms/transactions';
const templateRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: `${TEMPLATES}/view/all`,
    summary: 'Every checklist template (any signed-in user)',
    tag: 'templates',
    procedure: appRouter.templates.all,
    response: z.array(template),
  }),
  restRoute({
    method: 'GET',
    url: `${TEMPLATES}/view`,
    summary: 'Checklist templates by page, ordered by type then role',
    tag: 'templates',
    procedure: appRouter.templates.list,
    input: ({ query }) => query as never,
    query: pagingQuery,
    response: templatesListAnswer,
  }),
  restRoute({
    method: 'GET',
    url: `${TEMPLATES}/search`,
    summary: 'Search templates by type, role and document names',
    tag: 'templates',
    procedure: appRouter.templates.search,
    input: ({ query }) => query as never,
    query: z.object({ ...paging, query: z.string().optional() }),
    response: templatesSearchAnswer,
  }),
  restRoute({
    method: 'POST',
    url: `${TEMPLATES}/insert`,
    summary: 'Add a template (the owner only); 409 if (type, role) exists',
    tag: 'templates',
    procedure: appRouter.templates.create,
    input: body,
    body: templateInput,
    response: template,
    successStatus: 201,
  }),
  restRoute({
    method: 'PUT',
    url: `${TEMPLATES}/form/:id`,
    summary: 'Change a template; existing transactions keep their checklists',
    tag: 'templates',
    procedure: appRouter.templates.update,
    input: ({ params, body }) => ({ ...(body as object), id: params.id ?? '' }) as never,
    params: z.object({ id }),
    body: templateInput,
    response: template,
  }),
  restRoute({
    method: 'DELETE',
    url: `${TEMPLATES}/form/:id`,
    summary: 'Delete a template',
    tag: 'templates',
    procedure: appRouter.templates.delete,
    input: ({ params }) => ({ id: params.id ?? '' }),
    params: z.object({ id }),
    response: messageAnswer,
  }),
];

const notificationRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/notifications/:userId',
    summary: "A user's notifications, newest first",
    tag: 'notifications',
    procedure: appRouter.notifications.list,
    input: ({ params, query }) => ({ ...(query as object), userId: params.userId ?? '' }) as never,
    params: z.object({ userId: id }),
    query: pagingQuery,
    response: notificationsPage,
  }),
  restRoute({
    method: 'POST',
    url: '/api/notifications/:userId/read',
    summary: "Mark all of a user's notifications read",
    tag: 'notifications',
    procedure: appRouter.notifications.markAllRead,
    input: ({ params }) => ({ userId: params.userId ?? '' }),
    params: z.object({ userId: id }),
    response: messageAnswer,
  }),
];

function libraryRoutes(base: '/api/forms' | '/api/tutorials'): RestRoute[] {
  const isForms = base === '/api/forms';
  const procedures = isForms ? appRouter.libraries.forms : appRouter.libraries.tutorials;
  const tag = isForms ? 'forms library' : 'tutorials library';
  const page = isForms ? formsPage : tutorialsPage;
  const input = isForms ? libraryFormInput : tutorialInput;
  return [
    restRoute({
      method: 'GET',
      url: base,
      summary: `The ${tag}, by name`,
      tag,
      procedure: procedures.list,
      input: ({ query }) => query as never,
      query: pagingQuery,
      response: page,
    }),
    restRoute({
      method: 'GET',
      url: `${base}/search`,
      summary: `Search the ${tag} by name`,
      tag,
      procedure: procedures.search,
      input: ({ query }) => query as never,
      query: z.object({ ...paging, query: z.string().optional() }),
      response: page,
    }),
    restRoute({
      method: 'POST',
      url: base,
      summary: isForms
        ? 'Add a form (the owner; link = the key from POST /api/uploads/forms)'
        : 'Add a tutorial (the owner)',
      tag,
      procedure: procedures.create,
      input: body,
      body: input,
      response: libraryItem,
      successStatus: 201,
    }),
    restRoute({
      method: 'PUT',
      url: `${base}/:id`,
      summary: `Change an item of the ${tag} (the owner)`,
      tag,
      procedure: procedures.update,
      input: ({ params, body }) => ({ ...(body as object), id: params.id ?? '' }) as never,
      params: z.object({ id }),
      body: input,
      response: libraryItem,
    }),
    restRoute({
      method: 'DELETE',
      url: `${base}/:id`,
      summary: `Delete an item of the ${tag} (the owner)`,
      tag,
      procedure: procedures.delete,
      input: ({ params }) => ({ id: params.id ?? '' }),
      params: z.object({ id }),
      response: messageAnswer,
    }),
  ];
}

const accountRoutes: RestRoute[] = [
  restRoute({
    method: 'POST',
    url: '/api/users',
    summary: 'Add a user who can sign in at once (admins; only the owner adds admins)',
    tag: 'users',
    procedure: appRouter.users.create,
    input: body,
    body: createUserInput,
    response: publicUser,
    successStatus: 201,
  }),
  restRoute({
    method: 'PUT',
    url: '/api/settings/updateUser/:userId',
    summary: "Change a profile (the caller's own, or anyone's for an admin); the e-mail stays",
    tag: 'settings',
    procedure: appRouter.settings.updateUser,
    input: ({ params, body }) => ({ ...(body as object), userId: params.userId ?? '' }) as never,
    params: z.object({ userId: id }),
    body: updateProfileInput.omit({ userId: true }),
    response: publicUser,
  }),
  restRoute({
    method: 'POST',
    url: '/api/settings/changePassword/:userId',
    summary: 'Change your password; every other session ends and this one gets a new pair',
    tag: 'settings',
    procedure: appRouter.settings.changePassword,
    input: ({ params, body }) => ({ ...(body as object), userId: params.userId ?? '' }) as never,
    params: z.object({ userId: id }),
    body: z.object({ currentPassword: z.string(), password: z.string(), confirmPassword: z.string() }),
    response: sessionAnswer,
  }),
];

export const restRoutes: ReadonlyArray<RestRoute> = [
  ...authRoutes,
  ...userRoutes,
  ...transactionRoutes,
  ...adminTransactionRoutes,
  ...templateRoutes,
  ...notificationRoutes,
  ...libraryRoutes('/api/forms'),
  ...libraryRoutes('/api/tutorials'),
  ...accountRoutes,
];
