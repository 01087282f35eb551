import { Anchor, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { SessionAnswer } from '../../../shared/schemas/auth';
import { twoFactorMessages } from '../../../shared/two-factor-messages';
import { serverMessageOf } from '../../api/errors';
import { useTRPC } from '../../trpc';
import { SubmitButton } from '../SubmitButton';

/**
 * The second step of sign-in (loaded only when a sign-in asks for it): the authenticator's code,
 * or one of the recovery codes, traded with the challenge for the session.
 */
export function TwoFactorStep({
  challenge,
  onSignedIn,
}: {
  challenge: string;
  onSignedIn: (answer: SessionAnswer) => void;
}) {
  const trpc = useTRPC();
  const verify = useMutation(trpc.twoFactor.verify.mutationOptions());
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const proof = useRecovery ? { recoveryCode: value } : { code: value };
    verify.mutate({ challenge, ...proof }, { onSuccess: onSignedIn });
  };

  const switchKind = () => {
    setUseRecovery((current) => !current);
    setValue('');
    verify.reset();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={useRecovery ? twoFactorMessages.recoveryStepPrompt : twoFactorMessages.codeStepPrompt}
          autoComplete="one-time-code"
          inputMode={useRecovery ? 'text' : 'numeric'}
          autoFocus
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          error={verify.error ? serverMessageOf(verify.error) : undefined}
        />
        <SubmitButton fullWidth pending={verify.isPending}>
          Verify
        </SubmitButton>
        <Text size="sm">
          <Anchor component="button" type="button" onClick={switchKind}>
            {useRecovery ? twoFactorMessages.useAuthenticatorCode : twoFactorMessages.useRecoveryCode}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
