import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import './app.css';
import { AppStatus } from './layout/AppStatus';
import { Toasts } from './notify';
import { createQueryClient } from './query-client';
import { AppRoutes } from './routes';
import { theme } from './theme';
import { createTrpcClient, TRPCProvider, type TrpcClient } from './trpc';

type AppProvidersProps = {
  queryClient: QueryClient;
  trpcClient: TrpcClient;
  /** 'test' turns off Mantine's transitions and portals so jsdom tests see content at once. */
  env?: 'default' | 'test';
  children: ReactNode;
};

/**
 * Every context the pages rely on, shared by the app and renderWithProviders so tests run pages
 * inside the same tree. Query and tRPC contexts sit outside ModalsProvider because modal content
 * is rendered by ModalsProvider and may fetch.
 */
export function AppProviders({ queryClient, trpcClient, env = 'default', children }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider queryClient={queryClient} trpcClient={trpcClient}>
        <MantineProvider theme={theme} env={env}>
          <ModalsProvider>
            <Toasts />
            {children}
          </ModalsProvider>
        </MantineProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}

export function App() {
  // Created once per mount rather than at import, so nothing reads storage or window early.
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  return (
    <AppProviders queryClient={queryClient} trpcClient={trpcClient}>
      <AppRoutes />
      <AppStatus />
    </AppProviders>
  );
}
