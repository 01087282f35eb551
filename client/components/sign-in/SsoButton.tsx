import { Button, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearch } from 'wouter';
import { afterSignInPath } from '../../auth/return-to';
import { paths } from '../../paths';
import { useTRPC } from '../../trpc';

/** What the landing page leaves in the history entry of the sign-in page it returns to. */
export type SsoReturnState = { ssoError?: string };

/**
 * "Sign in with <OIDC_NAME>" on the sign-in page when single sign-on is set up: a plain link to
 * GET /api/auth/oidc/start (the browser leaves for the provider), carrying the page to return
 * to. Below it, the refusal the landing page brought back (no account, provider down...), in the
 * server's words. Kept small: the sign-in page is in every visit's first download, so the words
 * are written here rather than imported from shared/oidc-messages.ts.
 */
export function SsoButton() {
  const trpc = useTRPC();
  const search = useSearch();
  const status = useQuery({ ...trpc.oidc.status.queryOptions(), staleTime: Number.POSITIVE_INFINITY });
  const error = (window.history.state as SsoReturnState | null)?.ssoError;
  const next = afterSignInPath(search);
  const start = `/api/auth/oidc/start${next === paths.home ? '' : `?${new URLSearchParams({ returnTo: next })}`}`;
  return (
    <>
      {status.data?.enabled && (
        <Button component="a" href={start} variant="default" fullWidth>
          Sign in with {status.data.name}
        </Button>
      )}
      {typeof error === 'string' && (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      )}
    </>
  );
}
