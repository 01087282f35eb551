import { QueryClient } from '@tanstack/react-query';
import { type RenderResult, render } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { createTRPCClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { ReactElement } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { AppRouter } from '../../server/trpc/router';
import { AppProviders } from '../App';
import type { TrpcClient } from '../trpc';

type RenderOptions = {
  /** The URL the memory router starts at. */
  path?: string;
  /** Answers tRPC calls; without one, any call fails loudly instead of reaching the network. */
  trpcClient?: TrpcClient;
};

export type RenderWithProvidersResult = RenderResult & {
  user: UserEvent;
  queryClient: QueryClient;
  /** Every path visited, in order; `replace` navigations overwrite the last entry. */
  history: string[];
  /** The path the router is at now. */
  currentPath: () => string | undefined;
};

const unstubbedLink: TRPCLink<AppRouter> = () => {
  return ({ op }) =>
    observable((observer) => {
      observer.error(
        TRPCClientError.from(new Error(`tRPC ${op.type} "${op.path}" called; pass trpcClient to stub it`)),
      );
    });
};

export function renderWithProviders(
  ui: ReactElement,
  { path = '/', trpcClient }: RenderOptions = {},
): RenderWithProvidersResult {
  const location = memoryLocation({ path, record: true });
  // No retries: a failing query should fail the test now, not after back-off delays.
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const client = trpcClient ?? createTRPCClient<AppRouter>({ links: [unstubbedLink] });
  const user = userEvent.setup();
  const result = render(
    <AppProviders env="test" queryClient={queryClient} trpcClient={client}>
      <Router hook={location.hook}>{ui}</Router>
    </AppProviders>,
  );
  return {
    ...result,
    user,
    queryClient,
    history: location.history,
    currentPath: () => location.history.at(-1),
  };
}
