import { TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable, type Unsubscribable } from '@trpc/server/observable';
import type { AppRouter } from '../../server/trpc/router';
import type { SessionRefresher } from './refresh';
import { getRefreshToken } from './session';

function isUnauthorized(error: unknown): boolean {
  return error instanceof TRPCClientError && error.data?.httpStatus === 401;
}

/**
 * Sits before the transport links: a 401 answer to any call but `auth.*` and the second step of
 * sign-in gets one silent refresh and one retry. Those are left alone because their 401 means a
 * wrong password, a wrong code or a dead refresh token, which the calling screen reports itself.
 * Subscriptions carry their token in the WebSocket's connection parameters, not per call.
 */
export function sessionRefreshLink(refresher: SessionRefresher): TRPCLink<AppRouter> {
  return () =>
    ({ op, next }) => {
      if (op.type === 'subscription' || op.path.startsWith('auth.') || op.path === 'twoFactor.verify')
        return next(op);
      return observable((observer) => {
        let current: Unsubscribable | null = null;
        let stopped = false;

        const attempt = (isRetry: boolean) => {
          // The transport reads the access token from storage when it sends, so a retry started
          // after the refresh carries the new token.
          const refreshTokenAtSend = getRefreshToken();
          current = next(op).subscribe({
            next: (value) => observer.next(value),
            complete: () => observer.complete(),
            error: (error) => {
              if (!isUnauthorized(error)) {
                observer.error(error);
                return;
              }
              if (isRetry) {
                // Refused even with fresh tokens: the account was deactivated or its password changed.
                refresher.expire();
                observer.error(error);
                return;
              }
              void refresher.recover(refreshTokenAtSend).then((renewed) => {
                if (stopped) return;
                if (renewed) attempt(true);
                else observer.error(error);
              });
            },
          });
        };

        attempt(false);
        return () => {
          stopped = true;
          current?.unsubscribe();
        };
      });
    };
}
