import { integrationMessages } from '../../shared/messages';
import type { ApiKeyScope } from '../../shared/schemas/api-keys';
import { AppError } from '../errors';
import type { Context } from '../trpc/context';

/**
 * What an API key needs for each /api path (DESIGN.md 12.3). A key acts with its creator's
 * rights (an admin's visibility), and on top of that each path asks for one scope:
 * - a scope: the key must hold it, else 403 "This API key lacks the scope <scope>";
 * - 'any': every valid key may call it (reading the checklist templates and the libraries);
 * - 'personal': a path about a person (sign-in, their password, notifications, preferences,
 *   calendar feed) or about keys themselves (a key minting keys would outlive its revocation):
 *   403 for every key.
 * Keyed by the route's method and Fastify path, so the REST table and the upload plugin share it;
 * the adapter refuses to start with a documented route missing here, and the authorization
 * matrix (server/test/authorization-matrix.test.ts) checks each scope against exactly its paths.
 */
export type PathScope = ApiKeyScope | 'any' | 'personal';

const TEMPLATES = '/api/admin/forms/transactions';

export const PATH_SCOPES: Readonly<Record<string, PathScope>> = {
  // Accounts of people: never through a key.
  'POST /api/auth/register': 'personal',
  'POST /api/auth/verify-email': 'personal',
  'POST /api/auth/verify-email/resend': 'personal',
  'POST /api/auth/login': 'personal',
  'POST /api/auth/refresh': 'personal',
  'POST /api/auth/logout': 'personal',
  'POST /api/auth/reset': 'personal',
  'POST /api/auth/reset/confirm': 'personal',
  'POST /api/settings/changePassword/:userId': 'personal',
  'GET /api/notifications/:userId': 'personal',
  'POST /api/notifications/:userId/read': 'personal',
  'GET /api/settings/notifications/:userId': 'personal',
  'PUT /api/settings/notifications/:userId': 'personal',
  'POST /api/calendar/feed': 'personal',
  // The key's creator's own to-do list: a key acts for a system, not a person at work.
  'GET /api/attention': 'personal',
  'GET /api/admin/api-keys': 'personal',
  'POST /api/admin/api-keys': 'personal',
  'DELETE /api/admin/api-keys/:id': 'personal',
  // Users.
  'GET /api/settings/getUser/:userId': 'users:read',
  'GET /api/users': 'users:read',
  'GET /api/users/activate/:id': 'users:write',
  'GET /api/users/deactivated/:id': 'users:write',
  'POST /api/users': 'users:write',
  'PUT /api/settings/updateUser/:userId': 'users:write',
  // Transactions, their documents, comments and dates.
  'GET /api/transactions/:userId': 'transactions:read',
  'GET /api/transactions/search/:userId/:term': 'transactions:read',
  'GET /api/transactions/individual/:id/:userId': 'transactions:read',
  'GET /api/transactions/:id/forms/:formId/versions': 'transactions:read',
  'GET /api/admin/transactions': 'transactions:read',
  'GET /api/admin/transactions/search/:term': 'transactions:read',
  'GET /api/admin/transactions/individual/:id': 'transactions:read',
  'GET /api/admin/transactions/:id/history': 'transactions:read',
  'GET /api/admin/review-queue': 'transactions:read',
  'GET /api/admin/rejection-reasons': 'transactions:read',
  'GET /api/transactions/:id/dates': 'transactions:read',
  'GET /api/calendar': 'transactions:read',
  'GET /api/admin/dashboard': 'transactions:read',
  'POST /api/transactions': 'transactions:write',
  'PUT /api/transactions/:id/:userId': 'transactions:write',
  'PUT /api/transactions/:id/forms/:formId': 'transactions:write',
  'POST /api/transactions/:id/forms/:formId/comments': 'transactions:write',
  'POST /api/transactions/:id/forms/:formId/waiver': 'transactions:write',
  'PUT /api/admin/transactions/:id': 'transactions:write',
  'DELETE /api/admin/transactions/:id': 'transactions:write',
  'PUT /api/transactions/:id/dates': 'transactions:write',
  'POST /api/uploads/transactions/:id': 'transactions:write',
  'POST /api/uploads/transactions/:id/images': 'transactions:write',
  'POST /api/transactions/:id/split': 'transactions:write',
  // The compliance desk's decisions.
  'POST /api/admin/transactions/:id/forms/:formId/comments': 'reviews:write',
  'POST /api/admin/transactions/:id/forms/:formId/waiver': 'reviews:write',
  'POST /api/admin/transactions/:id/close': 'reviews:write',
  'POST /api/admin/transactions/:id/reopen': 'reviews:write',
  'POST /api/admin/review': 'reviews:write',
  'POST /api/admin/rejection-reasons': 'reviews:write',
  'PUT /api/admin/rejection-reasons/:code': 'reviews:write',
  // Checklist templates and the two libraries: read by any key, changed with libraries:write.
  [`GET ${TEMPLATES}/view/all`]: 'any',
  [`GET ${TEMPLATES}/view`]: 'any',
  [`GET ${TEMPLATES}/search`]: 'any',
  [`POST ${TEMPLATES}/insert`]: 'libraries:write',
  [`PUT ${TEMPLATES}/form/:id`]: 'libraries:write',
  [`DELETE ${TEMPLATES}/form/:id`]: 'libraries:write',
  ...libraryScopes('/api/forms'),
  ...libraryScopes('/api/tutorials'),
  'POST /api/uploads/forms': 'libraries:write',
  // CSV exports.
  'GET /api/admin/transactions.csv': 'transactions:read',
  'GET /api/admin/review-queue.csv': 'transactions:read',
  'GET /api/users.csv': 'users:read',
  // Webhooks.
  'GET /api/admin/webhooks': 'webhooks:manage',
  'POST /api/admin/webhooks': 'webhooks:manage',
  'PUT /api/admin/webhooks/:id': 'webhooks:manage',
  'DELETE /api/admin/webhooks/:id': 'webhooks:manage',
  'GET /api/admin/webhooks/:id/deliveries': 'webhooks:manage',
  'POST /api/admin/webhooks/:id/deliveries/:deliveryId/retry': 'webhooks:manage',
  'POST /api/admin/webhooks/:id/test': 'webhooks:manage',
};

function libraryScopes(base: string): Record<string, PathScope> {
  return {
    [`GET ${base}`]: 'any',
    [`GET ${base}/search`]: 'any',
    [`POST ${base}`]: 'libraries:write',
    [`PUT ${base}/:id`]: 'libraries:write',
    [`DELETE ${base}/:id`]: 'libraries:write',
  };
}

export function scopeOfPath(method: string, url: string): PathScope {
  const scope = PATH_SCOPES[`${method} ${url}`];
  if (!scope) throw new Error(`No API key scope is declared for ${method} ${url} (server/rest/scopes.ts)`);
  return scope;
}

/** Refuses a key without what the path needs; a call without a key passes untouched. */
export function assertKeyMayCall(ctx: Pick<Context, 'apiKey'>, scope: PathScope): void {
  if (!ctx.apiKey || scope === 'any') return;
  if (scope === 'personal') throw new AppError('FORBIDDEN', integrationMessages.notForApiKeys);
  if (!ctx.apiKey.scopes.includes(scope))
    throw new AppError('FORBIDDEN', integrationMessages.lacksScope(scope));
}
