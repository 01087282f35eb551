import { configure, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../shared/constants';
import { ui } from '../shared/messages';
import { setSession } from './auth/session';
import { paths } from './paths';
import { AppRoutes } from './routes';
import { renderWithProviders } from './test-utils/render';
import { fakeAccessToken } from './test-utils/tokens';
import { stubTrpcClient } from './test-utils/trpc-stub';

// Each page's chunk is compiled on its first import in this file: on a loaded two-core machine
// that alone took over the second a query waits by default.
configure({ asyncUtilTimeout: 5_000 });

const USER_ID = 'f3a1c2d4-0000-4000-8000-000000000001';
const TRANSACTION_ID = '0b9e6a52-1111-4111-8111-000000000002';

function signIn(role: 'user' | 'admin') {
  setSession({
    accessToken: fakeAccessToken({ sub: USER_ID, role }),
    refreshToken: 'refresh',
    userId: USER_ID,
  });
}

/** The shell asks for the greeting's name; these tests are about where each path lands. */
function renderRoutes(path: string) {
  const stub = stubTrpcClient({ 'settings.getUser': () => new Promise(() => {}) });
  return renderWithProviders(<AppRoutes />, { path, trpcClient: stub.client });
}

const SIGNED_IN_PAGES: [path: string, heading: string][] = [
  ['/home', 'Transactions'],
  [`/home/transactions/${TRANSACTION_ID}`, 'Transaction'],
  ['/forms', 'Forms'],
  ['/tutorials', 'Tutorials'],
  ['/settings', 'Update Profile'],
  ['/banner', 'Banner'],
  ['/notifications', 'Notifications'],
];

const ADMIN_PAGES: [path: string, heading: string][] = [
  ['/admin/dashboard', 'Dashboard'],
  ['/users', 'Users'],
  ['/admin/offices', 'Offices'],
  ['/adminTransactions', 'Admin Transactions'],
  [`/adminTransactions/transactions/${TRANSACTION_ID}`, 'Transaction'],
  ['/admin/forms/transactions/view', 'Transactions Forms'],
  ['/admin/commission-plans', 'Commission Plans'],
  ['/admin/review', 'Review Queue'],
  ['/admin/rejection-reasons', 'Rejection Reasons'],
  ['/admin/api-keys', 'API Keys'],
  ['/admin/webhooks', 'Webhooks'],
];

const SIGNED_OUT_PAGES: [path: string, heading: string][] = [
  ['/auth/login', 'Sign in'],
  ['/auth/register', 'Create an account'],
  ['/auth/reset', 'Forgot password?'],
  ['/auth/verification/register/dana%40example.com', 'Verify your email'],
  ['/auth/verification/reset/dana%40example.com', 'Reset your email'],
  ['/auth/new-password/some-token', 'Set a new password'],
  ['/auth/verify-email/some-token', 'Email verification'],
];

describe('routes', () => {
  it('sends / to sign-in when no user id is stored', async () => {
    const { history } = renderRoutes('/');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeVisible();
    // Replaced, not pushed: Back must not return to / and bounce forward again.
    expect(history).toEqual(['/auth/login']);
  });

  it('sends / to /home when a user id is stored', async () => {
    window.localStorage.setItem(STORAGE_KEYS.userId, USER_ID);
    const { history } = renderRoutes('/');
    expect(await screen.findByRole('heading', { name: 'Transactions' })).toBeVisible();
    expect(history).toEqual(['/home']);
    expect(screen.queryByRole('heading', { name: 'Sign in' })).not.toBeInTheDocument();
  });

  it('ignores an access token without a user id (signed in means a stored user id)', async () => {
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'header.payload.signature');
    const { history } = renderRoutes('/');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(history).toEqual(['/auth/login']);
  });

  it.each(['/no-such-page', '/auth/nope', '/home/extra/segments', '/not-found'])(
    'shows the 404 page at %s without changing the URL',
    (path) => {
      const { history } = renderRoutes(path);
      expect(screen.getByText(ui.notFound)).toBeVisible();
      expect(history).toEqual([path]);
    },
  );

  it.each(['/no-such-page', '/not-found'])(
    'shows the 404 page at %s inside the shell, with the navigation, for a signed-in user',
    (path) => {
      signIn('user');
      const { history } = renderRoutes(path);
      expect(screen.getByRole('heading', { level: 1, name: ui.notFound })).toBeVisible();
      expect(screen.getAllByRole('main')).toHaveLength(1);
      const navigation = screen.getAllByRole('navigation', { name: 'Main' })[0] as HTMLElement;
      expect(navigation).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to transactions' })).toHaveAttribute('href', '/home');
      expect(history).toEqual([path]);
    },
  );

  it('shows the signed-out 404 page in a main landmark, leading to sign-in', () => {
    renderRoutes('/no-such-page');
    expect(screen.getByRole('main')).toContainElement(screen.getByRole('heading', { level: 1 }));
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/auth/login');
  });

  it('does not show the 404 page on a known route', async () => {
    signIn('user');
    renderRoutes('/home');
    expect(await screen.findByRole('heading', { name: 'Transactions' })).toBeVisible();
    expect(screen.queryByText(ui.notFound)).not.toBeInTheDocument();
  });

  it('redirects /transactions/:id to /home/transactions/:id', async () => {
    signIn('user');
    const { history } = renderRoutes(`/transactions/${TRANSACTION_ID}`);
    expect(history).toEqual([`/home/transactions/${TRANSACTION_ID}`]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Transaction' })).toBeVisible();
  });

  describe('guard', () => {
    it.each([...SIGNED_IN_PAGES, ...ADMIN_PAGES])(
      'sends a visitor without a user id from %s to sign-in, which returns there afterwards',
      (path) => {
        const { history } = renderRoutes(path);
        const back = path === paths.home ? paths.login : `${paths.login}?next=${encodeURIComponent(path)}`;
        expect(history).toEqual([back]);
        expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
      },
    );

    it('keeps the query of the page a signed-out visitor opened', () => {
      const { history } = renderRoutes('/admin/review?type=Purchase&page=2');
      expect(history).toEqual([
        `${paths.login}?next=${encodeURIComponent('/admin/review?type=Purchase&page=2')}`,
      ]);
    });

    it('signs in on the way to the page of an e-mailed link, then opens it', async () => {
      const stub = stubTrpcClient({
        'settings.getUser': () => new Promise(() => {}),
        'auth.login': () => ({
          token: fakeAccessToken({ sub: USER_ID, role: 'user' }),
          refreshToken: 'r',
          _id: USER_ID,
        }),
        'transactions.get': () => new Promise(() => {}),
      });
      const target = `/home/transactions/${TRANSACTION_ID}`;
      const { user, history } = renderWithProviders(<AppRoutes />, { path: target, trpcClient: stub.client });
      await user.type(screen.getByLabelText('Email'), 'agent@example.com');
      await user.type(screen.getByLabelText('Password'), 'correct horse');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      expect(await screen.findByRole('button', { name: 'Logout' })).toBeInTheDocument();
      expect(history.at(-1)).toBe(target);
    });

    it.each(SIGNED_IN_PAGES)('shows %s inside the shell to a signed-in user', async (path, heading) => {
      signIn('user');
      const { history } = renderRoutes(path);
      expect(history).toEqual([path]);
      // Feature pages load on demand: the heading arrives once the page's chunk has.
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeVisible();
      expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    });

    it.each(ADMIN_PAGES)('sends a non-admin from %s to /home', async (path) => {
      signIn('user');
      const { history } = renderRoutes(path);
      expect(history).toEqual([paths.home]);
      expect(await screen.findByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
    });

    it.each(ADMIN_PAGES)('shows %s to an admin', async (path, heading) => {
      signIn('admin');
      const { history } = renderRoutes(path);
      expect(history).toEqual([path]);
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeVisible();
    });

    it('treats an unreadable token as a non-admin', () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      signIn('user');
      window.localStorage.setItem(STORAGE_KEYS.accessToken, 'garbage');
      const { history } = renderRoutes('/users');
      expect(history).toEqual([paths.home]);
      expect(warn).toHaveBeenCalledOnce();
      warn.mockRestore();
    });

    it.each(SIGNED_OUT_PAGES)(
      'leaves %s open, without the shell, even when signed in',
      async (path, heading) => {
        signIn('user');
        const { history } = renderRoutes(path);
        expect(history).toEqual([path]);
        // Registration loads on demand; the other screens are there at once.
        expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeVisible();
        expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
        expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
      },
    );
  });
});
