import { createTRPCClient, createWSClient, httpBatchLink, splitLink, wsLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '../server/trpc/router';
import { type SessionRefresher, sessionRefresher } from './auth/refresh';
import { sessionRefreshLink } from './auth/refresh-link';
import { getAccessToken } from './auth/session';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export type TrpcClient = ReturnType<typeof createTrpcClient>;

function webSocketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/trpc`;
}

/** `refresher` is replaceable so tests can watch the refresh without a network or a page load. */
export function createTrpcClient(refresher: SessionRefresher = sessionRefresher) {
  return createTRPCClient<AppRouter>({
    links: [
      sessionRefreshLink(refresher),
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: wsLink({
          client: createWSClient({
            // A function, so the URL and the token are read when a socket opens, not at import.
            url: webSocketUrl,
            // Browsers cannot set headers on a WebSocket; the server reads the token from here.
            connectionParams: () => {
              const token = getAccessToken();
              return token ? { token } : null;
            },
            // Opens only while a subscription runs and closes right after, so a signed-out
            // visitor holds no socket and each new socket carries the current token.
            lazy: { enabled: true, closeMs: 0 },
          }),
        }),
        false: httpBatchLink({
          url: '/trpc',
          // Read per request, so a call retried after a token refresh sends the new token.
          headers: () => {
            const token = getAccessToken();
            return token ? { authorization: `Bearer ${token}` } : {};
          },
        }),
      }),
    ],
  });
}
