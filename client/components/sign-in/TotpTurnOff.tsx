import { Group, PasswordInput, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { serverMessageOf } from '../../api/errors';
import { notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { SubmitButton } from '../SubmitButton';

/** Turning two-factor sign-in off: the password is required (the server checks it). */
export function TotpTurnOff({ onTurnedOff }: { onTurnedOff: () => void }) {
  const trpc = useTRPC();
  const disable = useMutation(trpc.twoFactor.totpDisable.mutationOptions());
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate(
      { password },
      {
        onSuccess: (answer) => {
          notifySuccess(answer.message);
          onTurnedOff();
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <PasswordInput
          label="Password, to turn two-factor sign-in off"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={disable.error ? serverMessageOf(disable.error) : undefined}
        />
        <Group>
          <SubmitButton color="red" variant="light" pending={disable.isPending}>
            Turn off
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}
