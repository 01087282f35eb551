import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { apiMessages, authMessages } from '../../shared/messages';
import { paths } from '../paths';
import { renderWithProviders } from '../test-utils/render';
import { deferred, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { VerifyEmail } from './VerifyEmail';

const TOKEN = 'q1w2e3r4t5y6u7i8o9p0-_AbCdEfGhIjKlMnOpQrStUv';

function renderAt(token: string, handler: (input: unknown) => unknown) {
  const stub = stubTrpcClient({ 'auth.verifyEmail': handler });
  const view = renderWithProviders(<Route path={paths.verifyEmail} component={VerifyEmail} />, {
    path: `/auth/verify-email/${token}`,
    trpcClient: stub.client,
    // Effects run twice on mount, as in development: the single-use token must still go once.
    strictMode: true,
  });
  return { ...view, stub };
}

describe('Verify email page', () => {
  it('posts the token once, shows progress, then the verified message', async () => {
    const answer = deferred();
    const { stub } = renderAt(TOKEN, () => answer.promise);
    expect(await screen.findByText('Verifying your email...')).toBeVisible();
    answer.resolve({ message: authMessages.verified });
    expect(
      await screen.findByText('Your email has been verified. An administrator will review your account.'),
    ).toBeVisible();
    expect(stub.callsTo('auth.verifyEmail')).toEqual([{ token: TOKEN }]);
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/auth/login');
  });

  it('says the link is invalid or expired when the server refuses the token', async () => {
    const { stub } = renderAt(TOKEN, () => {
      throw trpcError(400, authMessages.linkInvalid);
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is invalid or has expired.');
    expect(screen.queryByText(authMessages.verifying)).not.toBeInTheDocument();
    expect(stub.callsTo('auth.verifyEmail')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Back to login' })).toBeVisible();
  });

  it('does not blame the link when the server could not be reached', async () => {
    renderAt(TOKEN, () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(apiMessages.serviceUnavailable);
  });
});
