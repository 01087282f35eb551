import { Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { authMessages } from '../../shared/messages';
import { type ResetRequestInput, resetRequestInput } from '../../shared/schemas/auth';
import { httpStatusOf, serverMessageOf } from '../api/errors';
import { SubmitButton } from '../components/SubmitButton';
import { AuthFooterLink } from '../layout/AuthFooterLink';
import { AuthLayout } from '../layout/AuthLayout';
import { paths } from '../paths';
import { useTRPC } from '../trpc';
import { useOpenVerification } from './Verification';

/**
 * The product shows a message for a 404 only ("We didn't find your email"). A 429 also shows
 * the server's "Too many requests" message: the limit is hit by someone pressing the button again
 * because nothing seemed to happen, and silence would only make them press it once more.
 */
function visibleError(error: unknown): string | null {
  const status = httpStatusOf(error);
  if (status === 404) return authMessages.emailNotFound;
  if (status === 429) return serverMessageOf(error);
  return null;
}

/** Forgot password (/auth/reset): asks for the e-mailed reset link. */
export function ResetPassword() {
  const trpc = useTRPC();
  const openVerification = useOpenVerification();
  const requestReset = useMutation(trpc.auth.requestPasswordReset.mutationOptions());
  const form = useForm<ResetRequestInput>({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: schemaResolver(resetRequestInput, { sync: true }),
  });

  const submit = form.onSubmit((values) => {
    const input = resetRequestInput.parse(values);
    requestReset.mutate(input, {
      onSuccess: () => openVerification('reset', input.email),
    });
  });

  const errorText = requestReset.error ? visibleError(requestReset.error) : null;

  return (
    <AuthLayout title="Forgot password?">
      <Text size="sm" c="dimmed">
        Enter the email address of your account and we will send you a link to reset your password.
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email address"
            type="email"
            autoComplete="email"
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <SubmitButton fullWidth pending={requestReset.isPending}>
            Reset Password
          </SubmitButton>
        </Stack>
      </form>
      {errorText && (
        <Text c="red" size="sm" role="alert">
          {errorText}
        </Text>
      )}
      <AuthFooterLink href={paths.login}>Back to sign in</AuthFooterLink>
    </AuthLayout>
  );
}
