import {
  apiKeyAnswer,
  apiKeyIdInput,
  apiKeyList,
  createApiKeyInput,
  createdApiKeyAnswer,
} from '../../shared/schemas/api-keys';
import * as apiKeys from '../services/api-keys';
import { adminProcedure, router } from '../trpc/init';

/** Integrators' API keys, kept by admins. Keys cannot manage keys (rest/scopes.ts). */
export const apiKeysRouter = router({
  list: adminProcedure.output(apiKeyList).query(({ ctx }) => apiKeys.listApiKeys(ctx)),

  create: adminProcedure
    .input(createApiKeyInput)
    .output(createdApiKeyAnswer)
    .mutation(({ ctx, input }) => apiKeys.createApiKey(ctx, input)),

  revoke: adminProcedure
    .input(apiKeyIdInput)
    .output(apiKeyAnswer)
    .mutation(({ ctx, input }) => apiKeys.revokeApiKey(ctx, input)),
});
