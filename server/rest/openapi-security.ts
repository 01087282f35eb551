import { API_KEY_PREFIX } from '../../shared/schemas/api-keys';
import type { PathScope } from './scopes';

/**
 * How the document says who may call an operation: a session's JWT (`bearerAuth`) or an API key
 * (`apiKey`). Both travel as `Authorization: Bearer <credential>`; the server tells a key by its
 * prefix (server/trpc/context.ts). An operation's scope (server/rest/scopes.ts) decides whether a
 * key may call it and with what: `x-required-scopes` lists it, and a key without it gets 403.
 */

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'A session: the `token` answered by POST /api/auth/login (15 minutes; POST /api/auth/refresh renews it), ' +
      'sent as `Authorization: Bearer <token>`.',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: `${API_KEY_PREFIX}<id>_<secret>`,
    description:
      `An API key made by an admin (POST /api/admin/api-keys), sent as \`Authorization: Bearer ${API_KEY_PREFIX}<id>_<secret>\`. ` +
      'It acts with the rights of the admin who made it, within the scopes it holds: each operation names the one ' +
      'it needs in `x-required-scopes` (an empty list: any key). Operations without `apiKey` in their `security` ' +
      'refuse every key with 403. An unknown, revoked or expired key is 401; each key has its own rate limit.',
  },
} as const;

type Operation = Record<string, unknown> & {
  security?: Array<Record<string, string[]>>;
  description?: string;
};

const SCOPE_TEXT = {
  any: 'API keys: any valid key may call it.',
  personal: 'API keys: refused (403); only a signed-in person may call it.',
  publicRefused: 'No credential is needed; an API key sent with the call is refused (403).',
  scoped: (scope: string) => `API keys: need the scope \`${scope}\` (403 without it).`,
};

/**
 * Writes an authenticated operation's key rules from its scope: `security` lists `apiKey` beside
 * `bearerAuth` where keys are allowed, `x-required-scopes` what they need, and the description
 * says it in words. Returns whether a key can be refused with 403 there.
 */
export function applyApiKeyScope(
  operation: Operation,
  scope: PathScope | undefined,
): { keyMayBeRefused: boolean } {
  if (!scope) return { keyMayBeRefused: false };
  // A public operation needs no credential, but a key sent with a call is still held to the scope.
  if (!operation.security?.length) {
    if (scope === 'any') return { keyMayBeRefused: false };
    operation.description = [operation.description, SCOPE_TEXT.publicRefused].filter(Boolean).join(' ');
    return { keyMayBeRefused: true };
  }
  const sentence =
    scope === 'any' ? SCOPE_TEXT.any : scope === 'personal' ? SCOPE_TEXT.personal : SCOPE_TEXT.scoped(scope);
  operation.description = operation.description ? `${operation.description} ${sentence}` : sentence;
  if (scope === 'personal') {
    operation.security = [{ bearerAuth: [] }];
    return { keyMayBeRefused: true };
  }
  const scopes = scope === 'any' ? [] : [scope];
  // The scopes go in x-required-scopes: OpenAPI lists scopes in `security` for OAuth 2 only.
  operation.security = [{ bearerAuth: [] }, { apiKey: [] }];
  operation['x-required-scopes'] = scopes;
  return { keyMayBeRefused: scope !== 'any' };
}
