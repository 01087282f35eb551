import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { authMessages } from '../../shared/messages';
import { paths } from '../paths';
import { field } from '../test-utils/forms';
import { renderWithProviders } from '../test-utils/render';
import { deferred, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { NewPassword } from './NewPassword';

const TOKEN = 'reset-token-from-the-email';

function renderPage(handler: (input: unknown) => unknown = () => ({ message: authMessages.passwordReset })) {
  const stub = stubTrpcClient({ 'auth.confirmPasswordReset': handler });
  const view = renderWithProviders(<Route path={paths.newPassword} component={NewPassword} />, {
    path: `/auth/new-password/${TOKEN}`,
    trpcClient: stub.client,
  });
  return { ...view, stub };
}

describe('New password page', () => {
  it('validates with the registration messages', async () => {
    const { user, stub } = renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Password is required')).toBeVisible();
    expect(screen.getByText('This field is required')).toBeVisible();
    await user.type(field('New password'), 'short');
    await user.type(field('Confirm password'), 'other');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText('Password must be at least 8 characters long')).toBeVisible();
    expect(screen.getByText('Passwords do not match')).toBeVisible();
    expect(stub.calls).toEqual([]);
  });

  it('sends the token with the new password, shows Loading..., then the confirmation and a sign-in link', async () => {
    const answer = deferred();
    const { user, stub } = renderPage(() => answer.promise);
    await user.type(field('New password'), 'a new password');
    await user.type(field('Confirm password'), 'a new password');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('button', { name: 'Loading...' })).toBeDisabled();
    expect(stub.callsTo('auth.confirmPasswordReset')).toEqual([
      { token: TOKEN, password: 'a new password', confirmPassword: 'a new password' },
    ]);
    answer.resolve({ message: authMessages.passwordReset });
    expect(await screen.findByText('Your password has been reset.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/login');
    expect(screen.queryByRole('button', { name: 'Set password' })).not.toBeInTheDocument();
  });

  it("shows the server's message for a used or expired link, with a way to ask for a new one", async () => {
    const { user } = renderPage(() => {
      throw trpcError(400, authMessages.linkInvalid);
    });
    await user.type(field('New password'), 'a new password');
    await user.type(field('Confirm password'), 'a new password');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is invalid or has expired.');
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/auth/reset');
  });
});
