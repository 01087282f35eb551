import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { navigate } from 'wouter/use-browser-location';
import { paths } from './paths';

const MAX_RETRIES = 2;

/** A 4xx answer (bad input, signed out, forbidden, not found) will not change on a retry. */
function isClientError(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  const status: unknown = error.data?.httpStatus;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * An admin whose sign-in proved no second factor, while the owner requires one, is refused
 * everything else: it is led to the settings page, where the two-factor section says why.
 */
function leadToTwoFactorSetup(error: unknown): void {
  if (!(error instanceof TRPCClientError) || error.data?.error !== 'second-factor-required') return;
  if (window.location.pathname !== paths.settings) navigate(paths.settings);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: leadToTwoFactorSetup }),
    mutationCache: new MutationCache({ onError: leadToTwoFactorSetup }),
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => failureCount < MAX_RETRIES && !isClientError(error),
      },
    },
  });
}
