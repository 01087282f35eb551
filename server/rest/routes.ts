import { appRouter } from '../trpc/router';
import { type RestRoute, restRoute } from './adapter';

/**
 * Every documented /api path (DESIGN.md section 5) and the procedure it calls. Each feature adds
 * its rows here, next to its router; the OpenAPI document and the REST conformance tests are
 * generated from this table, and each row's parameters, query, body and answer from its
 * procedure's schemas (server/rest/adapter.ts).
 */

const authRoutes: RestRoute[] = [
  restRoute({
    method: 'POST',
    url: '/api/auth/register',
    summary: 'Register an account; a verification link is e-mailed (409 if the email is taken)',
    tag: 'auth',
    procedure: appRouter.auth.register,
    errors: [409],
    successStatus: 201,
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/verify-email',
    summary: 'Confirm an e-mail address with the token from the verification link',
    tag: 'auth',
    procedure: appRouter.auth.verifyEmail,
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/verify-email/resend',
    summary: 'Send a new verification link (same answer whether or not the address is known)',
    tag: 'auth',
    procedure: appRouter.auth.resendVerification,
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/login',
    summary: 'Sign in: an access token (15 min) and a refresh token',
    tag: 'auth',
    procedure: appRouter.auth.login,
    errors: [401, 403],
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/refresh',
    summary: 'Trade a refresh token for a new pair; a replayed one ends its session',
    tag: 'auth',
    procedure: appRouter.auth.refresh,
    errors: [401],
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/logout',
    summary: 'End the session the refresh token belongs to',
    tag: 'auth',
    procedure: appRouter.auth.logout,
    successStatus: 204,
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/reset',
    summary: 'E-mail a password reset link (404 "We didn\'t find your email")',
    tag: 'auth',
    procedure: appRouter.auth.requestPasswordReset,
    errors: [404],
  }),
  restRoute({
    method: 'POST',
    url: '/api/auth/reset/confirm',
    summary: 'Set a new password with the token from the reset link; signs out every session',
    tag: 'auth',
    procedure: appRouter.auth.confirmPasswordReset,
  }),
];

const userRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/settings/getUser/:userId',
    summary: "A user's profile (the caller's own, or anyone's for an admin)",
    tag: 'settings',
    procedure: appRouter.settings.getUser,
  }),
  restRoute({
    method: 'GET',
    url: '/api/users',
    summary: 'Users, newest first, searchable by name, email and company',
    tag: 'users',
    procedure: appRouter.users.list,
  }),
  restRoute({
    method: 'GET',
    url: '/api/users/activate/:id',
    summary: 'Approve or re-activate an account',
    tag: 'users',
    procedure: appRouter.users.activate,
  }),
  restRoute({
    method: 'GET',
    url: '/api/users/deactivated/:id',
    summary: 'Deactivate an account (not the owner); its sessions end at once',
    tag: 'users',
    procedure: appRouter.users.deactivate,
  }),
];

const transactionRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/transactions/:userId',
    summary: "A user's transactions, newest first",
    tag: 'transactions',
    procedure: appRouter.transactions.list,
  }),
  restRoute({
    method: 'GET',
    url: '/api/transactions/search/:userId/:term',
    summary: "Search a user's transactions by street address, city, state or zip",
    tag: 'transactions',
    procedure: appRouter.transactions.search,
  }),
  restRoute({
    method: 'POST',
    url: '/api/transactions',
    summary: 'Open a transaction; its forms come from the template of (type, role)',
    tag: 'transactions',
    procedure: appRouter.transactions.create,
    successStatus: 201,
  }),
  restRoute({
    method: 'GET',
    url: '/api/transactions/individual/:id/:userId',
    summary: 'One transaction with its forms and comments',
    tag: 'transactions',
    procedure: appRouter.transactions.get,
  }),
  restRoute({
    method: 'PUT',
    url: '/api/transactions/:id/:userId',
    summary: 'Change the address of a transaction',
    tag: 'transactions',
    procedure: appRouter.transactions.update,
    errors: [409],
  }),
  restRoute({
    method: 'PUT',
    url: '/api/transactions/:id/forms/:formId',
    summary: 'Attach an uploaded file to a form (the url or key from the upload); status back to pending',
    tag: 'transactions',
    procedure: appRouter.transactions.setFormFile,
    errors: [409],
  }),
  restRoute({
    method: 'POST',
    url: '/api/transactions/:id/forms/:formId/comments',
    summary: "Comment on a form; the comment's role is the caller's",
    tag: 'transactions',
    procedure: appRouter.transactions.addComment,
    successStatus: 201,
  }),
  restRoute({
    method: 'POST',
    url: '/api/transactions/:id/forms/:formId/waiver',
    summary:
      'Ask for a required item to be waived, with a reason (400 "Reason is required"; 409 when closed, optional, accepted or already asked)',
    tag: 'transactions',
    procedure: appRouter.transactions.requestWaiver,
    errors: [409],
    successStatus: 201,
  }),
  restRoute({
    method: 'GET',
    url: '/api/transactions/:id/forms/:formId/versions',
    summary: 'Every file attached to an item, newest first, each with the decision made on it',
    tag: 'transactions',
    procedure: appRouter.transactions.versions,
  }),
  restRoute({
    method: 'POST',
    url: '/api/transactions/:id/split',
    summary:
      'Cut an uploaded PDF of the transaction (key) into one file per part (pages like 1-3,5) and attach each to its item as a new version; 400 for pages out of range or in two parts; 409 when closed',
    tag: 'transactions',
    procedure: appRouter.transactions.split,
    errors: [409],
  }),
];

const adminTransactionRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/admin/transactions',
    summary: "Every user's transactions, newest first",
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.list,
  }),
  restRoute({
    method: 'GET',
    url: '/api/admin/transactions/search/:term',
    summary: "Search every user's transactions (address fields and the agent's name)",
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.search,
  }),
  restRoute({
    method: 'GET',
    url: '/api/admin/transactions/individual/:id',
    summary: 'Any transaction with its forms and comments',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.get,
  }),
  restRoute({
    method: 'PUT',
    url: '/api/admin/transactions/:id',
    summary: 'Change the address and the three checkboxes of any transaction',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.update,
  }),
  restRoute({
    method: 'DELETE',
    url: '/api/admin/transactions/:id',
    summary: 'Delete a transaction (kept on file, gone from every list)',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.delete,
  }),
  restRoute({
    method: 'POST',
    url: '/api/admin/transactions/:id/forms/:formId/comments',
    summary: 'Review a form: accept or reject it, with or without a comment',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.review,
    errors: [409],
    successStatus: 201,
  }),
  restRoute({
    method: 'POST',
    url: '/api/admin/transactions/:id/forms/:formId/waiver',
    summary: 'Approve or deny a requested waiver; an approved one counts as done (409 if none is requested)',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.decideWaiver,
    errors: [409],
  }),
  restRoute({
    method: 'POST',
    url: '/api/admin/transactions/:id/close',
    summary: 'Close a compliant transaction (409 naming how many required documents are not accepted)',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.close,
    errors: [409],
  }),
  restRoute({
    method: 'POST',
    url: '/api/admin/transactions/:id/reopen',
    summary: 'Reopen a closed transaction: its checklist can change again',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.reopen,
    errors: [409],
  }),
  restRoute({
    method: 'GET',
    url: '/api/admin/transactions/:id/history',
    summary: 'The audit trail of a transaction, newest first',
    tag: 'admin transactions',
    procedure: appRouter.adminTransactions.history,
  }),
];

const complianceRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/admin/review-queue',
    summary:
      'Undecided uploads and requested waivers of open transactions, oldest first (filters: type, agentId)',
    tag: 'compliance',
    procedure: appRouter.reviewQueue.list,
  }),
  restRoute({
    method: 'POST',
    url: '/api/admin/review',
    summary: 'Accept 1-100 documents at once, all or none (409 naming the first no longer awaiting review)',
    tag: 'compliance',
    procedure: appRouter.reviewQueue.bulkAccept,
    errors: [409],
  }),
  restRoute({
    method: 'GET',
    url: '/api/admin/rejection-reasons',
    summary: 'The rejection reasons, retired ones included (active: false)',
    tag: 'compliance',
    procedure: appRouter.rejectionReasons.list,
  }),
  restRoute({
    method: 'POST',
    url: '/api/admin/rejection-reasons',
    summary: 'Add a rejection reason; its code is the label in kebab-case (409 if the label exists)',
    tag: 'compliance',
    procedure: appRouter.rejectionReasons.create,
    errors: [409],
    successStatus: 201,
  }),
  restRoute({
    method: 'PUT',
    url: '/api/admin/rejection-reasons/:code',
    summary: 'Reword a rejection reason or retire it (active: false); its code never changes',
    tag: 'compliance',
    procedure: appRouter.rejectionReasons.update,
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
  }),
  restRoute({
    method: 'GET',
    url: `${TEMPLATES}/view`,
    summary: 'Checklist templates by page, ordered by type then role',
    tag: 'templates',
    procedure: appRouter.templates.list,
  }),
  restRoute({
    method: 'GET',
    url: `${TEMPLATES}/search`,
    summary: 'Search templates by type, role and document names',
    tag: 'templates',
    procedure: appRouter.templates.search,
  }),
  restRoute({
    method: 'POST',
    url: `${TEMPLATES}/insert`,
    summary: 'Add a template (the owner only); 409 if (type, role) exists',
    tag: 'templates',
    procedure: appRouter.templates.create,
    errors: [409],
    successStatus: 201,
  }),
  restRoute({
    method: 'PUT',
    url: `${TEMPLATES}/form/:id`,
    summary: 'Change a template; existing transactions keep their checklists',
    tag: 'templates',
    procedure: appRouter.templates.update,
    errors: [409],
  }),
  restRoute({
    method: 'DELETE',
    url: `${TEMPLATES}/form/:id`,
    summary: 'Delete a template',
    tag: 'templates',
    procedure: appRouter.templates.delete,
  }),
];

const notificationRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/notifications/:userId',
    summary: "A user's notifications, newest first",
    tag: 'notifications',
    procedure: appRouter.notifications.list,
  }),
  restRoute({
    method: 'POST',
    url: '/api/notifications/:userId/read',
    summary: "Mark all of a user's notifications read",
    tag: 'notifications',
    procedure: appRouter.notifications.markAllRead,
  }),
];

const LIBRARIES = {
  '/api/forms': {
    procedures: appRouter.libraries.forms,
    tag: 'forms library',
    createSummary: 'Add a form (the owner; link = the key from POST /api/uploads/forms)',
  },
  '/api/tutorials': {
    procedures: appRouter.libraries.tutorials,
    tag: 'tutorials library',
    createSummary: 'Add a tutorial (the owner)',
  },
} as const;

function libraryRoutes(base: keyof typeof LIBRARIES): RestRoute[] {
  const { procedures, tag, createSummary } = LIBRARIES[base];
  return [
    restRoute({ method: 'GET', url: base, summary: `The ${tag}, by name`, tag, procedure: procedures.list }),
    restRoute({
      method: 'GET',
      url: `${base}/search`,
      summary: `Search the ${tag} by name`,
      tag,
      procedure: procedures.search,
    }),
    restRoute({
      method: 'POST',
      url: base,
      summary: createSummary,
      tag,
      procedure: procedures.create,
      successStatus: 201,
    }),
    restRoute({
      method: 'PUT',
      url: `${base}/:id`,
      summary: `Change an item of the ${tag} (the owner)`,
      tag,
      procedure: procedures.update,
    }),
    restRoute({
      method: 'DELETE',
      url: `${base}/:id`,
      summary: `Delete an item of the ${tag} (the owner)`,
      tag,
      procedure: procedures.delete,
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
    errors: [409],
    successStatus: 201,
  }),
  restRoute({
    method: 'PUT',
    url: '/api/settings/updateUser/:userId',
    summary: "Change a profile (the caller's own, or anyone's for an admin); the e-mail stays",
    tag: 'settings',
    procedure: appRouter.settings.updateUser,
  }),
  restRoute({
    method: 'POST',
    url: '/api/settings/changePassword/:userId',
    summary: 'Change your password; every other session ends and this one gets a new pair',
    tag: 'settings',
    procedure: appRouter.settings.changePassword,
  }),
];

/** Key dates, the calendar and notification preferences (issue 19, DESIGN.md 12.2). */
const keyDateRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/transactions/:id/dates',
    summary: "A transaction's key dates (YYYY-MM-DD), earliest first, and the kinds its template suggests",
    tag: 'key dates',
    procedure: appRouter.keyDates.list,
  }),
  restRoute({
    method: 'PUT',
    url: '/api/transactions/:id/dates',
    summary: "Replace a transaction's key dates (its agent or an admin; 409 when closed); reminders follow",
    tag: 'key dates',
    procedure: appRouter.keyDates.replace,
    errors: [409],
  }),
  restRoute({
    method: 'GET',
    url: '/api/calendar',
    summary:
      "Key dates from `from` to `to` (inclusive): an agent's own, an admin's all or one agent's (agentId)",
    tag: 'key dates',
    procedure: appRouter.calendar.list,
    errors: [403],
  }),
  restRoute({
    method: 'POST',
    url: '/api/calendar/feed',
    summary:
      'A new secret iCalendar address (/calendar/<token>.ics) for calendar apps; the previous one stops',
    tag: 'key dates',
    procedure: appRouter.calendar.createFeed,
  }),
  restRoute({
    method: 'GET',
    url: '/api/settings/notifications/:userId',
    summary: 'Notification preferences: per event in-app, email or digest; reminder days; timezone',
    tag: 'settings',
    procedure: appRouter.notificationSettings.get,
  }),
  restRoute({
    method: 'PUT',
    url: '/api/settings/notifications/:userId',
    summary: 'Change notification preferences (events left out keep their choice)',
    tag: 'settings',
    procedure: appRouter.notificationSettings.update,
  }),
];

const apiKeyRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/admin/api-keys',
    summary: 'Every API key, newest first: name, scopes, expiry, last use, revocation (never the secret)',
    tag: 'api keys',
    procedure: appRouter.apiKeys.list,
  }),
  restRoute({
    method: 'POST',
    url: '/api/admin/api-keys',
    summary: 'Create an API key (`key`, starting bpk_, is in this answer only); it acts with your rights',
    tag: 'api keys',
    procedure: appRouter.apiKeys.create,
    successStatus: 201,
  }),
  restRoute({
    method: 'DELETE',
    url: '/api/admin/api-keys/:id',
    summary: 'Revoke an API key at once: its next call answers 401',
    tag: 'api keys',
    procedure: appRouter.apiKeys.revoke,
  }),
];

/** Webhooks (issue 20, DESIGN.md 12.3): admins' endpoints, their deliveries, a test ping. */
const webhookRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/admin/webhooks',
    summary: 'Every webhook endpoint (its secret is never shown again)',
    tag: 'webhooks',
    procedure: appRouter.webhooks.list,
  }),
  restRoute({
    method: 'POST',
    url: '/api/admin/webhooks',
    summary: 'Add a webhook endpoint (public http(s) URL); the answer alone carries its secret',
    tag: 'webhooks',
    procedure: appRouter.webhooks.create,
    successStatus: 201,
  }),
  restRoute({
    method: 'PUT',
    url: '/api/admin/webhooks/:id',
    summary: 'Change a webhook endpoint: url, events, description, active',
    tag: 'webhooks',
    procedure: appRouter.webhooks.update,
  }),
  restRoute({
    method: 'DELETE',
    url: '/api/admin/webhooks/:id',
    summary: 'Delete a webhook endpoint and its deliveries',
    tag: 'webhooks',
    procedure: appRouter.webhooks.delete,
  }),
  restRoute({
    method: 'GET',
    url: '/api/admin/webhooks/:id/deliveries',
    summary: "A webhook endpoint's deliveries, newest first",
    tag: 'webhooks',
    procedure: appRouter.webhooks.deliveries,
  }),
  restRoute({
    method: 'POST',
    url: '/api/admin/webhooks/:id/deliveries/:deliveryId/retry',
    summary: 'Send a delivery again now',
    tag: 'webhooks',
    procedure: appRouter.webhooks.retry,
  }),
  restRoute({
    method: 'POST',
    url: '/api/admin/webhooks/:id/test',
    summary: 'Send a `ping` event to this endpoint alone',
    tag: 'webhooks',
    procedure: appRouter.webhooks.test,
  }),
];

/** The broker dashboard and the agent's attention strip (issue 21, DESIGN.md 12.4). */
const dashboardRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/api/admin/dashboard',
    summary:
      'The broker dashboard from `from` to `to` (UTC days, inclusive; default the last 30): the queue, turnaround, rejections, compliance at close, files at risk',
    tag: 'dashboard',
    procedure: appRouter.dashboard.figures,
  }),
  restRoute({
    method: 'GET',
    url: '/api/attention',
    summary:
      "What needs the signed-in user's attention on their open transactions: rejected and missing required items, key dates due within 7 days or overdue; for an admin also `desk`, the review queue's size and oldest wait and the files at risk (null for agents)",
    tag: 'dashboard',
    procedure: appRouter.dashboard.attention,
  }),
];

export const restRoutes: ReadonlyArray<RestRoute> = [
  ...authRoutes,
  ...userRoutes,
  ...transactionRoutes,
  ...adminTransactionRoutes,
  ...complianceRoutes,
  ...templateRoutes,
  ...notificationRoutes,
  ...libraryRoutes('/api/forms'),
  ...libraryRoutes('/api/tutorials'),
  ...accountRoutes,
  ...keyDateRoutes,
  ...apiKeyRoutes,
  ...webhookRoutes,
  ...dashboardRoutes,
];
