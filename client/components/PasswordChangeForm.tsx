import { Alert, Group, PasswordInput, Stack, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiMessages, validation } from '../../shared/messages';
import { changePasswordInput } from '../../shared/schemas/users';
import { serverMessageOf } from '../api/errors';
import { setSession } from '../auth/session';
import { notifySuccess } from '../notify';
import { useTRPC } from '../trpc';
import { SubmitButton } from './SubmitButton';

// The shared rules field by field (the contract's userId is added on submit), with its match rule.
const { currentPassword, password, confirmPassword } = changePasswordInput.shape;
const passwordFormSchema = z
  .object({ currentPassword, password, confirmPassword })
  .refine((value) => value.password === value.confirmPassword, {
    error: validation.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });

type PasswordValues = z.input<typeof passwordFormSchema>;
const EMPTY: PasswordValues = { currentPassword: '', password: '', confirmPassword: '' };

/**
 * The 'Change password' section of /settings: the server answers with a new
 * session pair for this browser and signs every other session out.
 */
export function PasswordChangeForm({ userId }: { userId: string }) {
  const trpc = useTRPC();
  const change = useMutation(trpc.settings.changePassword.mutationOptions());
  const form = useForm<PasswordValues>({
    mode: 'uncontrolled',
    initialValues: EMPTY,
    validate: schemaResolver(passwordFormSchema, { sync: true }),
  });

  const submit = form.onSubmit((values) => {
    change.mutate(
      { userId, ...passwordFormSchema.parse(values) },
      {
        onSuccess: (answer) => {
          setSession({ accessToken: answer.token, refreshToken: answer.refreshToken, userId: answer._id });
          form.reset();
          notifySuccess(apiMessages.passwordChanged);
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate aria-labelledby="change-password-title">
      <Stack gap="md">
        <Title order={2} size="h3" id="change-password-title">
          Change password
        </Title>
        <PasswordInput
          label="Current password"
          withAsterisk
          autoComplete="current-password"
          key={form.key('currentPassword')}
          {...form.getInputProps('currentPassword')}
        />
        <PasswordInput
          label="New password"
          withAsterisk
          autoComplete="new-password"
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label="Confirm password"
          withAsterisk
          autoComplete="new-password"
          key={form.key('confirmPassword')}
          {...form.getInputProps('confirmPassword')}
        />
        {change.error && (
          <Alert color="red" role="alert">
            {serverMessageOf(change.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <SubmitButton pending={change.isPending}>Change password</SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}
