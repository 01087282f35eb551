import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../shared/constants';
import type { SessionAnswer } from '../../shared/schemas/auth';
import { deferred } from '../test-utils/trpc-stub';
import { createSessionRefresher, renewOverRest } from './refresh';
import { getAccessToken, getRefreshToken, getUserId, setSession } from './session';

const USER_ID = 'f3a1c2d4-0000-4000-8000-000000000001';
const renewed: SessionAnswer = { token: 'new-access', refreshToken: 'new-refresh', _id: USER_ID };

function setup(renew: (refreshToken: string) => Promise<SessionAnswer> = async () => renewed) {
  const renewSpy = vi.fn(renew);
  const leave = vi.fn();
  const refresher = createSessionRefresher({ renew: renewSpy, leave });
  return { refresher, renew: renewSpy, leave };
}

describe('session refresher', () => {
  let alert: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    setSession({ accessToken: 'old-access', refreshToken: 'old-refresh', userId: USER_ID });
    alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('refreshes once for concurrent 401s and stores the new pair', async () => {
    const answer = deferred<SessionAnswer>();
    const { refresher, renew } = setup(() => answer.promise);
    const first = refresher.recover('old-refresh');
    const second = refresher.recover('old-refresh');
    answer.resolve(renewed);
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(renew).toHaveBeenCalledWith('old-refresh');
    expect([getAccessToken(), getRefreshToken(), getUserId()]).toEqual([
      'new-access',
      'new-refresh',
      USER_ID,
    ]);
    expect(alert).not.toHaveBeenCalled();
  });

  it('just retries when the pair changed after the request left (another call or tab refreshed)', async () => {
    const { refresher, renew } = setup();
    await expect(refresher.recover('a-refresh-token-rotated-since')).resolves.toBe(true);
    expect(renew).not.toHaveBeenCalled();
  });

  it('refreshes again for a later, separate expiry', async () => {
    const { refresher, renew } = setup();
    await refresher.recover('old-refresh');
    await refresher.recover('new-refresh');
    expect(renew).toHaveBeenCalledTimes(2);
  });

  it('on a refused refresh: one alert, storage cleared, off to sign-in', async () => {
    const { refresher, leave } = setup(async () => {
      throw new Error('401');
    });
    const results = await Promise.all([refresher.recover('old-refresh'), refresher.recover('old-refresh')]);
    expect(results).toEqual([false, false]);
    expect(alert).toHaveBeenCalledTimes(1);
    expect(alert).toHaveBeenCalledWith('Token expired. Logging out...');
    for (const key of Object.values(STORAGE_KEYS)) expect(window.localStorage.getItem(key)).toBeNull();
    expect(leave).toHaveBeenCalledExactlyOnceWith('/auth/login');
  });

  it('ends the session at once when no refresh token is stored', async () => {
    window.localStorage.removeItem(STORAGE_KEYS.refreshToken);
    const { refresher, renew, leave } = setup();
    await expect(refresher.recover(null)).resolves.toBe(false);
    expect(renew).not.toHaveBeenCalled();
    expect(alert).toHaveBeenCalledTimes(1);
    expect(leave).toHaveBeenCalledWith('/auth/login');
    expect(getUserId()).toBeNull();
  });

  it('does not bring back a session the user signed out of while the refresh was running', async () => {
    const answer = deferred<SessionAnswer>();
    const { refresher, leave } = setup(() => answer.promise);
    const result = refresher.recover('old-refresh');
    window.localStorage.clear();
    answer.resolve(renewed);
    await expect(result).resolves.toBe(false);
    expect(getRefreshToken()).toBeNull();
    expect(getUserId()).toBeNull();
    expect(alert).not.toHaveBeenCalled();
    expect(leave).not.toHaveBeenCalled();
  });

  it('alerts once however many callers end the session', () => {
    const { refresher, leave } = setup();
    refresher.expire();
    refresher.expire();
    expect(alert).toHaveBeenCalledTimes(1);
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it('holds a cross-tab lock and re-checks the stored pair inside it', async () => {
    const { refresher, renew } = setup();
    // Another tab holds the lock and rotates the pair before this tab gets it.
    const request = vi.fn(async (_name: string, task: () => Promise<unknown>) => {
      setSession({ accessToken: 'other-tab-access', refreshToken: 'other-tab-refresh', userId: USER_ID });
      return task();
    });
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    await expect(refresher.recover('old-refresh')).resolves.toBe(true);
    expect(request).toHaveBeenCalledTimes(1);
    expect(renew).not.toHaveBeenCalled();
    expect(getRefreshToken()).toBe('other-tab-refresh');
  });
});

describe('renewOverRest', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts the refresh token to /api/auth/refresh and reads the new pair', async () => {
    const fetch = vi.fn(async (_path: string, _init: RequestInit) => Response.json(renewed));
    vi.stubGlobal('fetch', fetch);
    await expect(renewOverRest('old-refresh')).resolves.toEqual(renewed);
    expect(fetch).toHaveBeenCalledWith('/api/auth/refresh', expect.objectContaining({ method: 'POST' }));
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1].body))).toEqual({ refreshToken: 'old-refresh' });
  });

  it('rejects when the server refuses', async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json(
        { message: 'Your session has expired.', code: 'UNAUTHORIZED', error: 'unauthenticated' },
        { status: 401 },
      ),
    );
    await expect(renewOverRest('used-refresh')).rejects.toThrow('401');
  });
});
