import { STORAGE_KEYS } from '../../shared/constants';

/**
 * The browser's copy of the session: the only module that touches these
 * localStorage keys, so sign-in, sign-out, token refresh and the route guard agree on them.
 */

export type Session = {
  accessToken: string;
  refreshToken: string;
  userId: string;
};

// Storage can throw (disabled cookies, some private modes); a broken storage reads as signed out
// rather than crashing the app before it renders.
function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function getAccessToken(): string | null {
  return read(STORAGE_KEYS.accessToken);
}

export function getRefreshToken(): string | null {
  return read(STORAGE_KEYS.refreshToken);
}

export function getUserId(): string | null {
  return read(STORAGE_KEYS.userId);
}

export function setSession(session: Session): void {
  window.localStorage.setItem(STORAGE_KEYS.accessToken, session.accessToken);
  window.localStorage.setItem(STORAGE_KEYS.refreshToken, session.refreshToken);
  window.localStorage.setItem(STORAGE_KEYS.userId, session.userId);
}

export function clearSession(): void {
  try {
    for (const key of Object.values(STORAGE_KEYS)) window.localStorage.removeItem(key);
  } catch {
    // Nothing stored can be left behind when storage itself is unavailable.
  }
}

/** The route guard keys on the stored user id, not on the token: signed in means a user id is stored. */
export function isSignedIn(): boolean {
  return Boolean(getUserId());
}
