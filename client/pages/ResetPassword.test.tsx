import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiMessages, authMessages } from '../../shared/messages';
import { field } from '../test-utils/forms';
import { renderWithProviders } from '../test-utils/render';
import { deferred, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { ResetPassword } from './ResetPassword';

function renderReset(handlers: Parameters<typeof stubTrpcClient>[0] = {}) {
  const stub = stubTrpcClient(handlers);
  const view = renderWithProviders(<ResetPassword />, { path: '/auth/reset', trpcClient: stub.client });
  return { ...view, stub };
}

const failWith = (status: number, message: string) => () => {
  throw trpcError(status, message);
};

describe('Reset password page', () => {
  it('has the email field, the Reset Password button and a link back to sign-in', () => {
    renderReset();
    expect(field('Email address')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset Password' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/auth/login');
  });

  it('validates with the product messages before sending', async () => {
    const { user, stub } = renderReset();
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Email address is required')).toBeVisible();
    await user.type(field('Email address'), 'nobody-at-example.com');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Invalid email address')).toBeVisible();
    expect(stub.calls).toEqual([]);
  });

  it('shows Loading... while sending, then the reset verification screen', async () => {
    const answer = deferred();
    const { user, stub, currentPath, historyState } = renderReset({
      'auth.requestPasswordReset': () => answer.promise,
    });
    await user.type(field('Email address'), 'agent@example.com');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('button', { name: 'Loading...' })).toBeDisabled();
    expect(stub.callsTo('auth.requestPasswordReset')).toEqual([{ email: 'agent@example.com' }]);
    answer.resolve({ message: apiMessages.resetSent });
    await waitFor(() => expect(currentPath()).toBe('/auth/verification/reset/agent%40example.com'));
    expect(historyState()).toEqual({ type: 'reset', email: 'agent@example.com' });
  });

  it('says so when the address is unknown (404)', async () => {
    const { user, currentPath } = renderReset({
      'auth.requestPasswordReset': failWith(404, authMessages.emailNotFound),
    });
    await user.type(field('Email address'), 'unknown@example.com');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("We didn't find your email");
    expect(currentPath()).toBe('/auth/reset');
  });

  it('shows nothing for other failures, except the rate limit', async () => {
    const { user, stub } = renderReset({
      'auth.requestPasswordReset': failWith(503, apiMessages.mailFailed),
    });
    await user.type(field('Email address'), 'agent@example.com');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reset Password' })).toBeEnabled());
    expect(stub.callsTo('auth.requestPasswordReset')).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(apiMessages.mailFailed)).not.toBeInTheDocument();
  });

  it("shows the server's message when rate limited (429)", async () => {
    const { user } = renderReset({
      'auth.requestPasswordReset': failWith(429, apiMessages.tooManyRequests),
    });
    await user.type(field('Email address'), 'agent@example.com');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(apiMessages.tooManyRequests);
  });
});
