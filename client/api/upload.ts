import { apiError } from '../../shared/schemas/common';
import { type UploadAnswer, uploadAnswer } from '../../shared/schemas/transactions';
import { type SessionRefresher, sessionRefresher } from '../auth/refresh';
import { getAccessToken, getRefreshToken } from '../auth/session';
import { RestError } from './errors';

/** Whole percent of the file sent so far, 0 to 100. */
export type UploadProgress = (percent: number) => void;

type RawAnswer = { status: number; statusText: string; body: string; contentType: string };

/**
 * One multipart POST with XMLHttpRequest rather than fetch: only XHR reports upload progress,
 * which the file field's "uploading with percent" state needs.
 */
function send(
  path: string,
  files: readonly File[],
  onProgress: UploadProgress | undefined,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    // The answer's link then points at this very origin (a /files/ path), as /trpc answers do:
    // the server's APP_URL may name another address than the one this page was loaded from.
    request.open('POST', `${path}${path.includes('?') ? '&' : '?'}links=same-origin`);
    request.setRequestHeader('accept', 'application/json');
    // Read per attempt, so the retry after a refresh carries the new token.
    const token = getAccessToken();
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      }
    };
    request.onload = () =>
      resolve({
        status: request.status,
        statusText: request.statusText,
        body: request.responseText,
        contentType: request.getResponseHeader('content-type') ?? '',
      });
    // No answer at all (offline, connection reset): a plain error, shown as "service unavailable".
    request.onerror = () => reject(new TypeError('The upload could not reach the server'));
    request.onabort = () => reject(new TypeError('The upload was aborted'));
    const body = new FormData();
    for (const file of files) body.append('file', file, file.name);
    // The browser sets the multipart content type with its boundary.
    request.send(body);
  });
}

function parseJson(answer: RawAnswer): unknown {
  if (!answer.body || !answer.contentType.includes('json')) return undefined;
  try {
    return JSON.parse(answer.body);
  } catch {
    return undefined;
  }
}

/** The `{message, code, error}` error body (docs/API.md, "Errors"), as a RestError. */
function toError(answer: RawAnswer): RestError {
  const parsed = apiError.safeParse(parseJson(answer));
  if (parsed.success)
    return new RestError(answer.status, parsed.data.message, parsed.data.code, parsed.data.error);
  return new RestError(answer.status, answer.statusText || `Upload failed with status ${answer.status}`);
}

/**
 * Several files go as several `file` parts, in order: the images route makes one PDF of them;
 * the other routes take exactly one.
 */
export type UploadFile = (
  path: string,
  file: File | readonly File[],
  onProgress?: UploadProgress,
) => Promise<UploadAnswer>;

/** `refresher` is replaceable so tests can watch the 401 handling without a network. */
export function createUploader(refresher: SessionRefresher): UploadFile {
  return async (path, file, onProgress) => {
    // The bearer token never leaves for another origin.
    if (!path.startsWith('/') || path.startsWith('//')) {
      throw new Error(`uploadFile takes a same-origin path, got "${path}"`);
    }
    // The same 401 handling as every other call: one refresh, one retry.
    const files = file instanceof File ? [file] : file;
    const refreshTokenAtSend = getRefreshToken();
    let answer = await send(path, files, onProgress);
    if (answer.status === 401) {
      if (!(await refresher.recover(refreshTokenAtSend))) throw toError(answer);
      onProgress?.(0);
      answer = await send(path, files, onProgress);
      if (answer.status === 401) {
        refresher.expire();
        throw toError(answer);
      }
    }
    if (answer.status < 200 || answer.status >= 300) throw toError(answer);
    return uploadAnswer.parse(parseJson(answer));
  };
}

export const uploadFile: UploadFile = createUploader(sessionRefresher);

/** The upload route of one transaction's checklist files. */
export function transactionUploadPath(transactionId: string): string {
  return `/api/uploads/transactions/${encodeURIComponent(transactionId)}`;
}

/**
 * The route that makes one PDF of a document's photos, a page per image, named `name` (the
 * item's label and the day, so the agent's downloads are not all 'photos.pdf').
 */
export function transactionImagesPath(transactionId: string, name: string): string {
  return `${transactionUploadPath(transactionId)}/images?${new URLSearchParams({ name })}`;
}
