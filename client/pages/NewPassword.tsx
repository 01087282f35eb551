import { Anchor, PasswordInput, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import type { z } from 'zod';
import { authMessages } from '../../shared/messages';
import { newPasswordForm } from '../../shared/schemas/auth';
import { httpStatusOf, serverMessageOf } from '../api/errors';
import { SubmitButton } from '../components/SubmitButton';
import { AuthFooterLink } from '../layout/AuthFooterLink';
import { AuthLayout } from '../layout/AuthLayout';
import { decodeParam, paths } from '../paths';
import { useTRPC } from '../trpc';

type NewPasswordValues = z.infer<typeof newPasswordForm>;

/** The e-mailed reset link, /auth/new-password/:token. */
export function NewPassword() {
  const { token } = useParams<{ token: string }>();
  const trpc = useTRPC();
  const confirmReset = useMutation(trpc.auth.confirmPasswordReset.mutationOptions());
  const form = useForm<NewPasswordValues>({
    mode: 'uncontrolled',
    initialValues: { password: '', confirmPassword: '' },
    validate: schemaResolver(newPasswordForm, { sync: true }),
  });

  const submit = form.onSubmit((values) => {
    confirmReset.mutate({ token: decodeParam(token), ...values });
  });

  return (
    <AuthLayout title={authMessages.setNewPasswordHeading}>
      {confirmReset.isSuccess ? (
        <Stack gap="sm">
          <Text role="status">{authMessages.passwordReset}</Text>
          <Anchor component={Link} href={paths.login}>
            Sign in
          </Anchor>
        </Stack>
      ) : (
        <>
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              <PasswordInput
                label="New password"
                autoComplete="new-password"
                key={form.key('password')}
                {...form.getInputProps('password')}
              />
              <PasswordInput
                label="Confirm password"
                autoComplete="new-password"
                key={form.key('confirmPassword')}
                {...form.getInputProps('confirmPassword')}
              />
              <SubmitButton fullWidth pending={confirmReset.isPending}>
                {authMessages.setPasswordButton}
              </SubmitButton>
            </Stack>
          </form>
          {confirmReset.error && (
            <Text c="red" size="sm" role="alert">
              {serverMessageOf(confirmReset.error)}
            </Text>
          )}
          {/* A used or expired link cannot work again; a new one is a click away. */}
          {httpStatusOf(confirmReset.error) === 400 && (
            <Anchor component={Link} href={paths.reset} size="sm">
              Request a new link
            </Anchor>
          )}
          <AuthFooterLink href={paths.login}>Back to sign in</AuthFooterLink>
        </>
      )}
    </AuthLayout>
  );
}
