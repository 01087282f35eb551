import createClient from 'openapi-fetch';
import type { components, paths } from './api-types';

/**
 * What a compliance reviewer does in the portal's review queue, here through the API so the
 * example runs unattended: sign in as that person and accept the checklist item's current file.
 * An API key could do it too, given the `reviews:write` scope.
 */

type ChecklistItem = components['schemas']['ChecklistItem'];

export async function acceptDocument(
  baseUrl: string,
  reviewer: { email: string; password: string },
  document: { transactionId: string; formId: string; version: number },
): Promise<ChecklistItem> {
  const api = createClient<paths>({ baseUrl });
  const signIn = await api.POST('/api/auth/login', { body: reviewer });
  if (!signIn.data) throw new Error(`sign-in refused: ${signIn.error?.message}`);
  if ('twoFactorRequired' in signIn.data) throw new Error('this reviewer signs in with a second factor');

  const reviewed = await api.POST('/api/admin/transactions/{id}/forms/{formId}/comments', {
    headers: { Authorization: `Bearer ${signIn.data.token}` },
    params: { path: { id: document.transactionId, formId: document.formId } },
    // `version`: the file the reviewer opened; a newer upload since then makes this a 409.
    body: { status: 'accepted', text: 'Complete and signed.', version: document.version },
  });
  if (!reviewed.data) throw new Error(`review refused: ${reviewed.error?.message}`);
  return reviewed.data;
}
