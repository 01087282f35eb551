import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../shared/constants';
import { apiMessages, authMessages } from '../../shared/messages';
import { field } from '../test-utils/forms';
import { renderWithProviders } from '../test-utils/render';
import { deferred, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { Login } from './Login';

const USER_ID = 'f3a1c2d4-0000-4000-8000-000000000001';
const session = { token: 'access.jwt.token', refreshToken: 'opaque-refresh', _id: USER_ID };

function renderLogin(handlers: Parameters<typeof stubTrpcClient>[0] = {}) {
  // The single sign-on button asks whether it is set up; here it is not.
  const stub = stubTrpcClient({ 'oidc.status': () => ({ enabled: false, name: '' }), ...handlers });
  const view = renderWithProviders(<Login />, { path: '/auth/login', trpcClient: stub.client });
  return { ...view, stub };
}

async function signIn(user: ReturnType<typeof renderLogin>['user'], email: string, password: string) {
  if (email) await user.type(field('Email'), email);
  if (password) await user.type(field('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('Login page', () => {
  it('shows the logo, the register and reset links and a decorative picture for wide screens only', async () => {
    const { container } = renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    expect(screen.getByRole('img', { name: 'Brokerage Portal' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/auth/reset');
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/auth/register');
    // Mantine's visibleFrom="md" hides it below the md breakpoint with a CSS class.
    // The picture arrives in a chunk of its own, after the form.
    const picture = await waitFor(() => {
      const found = container.querySelector('.mantine-visible-from-md[data-testid="login-illustration"] svg');
      expect(found).not.toBeNull();
      return found;
    });
    expect(picture).toHaveAttribute('aria-hidden', 'true');
    expect(container.querySelector('form')).toHaveAttribute('novalidate');
  });

  it("has one element labelled 'password': the visibility toggle is named otherwise", () => {
    renderLogin();
    expect(screen.getAllByLabelText(/password/i)).toEqual([field('Password')]);
    expect(screen.getByRole('button', { name: 'Show characters' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('requires both fields, with the product messages, and sends nothing', async () => {
    const { user, stub } = renderLogin();
    await signIn(user, '', '');
    expect(await screen.findByText('Email is required')).toBeVisible();
    expect(screen.getByText('Password is required')).toBeVisible();
    expect(stub.calls.filter((call) => call.path !== 'oidc.status')).toEqual([]);
  });

  it('rejects a malformed email and a short password', async () => {
    const { user, stub } = renderLogin();
    await signIn(user, 'not-an-email', 'short');
    expect(await screen.findByText('Invalid email format')).toBeVisible();
    expect(screen.getByText('Password must be at least 8 characters long')).toBeVisible();
    expect(field('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(stub.calls.filter((call) => call.path !== 'oidc.status')).toEqual([]);
  });

  it('shows Loading... on a disabled button while signing in, then stores the session and goes home', async () => {
    const answer = deferred();
    const { user, stub, currentPath } = renderLogin({ 'auth.login': () => answer.promise });
    await signIn(user, '  agent@example.com ', 'correct horse');
    const button = await screen.findByRole('button', { name: 'Loading...' });
    expect(button).toBeDisabled();
    expect(stub.callsTo('auth.login')).toEqual([{ email: 'agent@example.com', password: 'correct horse' }]);
    expect(currentPath()).toBe('/auth/login');

    answer.resolve(session);
    await waitFor(() => expect(currentPath()).toBe('/home'));
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBe(session.token);
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe(session.refreshToken);
    expect(window.localStorage.getItem(STORAGE_KEYS.userId)).toBe(USER_ID);
  });

  it("shows the server's message under the form in red, and stores nothing", async () => {
    const { user, currentPath } = renderLogin({
      'auth.login': () => {
        throw trpcError(401, authMessages.invalidCredentials);
      },
    });
    await signIn(user, 'agent@example.com', 'wrong password');
    const message = await screen.findByRole('alert');
    expect(message).toHaveTextContent('Invalid email or password');
    expect(message.style.color).toBe('var(--mantine-color-red-text)');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    expect(currentPath()).toBe('/auth/login');
    expect(window.localStorage.getItem(STORAGE_KEYS.userId)).toBeNull();
    // Only an unverified address gets the resend offer.
    expect(screen.queryByRole('button', { name: 'Resend verification email' })).not.toBeInTheDocument();
  });

  it('offers a new verification email when the address is not verified yet', async () => {
    const { user, stub } = renderLogin({
      'auth.login': () => {
        throw trpcError(403, authMessages.emailNotVerified, undefined, 'email-not-verified');
      },
      'auth.resendVerification': () => ({ message: apiMessages.verificationResent }),
    });
    await signIn(user, 'new@example.com', 'password123');
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.emailNotVerified);
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText(apiMessages.verificationResent)).toBeVisible();
    expect(stub.callsTo('auth.resendVerification')).toEqual([{ email: 'new@example.com' }]);
  });

  it('does not offer it to an account awaiting approval', async () => {
    const { user } = renderLogin({
      'auth.login': () => {
        throw trpcError(403, authMessages.awaitingApproval);
      },
    });
    await signIn(user, 'new@example.com', 'password123');
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.awaitingApproval);
    expect(screen.queryByRole('button', { name: 'Resend verification email' })).not.toBeInTheDocument();
  });

  it('says the server could not be reached when no answer came', async () => {
    const { user } = renderLogin({
      'auth.login': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await signIn(user, 'agent@example.com', 'password123');
    expect(await screen.findByRole('alert')).toHaveTextContent(apiMessages.serviceUnavailable);
  });
});
