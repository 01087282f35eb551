import { apiError } from '../../shared/schemas/common';
import { type SessionRefresher, sessionRefresher } from '../auth/refresh';
import { getAccessToken, getRefreshToken } from '../auth/session';
import { RestError } from './errors';

/**
 * Downloads an authenticated file (the CSV exports): fetched with the bearer
 * token like every other call (one refresh and one retry after a 401), then saved from a blob
 * under the name the server gives. A link the browser opens itself would need the token in its
 * address, or a second, signed way in; this keeps one way in, and no token in any URL or log.
 */

async function fetchWithToken(path: string): Promise<Response> {
  const token = getAccessToken();
  return fetch(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
}

async function toError(response: Response): Promise<RestError> {
  const parsed = apiError.safeParse(await response.json().catch(() => undefined));
  if (parsed.success)
    return new RestError(response.status, parsed.data.message, parsed.data.code, parsed.data.error);
  return new RestError(response.status, `The download failed with status ${response.status}`);
}

/** `attachment; filename="x.csv"` -> x.csv */
export function filenameOf(disposition: string | null): string | undefined {
  return disposition?.match(/filename="([^"]+)"/)?.[1];
}

export function createDownloader(refresher: SessionRefresher) {
  return async (path: string, fallbackName: string): Promise<void> => {
    // The bearer token never leaves for another origin.
    if (!path.startsWith('/') || path.startsWith('//'))
      throw new Error(`downloadFile takes a same-origin path, got "${path}"`);
    const refreshTokenAtSend = getRefreshToken();
    let response = await fetchWithToken(path);
    if (response.status === 401 && (await refresher.recover(refreshTokenAtSend))) {
      response = await fetchWithToken(path);
      if (response.status === 401) refresher.expire();
    }
    if (!response.ok) throw await toError(response);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = filenameOf(response.headers.get('content-disposition')) ?? fallbackName;
    document.body.append(link);
    link.click();
    link.remove();
    // The browser has taken the blob once the click is handled; later, so a slow one still has it.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
}

export const downloadFile = createDownloader(sessionRefresher);
