import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { apiMessages, ui } from '../../shared/messages';
import { paths, routeTo } from '../paths';
import { renderWithProviders } from '../test-utils/render';
import { deferred, stubTrpcClient } from '../test-utils/trpc-stub';
import { Verification } from './Verification';

function renderAt(path: string, handlers: Parameters<typeof stubTrpcClient>[0] = {}) {
  const stub = stubTrpcClient(handlers);
  const view = renderWithProviders(<Route path={paths.verification} component={Verification} />, {
    path,
    trpcClient: stub.client,
  });
  return { ...view, stub };
}

describe('Verification page', () => {
  afterEach(() => window.history.replaceState(null, ''));

  it('after registration: heading, the address, what the email is for, Back to login', async () => {
    const { user, currentPath } = renderAt(routeTo.verification('register', 'dana+1@example.com'));
    expect(screen.getByRole('heading', { level: 1, name: 'Verify your email' })).toBeVisible();
    expect(screen.getByText('dana+1@example.com')).toBeVisible();
    expect(screen.getByText(/sent an email to/)).toHaveTextContent(
      'We sent an email to dana+1@example.com. Follow the link in it to verify your email address and activate your account.',
    );
    await user.click(screen.getByRole('link', { name: 'Back to login' }));
    expect(currentPath()).toBe('/auth/login');
  });

  it('after a reset request: its own heading and purpose, and no resend button', () => {
    renderAt(routeTo.verification('reset', 'agent@example.com'));
    expect(screen.getByRole('heading', { level: 1, name: 'Reset your email' })).toBeVisible();
    expect(screen.getByText(/sent an email to/)).toHaveTextContent(/reset your password/);
    expect(screen.queryByRole('button', { name: 'Resend email' })).not.toBeInTheDocument();
  });

  it('takes the email and type from the route state first', () => {
    window.history.replaceState({ type: 'reset', email: 'from-state@example.com' }, '');
    renderAt(routeTo.verification('register', 'from-url@example.com'));
    expect(screen.getByRole('heading', { level: 1, name: 'Reset your email' })).toBeVisible();
    expect(screen.getByText('from-state@example.com')).toBeVisible();
    expect(screen.queryByText('from-url@example.com')).not.toBeInTheDocument();
  });

  it('resends the verification email and shows the answer', async () => {
    const answer = deferred();
    const { user, stub } = renderAt(routeTo.verification('register', 'dana@example.com'), {
      'auth.resendVerification': () => answer.promise,
    });
    await user.click(screen.getByRole('button', { name: 'Resend email' }));
    expect(await screen.findByRole('button', { name: ui.loading })).toBeDisabled();
    answer.resolve({ message: apiMessages.verificationResent });
    expect(await screen.findByText(apiMessages.verificationResent)).toBeVisible();
    expect(stub.callsTo('auth.resendVerification')).toEqual([{ email: 'dana@example.com' }]);
  });

  it('shows the 404 page for an unknown type', () => {
    renderAt('/auth/verification/other/dana%40example.com');
    expect(screen.getByText(ui.notFound)).toBeVisible();
  });
});
