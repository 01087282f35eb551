import { Alert, Button, Code, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import type { TotpSetupAnswer } from '../../../shared/schemas/two-factor';
import { twoFactorMessages } from '../../../shared/two-factor-messages';
import { serverMessageOf } from '../../api/errors';
import { useTRPC } from '../../trpc';
import { SubmitButton } from '../SubmitButton';
import { RecoveryCodes } from './RecoveryCodes';
import { TotpQrCode } from './TotpQrCode';
import { TotpTurnOff } from './TotpTurnOff';

/**
 * The "Two-factor sign-in" section of /settings: set up an authenticator app (scan the QR code or
 * type the secret, confirm with a code), see the recovery codes once, or turn it off.
 */
export function TotpSetup() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.twoFactor.status.queryOptions());
  const setup = useMutation(trpc.twoFactor.totpSetup.mutationOptions());
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.twoFactor.status.queryFilter());

  let body: ReactNode;
  if (recoveryCodes) {
    body = <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />;
  } else if (!status.data) {
    body = <Text>{status.error ? serverMessageOf(status.error) : 'Loading two-factor sign-in...'}</Text>;
  } else if (status.data.totpEnabled) {
    body = (
      <Stack gap="sm">
        <Text>
          On: sign-in asks for a code from your authenticator app. Recovery codes left:{' '}
          {status.data.recoveryCodesLeft}.
        </Text>
        <TotpTurnOff onTurnedOff={() => void refresh()} />
      </Stack>
    );
  } else if (setup.data) {
    body = (
      <ConfirmSetup
        setup={setup.data}
        onEnabled={(codes) => {
          setRecoveryCodes(codes);
          setup.reset();
          void refresh();
        }}
      />
    );
  } else {
    body = (
      <Stack gap="sm" align="flex-start">
        <Text>Off. With it on, signing in also asks for a code from an authenticator app on your phone.</Text>
        <Button onClick={() => setup.mutate()} loading={setup.isPending}>
          Set up two-factor sign-in
        </Button>
        {setup.error && (
          <Text c="red" size="sm" role="alert">
            {serverMessageOf(setup.error)}
          </Text>
        )}
      </Stack>
    );
  }

  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      component="section"
      aria-labelledby="two-factor-heading"
      id="two-factor"
    >
      <Stack gap="md">
        <Title order={2} size="h3" id="two-factor-heading">
          Two-factor sign-in
        </Title>
        {status.data?.setupRequired && (
          <Alert color="orange" title="A second factor is required">
            {twoFactorMessages.setupBanner}
          </Alert>
        )}
        {body}
      </Stack>
    </Paper>
  );
}

/** The pending setup: the QR code, the secret for typing by hand, and the first code. */
function ConfirmSetup({
  setup,
  onEnabled,
}: {
  setup: TotpSetupAnswer;
  onEnabled: (codes: string[]) => void;
}) {
  const trpc = useTRPC();
  const enable = useMutation(trpc.twoFactor.totpEnable.mutationOptions());
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    enable.mutate({ code }, { onSuccess: (answer) => onEnabled(answer.recoveryCodes) });
  };
  return (
    <Stack gap="sm">
      <Text>Scan this QR code with your authenticator app, or type the secret into it.</Text>
      <TotpQrCode otpauthUrl={setup.otpauthUrl} />
      <Text size="sm">
        Secret:{' '}
        <Code data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
          {setup.secret}
        </Code>
      </Text>
      <form onSubmit={submit} noValidate>
        <Group align="flex-end">
          <TextInput
            label={twoFactorMessages.codeStepPrompt}
            autoComplete="one-time-code"
            inputMode="numeric"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={enable.error ? serverMessageOf(enable.error) : undefined}
          />
          <SubmitButton pending={enable.isPending}>Turn on</SubmitButton>
        </Group>
      </form>
    </Stack>
  );
}
