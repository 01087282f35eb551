import { alerts } from '../../shared/messages';
import { type SessionAnswer, sessionAnswer } from '../../shared/schemas/auth';
import { currentPagePath, loginPathFor } from './return-to';
import { clearSession, getRefreshToken, setSession } from './session';

/**
 * What happens after a 401: one silent refresh with the stored refresh
 * token, then one retry; only when that fails does the user see the session-expired alert and sign-in.
 * Shared by the tRPC link and the uploader so both take the same, single refresh.
 */

/** Trades a refresh token for a new pair; rejects when the server refuses it. */
export type RenewSession = (refreshToken: string) => Promise<SessionAnswer>;

export type SessionRefresher = {
  /**
   * Call after a 401. `refreshTokenAtSend` is the refresh token stored when the failed request
   * left. Resolves true when the request should be retried once with the tokens now stored.
   */
  recover: (refreshTokenAtSend: string | null) => Promise<boolean>;
  /** The session is over: the session-expired alert, storage cleared, off to sign-in. */
  expire: () => void;
};

type RefresherOptions = {
  renew?: RenewSession;
  /** Leaves the page. A full load, so no state of the ended session survives in memory. */
  leave?: (path: string) => void;
};

export async function renewOverRest(refreshToken: string): Promise<SessionAnswer> {
  const response = await fetch('/api/auth/refresh', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
  if (!response.ok) throw new Error(`Token refresh answered ${response.status}`);
  return sessionAnswer.parse(await response.json());
}

/**
 * Web Locks make the refresh single-flight across tabs too: refresh tokens rotate, and a second
 * tab presenting the one just used would look like a replay and end the whole session family.
 * Where the API is missing (old browsers, jsdom) each tab refreshes on its own.
 */
function withTabLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks?.request) return task();
  return locks.request('brokerage-portal:session-refresh', task);
}

export function createSessionRefresher({
  renew = renewOverRest,
  leave = (path) => window.location.assign(path),
}: RefresherOptions = {}): SessionRefresher {
  let pendingRefresh: Promise<boolean> | null = null;
  // Several calls failing together must produce one alert, not one each.
  let expired = false;

  function expire() {
    if (expired) return;
    expired = true;
    window.alert(alerts.tokenExpired);
    clearSession();
    leave(loginPathFor(currentPagePath()));
  }

  /** `retry`: new tokens are stored; `failed`: the server refused; `abandoned`: signed out meanwhile. */
  async function refresh(refreshTokenAtSend: string): Promise<'retry' | 'failed' | 'abandoned'> {
    // Re-read inside the lock: the tab that held it before may have just rotated the pair.
    const stored = getRefreshToken();
    if (stored === null) return 'abandoned';
    if (stored !== refreshTokenAtSend) return 'retry';
    let answer: SessionAnswer;
    try {
      answer = await renew(stored);
    } catch {
      return 'failed';
    }
    // Signed out (or refreshed elsewhere) while the answer was on its way: do not bring back a
    // session the user ended, nor overwrite a newer pair.
    const current = getRefreshToken();
    if (current === null) return 'abandoned';
    if (current !== stored) return 'retry';
    setSession({ accessToken: answer.token, refreshToken: answer.refreshToken, userId: answer._id });
    return 'retry';
  }

  function recover(refreshTokenAtSend: string | null): Promise<boolean> {
    const stored = getRefreshToken();
    if (stored === null) {
      expire();
      return Promise.resolve(false);
    }
    // A stored pair means a live session again (a new sign-in after an expiry on this page).
    expired = false;
    // The pair changed since the request left (another call or tab refreshed): just retry.
    if (stored !== refreshTokenAtSend) return Promise.resolve(true);
    if (!pendingRefresh) {
      pendingRefresh = withTabLock(() => refresh(stored))
        .then((outcome) => {
          if (outcome === 'failed') expire();
          return outcome === 'retry';
        })
        .finally(() => {
          pendingRefresh = null;
        });
    }
    return pendingRefresh;
  }

  return { recover, expire };
}

/** The one refresher of the running app: the tRPC client and the uploads share its single flight. */
export const sessionRefresher = createSessionRefresher();
