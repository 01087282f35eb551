import createClient from 'openapi-fetch';
import type { components, paths } from './api-types';

/**
 * A typed client of the REST API (docs/API.md "A typed client"): openapi-fetch over the types
 * openapi-typescript generates from GET /api/openapi.json. Paths, parameters, bodies and answers
 * are all checked by the compiler; server/rest/typed-client.test.ts runs this against a server.
 */

type Transaction = components['schemas']['Transaction'];
type ApiError = components['schemas']['Error'];

export async function typedClientTour(
  baseUrl: string,
  credentials: { email: string; password: string },
): Promise<{
  created: Transaction;
  total: number;
  missing: { status: number; error: ApiError | undefined };
}> {
  const api = createClient<paths>({ baseUrl });

  const signIn = await api.POST('/api/auth/login', { body: credentials });
  if (!signIn.data) throw new Error(`sign-in refused: ${signIn.error?.message}`);
  // With two-factor sign-in on, the answer is a challenge for POST /api/auth/2fa/verify instead.
  if ('twoFactorRequired' in signIn.data) throw new Error('this account signs in with a second factor');
  const { token, _id: userId } = signIn.data;
  const headers = { Authorization: `Bearer ${token}` };

  // Create one: the body is typed (a missing field or a wrong type does not compile).
  const created = await api.POST('/api/transactions', {
    headers,
    body: {
      streetAddress: '221 Typed Way',
      city: 'Portland',
      state: 'OR',
      zip: '97201',
      type: 'Purchase',
      role: 'Buyer',
    },
  });
  if (!created.data) throw new Error(`create refused: ${created.error?.message}`);

  // List: path and query parameters are typed too; `limit` is 1-100.
  const list = await api.GET('/api/transactions/{userId}', {
    headers,
    params: { path: { userId }, query: { page: 1, limit: 10 } },
  });
  if (!list.data) throw new Error(`list refused: ${list.error?.message}`);

  // An error answer: `error` is the documented Error schema ({message, code, error, issues?});
  // a client switches on its own `error`, a stable id (`missing.error?.error` is 'not-found').
  const missing = await api.GET('/api/transactions/individual/{id}/{userId}', {
    headers,
    params: { path: { id: '00000000-0000-4000-8000-000000000000', userId } },
  });

  return {
    created: created.data,
    total: list.data.totalTransactions,
    missing: { status: missing.response.status, error: missing.error },
  };
}
