import { apiError } from '../../../shared/schemas/common';
// Types only: the schemas' module would bring the server's messages into the first download.
import type { SigningView } from '../../../shared/schemas/esign';
import { RestError } from '../../api/errors';

/**
 * The signing page's three calls, over the public REST paths: no session, no API key; the link's
 * token in the path is the only credential. It stays in memory: never stored, never logged here.
 */

export type FieldValue = { fieldId: string; value: string };

const pathOf = (token: string, tail = '') => `/api/sign/${encodeURIComponent(token)}${tail}`;

async function answerOf(response: Response): Promise<unknown> {
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) return body;
  const parsed = apiError.safeParse(body);
  if (parsed.success)
    throw new RestError(response.status, parsed.data.message, parsed.data.code, parsed.data.error);
  throw new RestError(response.status, `The request failed with status ${response.status}`);
}

const postJson = (path: string, body: unknown) =>
  fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    // The link's address, with its token, is not handed to anything else on the way.
    referrerPolicy: 'no-referrer',
  });

export async function loadSigning(token: string): Promise<SigningView> {
  const answer = await answerOf(await fetch(pathOf(token), { referrerPolicy: 'no-referrer' }));
  return answer as SigningView;
}

export async function submitSignature(token: string, consent: boolean, values: FieldValue[]): Promise<void> {
  await answerOf(await postJson(pathOf(token), { consent, values }));
}

export async function declineSigning(token: string, reason: string): Promise<void> {
  await answerOf(await postJson(pathOf(token, '/decline'), { reason }));
}
