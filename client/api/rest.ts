import { apiError } from '../../shared/schemas/common';
import { type SessionRefresher, sessionRefresher } from '../auth/refresh';
import { getAccessToken, getRefreshToken } from '../auth/session';

/** A non-2xx answer of the REST API, carrying its `{message, code}` body (DESIGN.md section 5). */
export class RestError extends Error {
  override readonly name = 'RestError';
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** `body` may be a plain value, sent as JSON, or anything fetch sends as it is (FormData for uploads). */
export type RestInit = Omit<RequestInit, 'body'> & { body?: unknown };

function isRawBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

function send(path: string, { body, headers, ...rest }: RestInit): Promise<Response> {
  const requestHeaders = new Headers(headers);
  if (!requestHeaders.has('accept')) requestHeaders.set('accept', 'application/json');
  const token = getAccessToken();
  if (token) requestHeaders.set('authorization', `Bearer ${token}`);
  let requestBody: BodyInit | undefined;
  if (body === undefined || isRawBody(body)) {
    requestBody = body;
  } else {
    requestBody = JSON.stringify(body);
    requestHeaders.set('content-type', 'application/json');
  }
  return fetch(path, { ...rest, headers: requestHeaders, body: requestBody });
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  return type.includes('json') ? JSON.parse(text) : text;
}

async function toError(response: Response): Promise<RestError> {
  const body = await readBody(response).catch(() => undefined);
  const parsed = apiError.safeParse(body);
  if (parsed.success) return new RestError(response.status, parsed.data.message, parsed.data.code);
  return new RestError(
    response.status,
    response.statusText || `Request failed with status ${response.status}`,
  );
}

export type RestFetch = (path: string, init?: RestInit) => Promise<unknown>;

/**
 * fetch for the /api paths that tRPC does not serve well (file uploads): the bearer token from
 * storage, JSON both ways, and the same 401 handling as the tRPC client (DESIGN.md section 9.2).
 * Answers `unknown`: callers parse it with the shared schema of that answer.
 */
export function createRestFetch(refresher: SessionRefresher): RestFetch {
  return async (path, init = {}) => {
    // The bearer token must never leave for another origin: only same-origin absolute paths.
    if (!path.startsWith('/') || path.startsWith('//')) {
      throw new Error(`restFetch takes a same-origin path, got "${path}"`);
    }
    // A 401 from sign-in or refresh is that screen's own answer, never an expired session.
    const refreshable = !path.startsWith('/api/auth/');
    const refreshTokenAtSend = getRefreshToken();
    let response = await send(path, init);
    if (response.status === 401 && refreshable) {
      if (!(await refresher.recover(refreshTokenAtSend))) throw await toError(response);
      response = await send(path, init);
      if (response.status === 401) {
        refresher.expire();
        throw await toError(response);
      }
    }
    if (!response.ok) throw await toError(response);
    return readBody(response);
  };
}

export const restFetch: RestFetch = createRestFetch(sessionRefresher);
