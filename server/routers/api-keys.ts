import {
  apiKeyAnswer,
  apiKeyIdInput,
  apiKeyList,
  createApiKeyInput,
  createdApiKeyAnswer,
} from '../../shared/schemas/api-keys';
import * as apiKeys from '../services/api-keys';
import { adminProcedure, router } from '../trpc/init';
import examples from './api-keys.examples.json';

/** Integrators' API keys, kept by admins. Keys cannot manage keys: these paths are 'personal' (rest/scopes.ts). */
export const apiKeysRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/api-keys',
        summary:
          "Every API key the admin reaches (an office admin: its office's), newest first: name, scopes, expiry, last use, revocation, the creator's office (never the secret)",
        tag: 'api keys',
        scope: 'personal',
        examples: examples.list,
      },
    })
    .output(apiKeyList)
    .query(({ ctx }) => apiKeys.listApiKeys(ctx)),

  create: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/api-keys',
        summary: 'Create an API key (`key`, starting bpk_, is in this answer only); it acts with your rights',
        tag: 'api keys',
        scope: 'personal',
        successStatus: 201,
        examples: examples.create,
      },
    })
    .input(createApiKeyInput)
    .output(createdApiKeyAnswer)
    .mutation(({ ctx, input }) => apiKeys.createApiKey(ctx, input)),

  revoke: adminProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/admin/api-keys/:id',
        summary: "Revoke an API key at once: its next call answers 401 (another office's key: 404)",
        tag: 'api keys',
        scope: 'personal',
        examples: examples.revoke,
      },
    })
    .input(apiKeyIdInput)
    .output(apiKeyAnswer)
    .mutation(({ ctx, input }) => apiKeys.revokeApiKey(ctx, input)),
});
