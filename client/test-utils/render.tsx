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
  /**
   * Wrap the tree in StrictMode at the root, where React double-runs effects on mount as in
   * development (a StrictMode nested below the root does not).
   */
  strictMode?: boolean;
};

export type RenderWithProvidersResult = RenderResult & {
  user: UserEvent;
  queryClient: QueryClient;
  /** Every path visited, in order; `replace` navigations overwrite the last entry. */
  history: string[];
  /** The path the router is at now. */
  currentPath: () => string | undefined;
  /** The history state the last navigation carried (wouter's `navigate(to, { state })`). */
  historyState: () => unknown;
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
  { path = '/', trpcClient, strictMode = false }: RenderOptions = {},
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
    { reactStrictMode: strictMode },
  );
  return {
    ...result,
    user,
    queryClient,
    history: location.history,
    currentPath: () => location.history.at(-1),
    historyState: () => location.state,
  };
}
