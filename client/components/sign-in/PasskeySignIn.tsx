import { Button, Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { passkeyMessages } from '../../../shared/passkey-messages';
import type { SessionAnswer } from '../../../shared/schemas/auth';
import type { LoginVerifyInput } from '../../../shared/schemas/passkeys';
import { serverMessageOf } from '../../api/errors';
import { useTRPC } from '../../trpc';
import { passkeyBrowser, passkeyFailureOf, prompted } from './passkey-browser';

/**
 * "Sign in with a passkey" on the sign-in page: the browser offers the user's passkeys for this
 * site (they are discoverable, so no e-mail is typed), and the signed answer opens the session.
 * Loaded on demand by Login.tsx, so none of it weighs on the first download.
 */
export function PasskeySignIn({ onSignedIn }: { onSignedIn: (answer: SessionAnswer) => void }) {
  const trpc = useTRPC();
  const options = useMutation(trpc.passkeys.loginOptions.mutationOptions());
  const verify = useMutation(trpc.passkeys.loginVerify.mutationOptions());
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function signIn() {
    setFailure(null);
    setPending(true);
    try {
      const browser = await passkeyBrowser();
      const started = await options.mutateAsync();
      type OptionsJSON = Parameters<typeof browser.startAuthentication>[0]['optionsJSON'];
      const response = await prompted(
        browser.startAuthentication({ optionsJSON: started.options as OptionsJSON }),
      );
      const answer = await verify.mutateAsync({
        challengeId: started.challengeId,
        response: response as LoginVerifyInput['response'],
      });
      onSignedIn(answer);
    } catch (error) {
      setFailure(passkeyFailureOf(error, serverMessageOf));
    } finally {
      setPending(false);
    }
  }

  return (
    <Stack gap="xs">
      <Button
        variant="default"
        fullWidth
        leftSection={<IconKey size={18} aria-hidden />}
        loading={pending}
        onClick={signIn}
      >
        {passkeyMessages.signInButton}
      </Button>
      {failure && (
        <Text c="red" size="sm" role="alert">
          {failure}
        </Text>
      )}
    </Stack>
  );
}
