import { Button, Loader, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'wouter';
import { notificationSettingsMessages } from '../../shared/messages';
import { httpStatusOf, serverMessageOf } from '../api/errors';
import { AuthLayout } from '../layout/AuthLayout';
import { decodeParam, paths } from '../paths';
import { useTRPC } from '../trpc';

/** A refused link says so in the server's words; a busy server or no connection says that instead. */
function failureText(error: unknown): string {
  const status = httpStatusOf(error);
  if (status === 404) return notificationSettingsMessages.unsubscribeInvalid;
  return serverMessageOf(error);
}

/**
 * A mail's unsubscribe link, /unsubscribe/:token: no sign-in. Opening it switches
 * that event to in-app (the server's answer says which), so a link scanner that only GETs the
 * mail's address changes nothing: only this page posts the token.
 */
export function Unsubscribe() {
  const { token } = useParams<{ token: string }>();
  const trpc = useTRPC();
  const unsubscribe = useMutation(trpc.notificationSettings.unsubscribe.mutationOptions());
  const { mutate } = unsubscribe;
  // Posted once per token, StrictMode's second effect run included.
  const postedToken = useRef<string | null>(null);

  useEffect(() => {
    if (postedToken.current === token) return;
    postedToken.current = token;
    mutate({ token: decodeParam(token) });
  }, [token, mutate]);

  return (
    <AuthLayout title="Email notifications">
      {unsubscribe.isSuccess ? (
        <Text role="status">{unsubscribe.data.message}</Text>
      ) : unsubscribe.isError ? (
        <Text role="alert" c="red">
          {failureText(unsubscribe.error)}
        </Text>
      ) : (
        <Stack align="center" gap="xs">
          <Loader size="sm" aria-hidden="true" />
          <Text role="status">Updating your e-mail preferences...</Text>
        </Stack>
      )}
      <Text size="sm" c="dimmed">
        Choose how each notification reaches you under Settings, Notifications.
      </Text>
      <Button component={Link} href={paths.settings} variant="default" fullWidth>
        Notification settings
      </Button>
    </AuthLayout>
  );
}
