import { Button, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import { authMessages, ui } from '../../shared/messages';
import { serverMessageOf } from '../api/errors';
import { AuthLayout } from '../layout/AuthLayout';
import { decodeParam, isVerificationType, paths, routeTo, type VerificationType } from '../paths';
import { useTRPC } from '../trpc';
import { NotFound } from './NotFound';

/** What registration and reset hand over in the history entry (the page reads it from route state). */
type VerificationState = { type: VerificationType; email: string };

/** Opens the "check your inbox" notice, with the type and address in the history entry too. */
export function useOpenVerification(): (type: VerificationType, email: string) => void {
  const [, navigate] = useLocation();
  return (type, email) => {
    const state: VerificationState = { type, email };
    navigate(routeTo.verification(type, email), { state });
  };
}

function readState(state: unknown): VerificationState | null {
  if (typeof state !== 'object' || state === null) return null;
  const { type, email } = state as Record<string, unknown>;
  return isVerificationType(type) && typeof email === 'string' && email ? { type, email } : null;
}

const COPY: Record<VerificationType, { heading: string; purpose: string }> = {
  register: {
    heading: 'Verify your email',
    purpose: 'to verify your email address and activate your account',
  },
  reset: {
    heading: 'Reset your email',
    purpose: 'to reset your password and regain access to your account',
  },
};

/**
 * "Check your inbox" after registration or a reset request. The history state
 * wins; the URL's own segments serve a reload or a shared link, where that state is gone.
 */
export function Verification() {
  const params = useParams<{ type: string; email: string }>();
  const fromState = readState(useHistoryState<unknown>());
  const type = fromState?.type ?? (isVerificationType(params.type) ? params.type : null);
  const email = fromState?.email ?? decodeParam(params.email);
  const trpc = useTRPC();
  const resend = useMutation(trpc.auth.resendVerification.mutationOptions());

  if (!type || !email) return <NotFound />;
  const { heading, purpose } = COPY[type];

  return (
    <AuthLayout title={heading}>
      <Text>
        We sent an email to{' '}
        <Text span fw={600}>
          {email}
        </Text>
        . Follow the link in it {purpose}.
      </Text>
      <Stack gap="xs">
        <Button component={Link} href={paths.login} fullWidth>
          {authMessages.backToLogin}
        </Button>
        {type === 'register' && (
          <Button
            variant="default"
            fullWidth
            disabled={resend.isPending}
            onClick={() => resend.mutate({ email })}
          >
            {resend.isPending ? ui.loading : 'Resend email'}
          </Button>
        )}
      </Stack>
      {(resend.data || resend.error) && (
        <Text size="sm" c="dimmed" role="status">
          {resend.data ? resend.data.message : serverMessageOf(resend.error)}
        </Text>
      )}
    </AuthLayout>
  );
}
