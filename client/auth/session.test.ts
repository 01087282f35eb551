import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../shared/constants';
import { clearSession, getAccessToken, getRefreshToken, getUserId, isSignedIn, setSession } from './session';

const session = { accessToken: 'access.jwt.token', refreshToken: 'opaque-refresh', userId: 'user-1' };

describe('session storage', () => {
  it('stores the three items under the product keys', () => {
    setSession(session);
    expect(window.localStorage.getItem('accessToken')).toBe(session.accessToken);
    expect(window.localStorage.getItem('refreshToken')).toBe(session.refreshToken);
    expect(window.localStorage.getItem('user_id')).toBe(session.userId);
    expect([getAccessToken(), getRefreshToken(), getUserId()]).toEqual([
      session.accessToken,
      session.refreshToken,
      session.userId,
    ]);
    expect(isSignedIn()).toBe(true);
  });

  it('clears all three items and nothing else', () => {
    setSession(session);
    window.localStorage.setItem('unrelated', 'kept');
    clearSession();
    for (const key of Object.values(STORAGE_KEYS)) expect(window.localStorage.getItem(key)).toBeNull();
    expect(window.localStorage.getItem('unrelated')).toBe('kept');
    expect(isSignedIn()).toBe(false);
  });

  it('counts as signed in only with a stored user id', () => {
    expect(isSignedIn()).toBe(false);
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'access.jwt.token');
    expect(isSignedIn()).toBe(false);
    window.localStorage.setItem(STORAGE_KEYS.userId, 'user-1');
    expect(isSignedIn()).toBe(true);
  });
});
