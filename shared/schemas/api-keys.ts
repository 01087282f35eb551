import { z } from 'zod';
import { integrationMessages } from '../messages';

/**
 * API keys for integrators. A key acts with its creator's rights (an admin's
 * visibility) narrowed to its scopes; the secret is shown once, in the create answer.
 */

export const API_KEY_SCOPES = [
  'transactions:read',
  'transactions:write',
  'reviews:write',
  'users:read',
  'users:write',
  'libraries:write',
  'webhooks:manage',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** What each scope allows, as the admin page and the API docs describe it. */
export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'transactions:read': 'Read transactions, documents, dates, history and the review queue',
  'transactions:write': 'Create, change and delete transactions; attach files; comment',
  'reviews:write': 'Accept and reject documents, decide waivers, close and reopen files',
  'users:read': 'Read users',
  'users:write': 'Add, activate, deactivate and change users',
  'libraries:write': 'Change checklist templates and the forms and tutorials libraries',
  'webhooks:manage': 'Manage webhook endpoints and their deliveries',
};

export const API_KEY_PREFIX = 'bpk_';
export const MAX_KEY_NAME = 100;

export const apiKeyScope = z.enum(API_KEY_SCOPES, { error: integrationMessages.scopeInvalid });

export const createApiKeyInput = z.object({
  name: z
    .string({ error: integrationMessages.keyNameRequired })
    .trim()
    .min(1, { error: integrationMessages.keyNameRequired })
    .max(MAX_KEY_NAME, { error: `Name is at most ${MAX_KEY_NAME} characters` }),
  scopes: z
    .array(apiKeyScope, { error: integrationMessages.scopesRequired })
    .min(1, { error: integrationMessages.scopesRequired })
    .max(API_KEY_SCOPES.length, { error: integrationMessages.scopesRequired })
    // One of each, in the order of the list, whatever order they came in.
    .transform((scopes) => API_KEY_SCOPES.filter((scope) => scopes.includes(scope))),
  expiresAt: z.iso
    .datetime({ offset: true, error: 'expiresAt must be an ISO 8601 date-time' })
    .nullish()
    .transform((value) => value ?? null),
});

export const apiKeyIdInput = z.object({ id: z.uuid({ error: 'Invalid id' }) });

export const apiKeyAnswer = z.object({
  _id: z.string(),
  name: z.string(),
  scopes: z.array(apiKeyScope),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  /** Who created it: the key acts with this admin's rights. */
  createdBy: z.object({ _id: z.string(), name: z.string() }),
  /** Its creator's office: an office key sees what that office's admin sees; null: brokerage-wide. */
  officeId: z.string().nullable(),
});
export type ApiKeyAnswer = z.infer<typeof apiKeyAnswer>;

/** The create answer: the only time the whole key is ever shown. */
export const createdApiKeyAnswer = apiKeyAnswer.extend({ key: z.string() });
export type CreatedApiKeyAnswer = z.infer<typeof createdApiKeyAnswer>;

export const apiKeyList = z.object({ items: z.array(apiKeyAnswer) });
