import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ui } from '../../shared/messages';
import { type LoginInput, loginInput, type SessionAnswer } from '../../shared/schemas/auth';
import { serverMessageOf } from '../api/errors';
import { afterSignInPath } from '../auth/return-to';
import { setSession } from '../auth/session';
import { SubmitButton } from '../components/SubmitButton';
import { AuthFooterLink } from '../layout/AuthFooterLink';
import { AuthLayout } from '../layout/AuthLayout';
import { paths } from '../paths';
import { useTRPC } from '../trpc';

// On demand: the passkey button and what it needs stay out of the first download.
const PasskeySignIn = lazy(() =>
  import('../components/sign-in/PasskeySignIn').then((module) => ({ default: module.PasskeySignIn })),
);
// On demand too: most brokerages set no single sign-on, and the first download is at its budget.
const SsoButton = lazy(() =>
  import('../components/sign-in/SsoButton').then((module) => ({ default: module.SsoButton })),
);
/** Only sign-ins with two-factor sign-in on need the code step: it stays out of the first download. */
const TwoFactorStep = lazy(() =>
  import('../components/sign-in/TwoFactorStep').then((module) => ({ default: module.TwoFactorStep })),
);

/** Sign-in (/auth/login): then /home, or the page a signed-out visitor was sent here from. */
export function Login() {
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const search = useSearch();
  const login = useMutation(trpc.auth.login.mutationOptions());
  const resend = useMutation(trpc.auth.resendVerification.mutationOptions());
  const [challenge, setChallenge] = useState<string | null>(null);
  const form = useForm<LoginInput>({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: schemaResolver(loginInput, { sync: true }),
  });

  const signedIn = (answer: SessionAnswer) => {
    setSession({ accessToken: answer.token, refreshToken: answer.refreshToken, userId: answer._id });
    navigate(afterSignInPath(search));
  };

  const submit = form.onSubmit((values) => {
    resend.reset();
    login.mutate(loginInput.parse(values), {
      onSuccess: (answer) => {
        if ('twoFactorRequired' in answer) setChallenge(answer.challenge);
        else signedIn(answer);
      },
    });
  });

  if (challenge) {
    return (
      <AuthLayout title="Sign in" withIllustration>
        <Suspense fallback={<Text>{ui.loading}</Text>}>
          <TwoFactorStep challenge={challenge} onSignedIn={signedIn} />
        </Suspense>
      </AuthLayout>
    );
  }

  // The one refusal the user can fix from here: a lost or expired verification e-mail.
  const awaitsVerification = login.error?.data?.error === 'email-not-verified';
  const submittedEmail = login.variables?.email;

  return (
    <AuthLayout title="Sign in" withIllustration>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end">
            <Anchor component={Link} href={paths.reset} size="sm">
              Forgot password?
            </Anchor>
          </Group>
          <SubmitButton fullWidth pending={login.isPending}>
            Sign in
          </SubmitButton>
        </Stack>
      </form>
      <Suspense fallback={null}>
        <PasskeySignIn onSignedIn={signedIn} />
        <SsoButton />
      </Suspense>
      {login.error && (
        <Text c="red" size="sm" role="alert">
          {serverMessageOf(login.error)}
        </Text>
      )}
      {awaitsVerification && submittedEmail && (
        <Stack gap="xs" align="flex-start">
          <Button
            variant="light"
            size="xs"
            disabled={resend.isPending}
            onClick={() => resend.mutate({ email: submittedEmail })}
          >
            {resend.isPending ? ui.loading : 'Resend verification email'}
          </Button>
          {(resend.data || resend.error) && (
            <Text size="sm" c="dimmed" role="status">
              {resend.data ? resend.data.message : serverMessageOf(resend.error)}
            </Text>
          )}
        </Stack>
      )}
      <AuthFooterLink prompt="Don't have an account?" href={paths.register}>
        Register
      </AuthFooterLink>
    </AuthLayout>
  );
}
