import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiMessages, authMessages } from '../../shared/messages';
import { createSessionRefresher } from '../auth/refresh';
import { getAccessToken, getUserId, setSession } from '../auth/session';
import { createRestFetch, RestError } from './rest';

const USER_ID = 'f3a1c2d4-0000-4000-8000-000000000001';

type Handler = (request: Request) => Response | Promise<Response>;

/** Replaces fetch with `handler`, seeing each call as the Request the browser would send. */
function stubFetch(handler: Handler) {
  const requests: Request[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input), 'http://portal.test'), init);
    requests.push(request.clone());
    return handler(request);
  });
  vi.stubGlobal('fetch', fetch);
  return requests;
}

const unauthorized = () =>
  Response.json({ message: apiMessages.sessionInvalid, code: 'UNAUTHORIZED' }, { status: 401 });

function setup() {
  const renew = vi.fn(async () => ({ token: 'new-access', refreshToken: 'new-refresh', _id: USER_ID }));
  const leave = vi.fn();
  const restFetch = createRestFetch(createSessionRefresher({ renew, leave }));
  return { restFetch, renew, leave };
}

describe('restFetch', () => {
  let alert: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    setSession({ accessToken: 'old-access', refreshToken: 'old-refresh', userId: USER_ID });
    alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('sends the bearer token and JSON, and reads JSON', async () => {
    const requests = stubFetch(() => Response.json({ _id: 'x' }, { status: 201 }));
    const { restFetch } = setup();
    await expect(
      restFetch('/api/transactions', { method: 'POST', body: { city: 'Springfield' } }),
    ).resolves.toEqual({
      _id: 'x',
    });
    const [request] = requests;
    expect(request?.headers.get('authorization')).toBe('Bearer old-access');
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(await request?.json()).toEqual({ city: 'Springfield' });
  });

  it('sends FormData as it is, letting the browser set the multipart boundary', async () => {
    const requests = stubFetch(() => Response.json({ key: 'k' }, { status: 201 }));
    const { restFetch } = setup();
    const body = new FormData();
    body.set('file', new Blob(['%PDF-1.7']), 'contract.pdf');
    await restFetch('/api/uploads/forms', { method: 'POST', body });
    expect(requests[0]?.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('answers undefined for an empty body (204)', async () => {
    stubFetch(() => new Response(null, { status: 204 }));
    await expect(
      setup().restFetch('/api/auth/logout', { method: 'POST', body: {} }),
    ).resolves.toBeUndefined();
  });

  it('throws a RestError with the server message and code', async () => {
    stubFetch(() => Response.json({ message: 'Not found', code: 'NOT_FOUND' }, { status: 404 }));
    const error = await setup()
      .restFetch('/api/transactions/individual/1/2')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RestError);
    expect(error).toMatchObject({ status: 404, message: 'Not found', code: 'NOT_FOUND' });
  });

  it('refreshes once on a 401 and retries with the new token', async () => {
    const requests = stubFetch((request) =>
      request.headers.get('authorization') === 'Bearer new-access'
        ? Response.json({ ok: true })
        : unauthorized(),
    );
    const { restFetch, renew } = setup();
    await expect(restFetch('/api/notifications/me')).resolves.toEqual({ ok: true });
    expect(renew).toHaveBeenCalledTimes(1);
    expect(requests.map((request) => request.headers.get('authorization'))).toEqual([
      'Bearer old-access',
      'Bearer new-access',
    ]);
    expect(getAccessToken()).toBe('new-access');
  });

  it('shares one refresh between concurrent 401s', async () => {
    stubFetch((request) =>
      request.headers.get('authorization') === 'Bearer new-access'
        ? Response.json({ ok: true })
        : unauthorized(),
    );
    const { restFetch, renew } = setup();
    await Promise.all([restFetch('/api/forms'), restFetch('/api/tutorials')]);
    expect(renew).toHaveBeenCalledTimes(1);
  });

  it('ends the session when the retry is refused as well', async () => {
    stubFetch(unauthorized);
    const { restFetch, leave } = setup();
    await expect(restFetch('/api/forms')).rejects.toMatchObject({ status: 401 });
    expect(alert).toHaveBeenCalledExactlyOnceWith('Token expired. Logging out...');
    expect(getUserId()).toBeNull();
    expect(leave).toHaveBeenCalledWith('/auth/login');
  });

  it('never refreshes for /api/auth/ paths', async () => {
    stubFetch(() =>
      Response.json({ message: authMessages.invalidCredentials, code: 'UNAUTHORIZED' }, { status: 401 }),
    );
    const { restFetch, renew } = setup();
    await expect(
      restFetch('/api/auth/login', { method: 'POST', body: { email: 'a@b.co', password: 'x' } }),
    ).rejects.toMatchObject({ status: 401, message: authMessages.invalidCredentials });
    expect(renew).not.toHaveBeenCalled();
    expect(alert).not.toHaveBeenCalled();
  });

  it('refuses to send the token anywhere but this origin', async () => {
    const requests = stubFetch(() => Response.json({}));
    const { restFetch } = setup();
    await expect(restFetch('https://elsewhere.example/api')).rejects.toThrow(/same-origin/);
    await expect(restFetch('//elsewhere.example/api')).rejects.toThrow(/same-origin/);
    expect(requests).toEqual([]);
  });
});
