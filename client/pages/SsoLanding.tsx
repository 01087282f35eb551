import { Loader, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { oidcMessages } from '../../shared/oidc-messages';
import { serverMessageOf } from '../api/errors';
import { safeReturnPath } from '../auth/return-to';
import { setSession } from '../auth/session';
import type { SsoReturnState } from '../components/sign-in/SsoButton';
import { AuthLayout } from '../layout/AuthLayout';
import { paths } from '../paths';
import { useTRPC } from '../trpc';

/**
 * /auth/sso, where the provider's callback sends the browser: `#code=<one-time code>&next=<path>`.
 * The code is traded once for the session (POST /api/auth/oidc/exchange), then the page the
 * sign-in began from opens; a refusal goes back to the sign-in page, which shows it. The
 * fragment leaves the address bar at once, so neither history nor a copied link keeps the code.
 */
export function SsoLanding() {
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const { mutate } = useMutation(trpc.oidc.exchange.mutationOptions());
  // Traded once, StrictMode's second effect run included.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    window.history.replaceState(null, '', window.location.pathname);
    const backToSignIn = (ssoError: string) =>
      navigate(paths.login, { replace: true, state: { ssoError } satisfies SsoReturnState });
    const code = fragment.get('code');
    if (!code) {
      backToSignIn(oidcMessages.linkInvalid);
      return;
    }
    mutate(
      { code },
      {
        onSuccess: (answer) => {
          setSession({ accessToken: answer.token, refreshToken: answer.refreshToken, userId: answer._id });
          navigate(safeReturnPath(fragment.get('next')) ?? paths.home, { replace: true });
        },
        onError: (error) => backToSignIn(serverMessageOf(error)),
      },
    );
  }, [mutate, navigate]);

  return (
    <AuthLayout title="Single sign-on">
      <Stack align="center" gap="xs">
        <Loader size="sm" aria-hidden="true" />
        <Text role="status">{oidcMessages.finishing}</Text>
      </Stack>
    </AuthLayout>
  );
}
