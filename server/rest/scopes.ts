import type { FastifyRequest } from 'fastify';
import { integrationMessages } from '../../shared/messages';
import type { ApiKeyScope } from '../../shared/schemas/api-keys';
import { AppError } from '../errors';
import type { Context } from '../trpc/context';

/**
 * What an API key needs for each /api path. A key acts with its creator's rights (an admin's
 * visibility), and on top of that each path asks for one scope:
 * - a scope: the key must hold it, else 403 "This API key lacks the scope <scope>";
 * - 'any': every valid key may call it (reading the checklist templates and the libraries);
 * - 'personal': a path about a person (sign-in, their password, notifications, preferences,
 *   calendar feed) or about keys themselves (a key minting keys would outlive its revocation):
 *   403 for every key.
 * Each path declares its scope where it is declared: a procedure's REST path in its meta
 * (`rest.scope`, server/trpc/init.ts), a route of its own (uploads, CSV exports) in its schema's
 * `x-api-key-scope` (server/rest/openapi.ts). The REST plugin refuses to start with a documented
 * operation without one, and the authorization matrix (server/test/authorization-matrix.test.ts)
 * checks each scope against exactly its paths.
 */
export type PathScope = ApiKeyScope | 'any' | 'personal';

/** The scope the route of this request declares in its schema (`x-api-key-scope`). */
export function scopeOfRoute(req: FastifyRequest): PathScope {
  const schema = req.routeOptions.schema as { 'x-api-key-scope'?: PathScope } | undefined;
  const scope = schema?.['x-api-key-scope'];
  if (!scope) throw new Error(`No API key scope is declared for ${req.method} ${req.routeOptions.url}`);
  return scope;
}

/** Refuses a key without what the path needs; a call without a key passes untouched. */
export function assertKeyMayCall(ctx: Pick<Context, 'apiKey'>, scope: PathScope): void {
  if (!ctx.apiKey || scope === 'any') return;
  if (scope === 'personal')
    throw new AppError('FORBIDDEN', integrationMessages.notForApiKeys, undefined, {
      error: 'not-for-api-keys',
    });
  if (!ctx.apiKey.scopes.includes(scope))
    throw new AppError('FORBIDDEN', integrationMessages.lacksScope(scope), undefined, {
      error: 'missing-scope',
    });
}
