import { Button, Loader, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'wouter';
import { authMessages } from '../../shared/messages';
import { httpStatusOf, serverMessageOf } from '../api/errors';
import { AuthLayout } from '../layout/AuthLayout';
import { decodeParam, paths } from '../paths';
import { useTRPC } from '../trpc';

/**
 * A refused token reads as "invalid or expired"; a busy server or a lost connection
 * says so instead, since the link itself may well be good.
 */
function failureText(error: unknown): string {
  const status = httpStatusOf(error);
  return status === 400 || status === 404 ? authMessages.linkInvalid : serverMessageOf(error);
}

/** The e-mailed verification link, /auth/verify-email/:token. */
export function VerifyEmail() {
  const { token } = useParams<{ token: string }>();
  const trpc = useTRPC();
  const verify = useMutation(trpc.auth.verifyEmail.mutationOptions());
  const { mutate } = verify;
  // The token is single-use: StrictMode's second effect run (or any re-render) must not post it
  // again, or the second answer would report the link as invalid.
  const postedToken = useRef<string | null>(null);

  useEffect(() => {
    if (postedToken.current === token) return;
    postedToken.current = token;
    mutate({ token: decodeParam(token) });
  }, [token, mutate]);

  return (
    <AuthLayout title="Email verification">
      {verify.isSuccess ? (
        <Text role="status">{authMessages.verified}</Text>
      ) : verify.isError ? (
        <Text role="alert" c="red">
          {failureText(verify.error)}
        </Text>
      ) : (
        <Stack align="center" gap="xs">
          <Loader size="sm" aria-hidden="true" />
          <Text role="status">{authMessages.verifying}</Text>
        </Stack>
      )}
      <Button component={Link} href={paths.login} variant={verify.isSuccess ? 'filled' : 'default'} fullWidth>
        {authMessages.backToLogin}
      </Button>
    </AuthLayout>
  );
}
