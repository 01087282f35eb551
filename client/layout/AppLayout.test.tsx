import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../shared/constants';
import { apiMessages } from '../../shared/messages';
import { setSession } from '../auth/session';
import { PHONE_QUERY } from '../breakpoints';
import { AppRoutes } from '../routes';
import { deviceMatching } from '../test-utils/media';
import { renderWithProviders } from '../test-utils/render';
import { fakeAccessToken } from '../test-utils/tokens';
import { deferred, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { TEST_USER_ID, testProfile } from '../test-utils/users';
import { NotificationBell } from './NotificationBell';

const USER_ID = TEST_USER_ID;
const profile = testProfile();

const USER_LINKS = ['Transactions', 'Calendar', 'Forms', 'Tutorials', 'Banner', 'Settings'];
const ADMIN_LINKS = [
  'Users',
  'Offices',
  'Review Queue',
  'Admin Transactions',
  'Transactions Forms',
  'Commission Plans',
  'API Keys',
  'Webhooks',
];

function signIn(role: 'user' | 'admin', claims: Record<string, unknown> = {}) {
  setSession({
    accessToken: fakeAccessToken({ sub: USER_ID, role, ...claims }),
    refreshToken: 'stored-refresh',
    userId: USER_ID,
  });
}

function renderShell(path: string, handlers: Parameters<typeof stubTrpcClient>[0]) {
  const stub = stubTrpcClient(handlers);
  const view = renderWithProviders(<AppRoutes />, { path, trpcClient: stub.client });
  return { ...view, stub };
}

const mainNavigation = () => within(screen.getByRole('navigation', { name: 'Main' }));
const linkNames = () =>
  mainNavigation()
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('application shell', () => {
  it('starts with a link that skips the navigation to the page itself', async () => {
    signIn('user');
    const { user } = renderShell('/home', { 'settings.getUser': () => new Promise(() => {}) });
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    const target = document.getElementById((skip.getAttribute('href') ?? '').slice(1));
    expect(target).not.toBeNull();
    expect(target).toHaveAttribute('tabindex', '-1');
    // The page's chunk is compiled on its first import in this file: slow on a loaded machine.
    const heading = await screen.findByRole(
      'heading',
      { level: 1, name: 'Transactions' },
      { timeout: 5_000 },
    );
    expect(target).toContainElement(heading);
  });

  it('greets the user by first name, fetched for the stored user id; a placeholder, not a name, until then', async () => {
    signIn('user');
    const answer = deferred();
    const { stub } = renderShell('/home', { 'settings.getUser': () => answer.promise });
    // 'Welcome User' while the name loads greeted everybody by the wrong name.
    expect(screen.getByTestId('welcome-name-placeholder')).toBeInTheDocument();
    expect(screen.queryByText('Welcome User')).not.toBeInTheDocument();
    expect(screen.queryByText(/^Welcome /)).not.toBeInTheDocument();
    answer.resolve(profile);
    expect(await screen.findByText('Welcome Dana')).toBeVisible();
    expect(screen.queryByTestId('welcome-name-placeholder')).not.toBeInTheDocument();
    expect(stub.callsTo('settings.getUser')).toEqual([{ userId: USER_ID }]);
  });

  it("says 'Welcome User' when the profile has no first name", async () => {
    signIn('user');
    renderShell('/home', { 'settings.getUser': () => ({ ...profile, firstName: '' }) });
    expect(await screen.findByText('Welcome User')).toBeVisible();
  });

  it("keeps 'User' when the profile cannot be loaded", async () => {
    signIn('user');
    const { stub } = renderShell('/home', {
      'settings.getUser': () => {
        throw trpcError(404, apiMessages.notFound);
      },
    });
    await waitFor(() => expect(stub.callsTo('settings.getUser')).toHaveLength(1));
    expect(await screen.findByText('Welcome User')).toBeVisible();
  });

  it('shows the user navigation for a user token, with the current page marked', () => {
    signIn('user');
    renderShell('/forms', { 'settings.getUser': () => profile });
    expect(linkNames()).toEqual(USER_LINKS);
    expect(mainNavigation().getByRole('link', { name: 'Transactions' })).toHaveAttribute('href', '/home');
    expect(mainNavigation().getByRole('link', { name: 'Forms' })).toHaveAttribute('aria-current', 'page');
    expect(mainNavigation().getByRole('link', { name: 'Transactions' })).not.toHaveAttribute('aria-current');
  });

  it('adds the admin links for an admin token, and Audit once the profile shows no office', async () => {
    signIn('admin');
    renderShell('/home', { 'settings.getUser': () => ({ ...profile, role: 'admin' }) });
    await waitFor(() => expect(linkNames()).toEqual(['Dashboard', ...USER_LINKS, ...ADMIN_LINKS, 'Audit']));
    expect(mainNavigation().getByRole('link', { name: 'Audit' })).toHaveAttribute('href', '/admin/audit');
    expect(mainNavigation().getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'href',
      '/admin/dashboard',
    );
    expect(mainNavigation().getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/users');
    expect(mainNavigation().getByRole('link', { name: 'Review Queue' })).toHaveAttribute(
      'href',
      '/admin/review',
    );
    expect(mainNavigation().getByRole('link', { name: 'Admin Transactions' })).toHaveAttribute(
      'href',
      '/adminTransactions',
    );
    expect(mainNavigation().getByRole('link', { name: 'Transactions Forms' })).toHaveAttribute(
      'href',
      '/admin/forms/transactions/view',
    );
  });

  it('leaves the Audit page out for an office admin, and offers it to an owner in an office', async () => {
    const office = '0b9e6a52-1111-4111-8111-0000000000f1';
    signIn('admin', { off: office });
    const view = renderShell('/home', {
      'settings.getUser': () => ({ ...profile, role: 'admin', officeId: office }),
    });
    await screen.findByText(`Welcome ${profile.firstName}`);
    expect(linkNames()).toEqual(['Dashboard', ...USER_LINKS, ...ADMIN_LINKS]);
    view.unmount();
    renderShell('/home', {
      'settings.getUser': () => ({ ...profile, role: 'admin', officeId: office, isOwner: true }),
    });
    await waitFor(() => expect(linkNames()).toEqual(['Dashboard', ...USER_LINKS, ...ADMIN_LINKS, 'Audit']));
  });

  it('shows the user navigation when the stored token cannot be read, and logs it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    signIn('user');
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'not-a-jwt');
    renderShell('/home', { 'settings.getUser': () => profile });
    expect(linkNames()).toEqual(USER_LINKS);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it('navigates from the sidebar and from the bell', async () => {
    signIn('user');
    const { user, currentPath } = renderShell('/home', { 'settings.getUser': () => profile });
    await user.click(mainNavigation().getByRole('link', { name: 'Tutorials' }));
    expect(currentPath()).toBe('/tutorials');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tutorials' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(currentPath()).toBe('/notifications');
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  });

  it('logs out: revokes the refresh token, then clears storage and cache and goes to sign-in', async () => {
    signIn('user');
    const revoke = deferred();
    const { user, stub, currentPath, queryClient } = renderShell('/home', {
      'settings.getUser': () => profile,
      'auth.logout': () => revoke.promise,
    });
    expect(await screen.findByText('Welcome Dana')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(stub.callsTo('auth.logout')).toEqual([{ refreshToken: 'stored-refresh' }]);
    // Still here until the server has revoked the token, so it is dead once sign-in shows.
    expect(screen.getByRole('button', { name: 'Logout' })).toBeDisabled();
    expect(window.localStorage.getItem(STORAGE_KEYS.userId)).toBe(USER_ID);

    revoke.resolve(undefined);
    await waitFor(() => expect(currentPath()).toBe('/auth/login'));
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    for (const key of Object.values(STORAGE_KEYS)) expect(window.localStorage.getItem(key)).toBeNull();
    // Nothing of the session is left: only what the sign-in page asked for itself since (whether
    // single sign-on is offered, a public answer).
    const left = queryClient
      .getQueryCache()
      .getAll()
      .map((query) => JSON.stringify(query.queryKey[0]));
    expect(left.filter((key) => key !== '["oidc","status"]')).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it('logs out even when the server refuses to revoke', async () => {
    signIn('user');
    const { user, currentPath } = renderShell('/home', {
      'settings.getUser': () => profile,
      'auth.logout': () => {
        throw trpcError(500, apiMessages.internal);
      },
    });
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(currentPath()).toBe('/auth/login'));
    expect(window.localStorage.getItem(STORAGE_KEYS.userId)).toBeNull();
  });

  it('logs out even when the server does not answer', async () => {
    signIn('user');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { currentPath } = renderShell('/home', {
        'settings.getUser': () => profile,
        'auth.logout': () => new Promise(() => {}),
      });
      fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(currentPath()).toBe('/home');
      await act(() => vi.advanceTimersByTimeAsync(5000));
      expect(currentPath()).toBe('/auth/login');
      expect(window.localStorage.getItem(STORAGE_KEYS.userId)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens the same navigation in a slide-over menu, which closes on navigation', async () => {
    signIn('user');
    const { user, currentPath } = renderShell('/home', { 'settings.getUser': () => profile });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    const menu = await screen.findByRole('dialog');
    expect(within(menu).getByText(/^Welcome /)).toBeVisible();
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(USER_LINKS);
    expect(within(menu).getByRole('button', { name: 'Logout' })).toBeVisible();
    await user.click(within(menu).getByRole('link', { name: 'Settings' }));
    expect(currentPath()).toBe('/settings');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('on a phone', () => {
  beforeEach(() => deviceMatching(PHONE_QUERY));
  afterEach(() => vi.restoreAllMocks());

  it("the top bar holds the bell with the feed's dot; opening it clears the dot and shows the notifications", async () => {
    signIn('user');
    const { user, currentPath } = renderShell('/home', {
      'settings.getUser': () => profile,
      'notifications.list': () => ({
        notifications: [
          {
            _id: '00000000-0000-4000-8000-000000000901',
            message: 'Your form was rejected',
            link: '/home',
            read: false,
            createdAt: '2025-03-04T14:05:00.000Z',
          },
        ],
        totalPages: 1,
        total: 1,
        unread: 1,
      }),
      'notifications.markAllRead': () => ({ message: 'ok' }),
    });
    const topBar = within(screen.getByTestId('top-bar'));
    const bell = topBar.getByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(bell).toHaveAttribute('data-unread'));
    expect(bell).toHaveAccessibleDescription('New notifications');

    await user.click(bell);
    expect(currentPath()).toBe('/notifications');
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    expect(topBar.getByRole('button', { name: 'Notifications' })).not.toHaveAttribute('data-unread');
  });
});

describe('on a wide screen', () => {
  it('the top bar (hidden there) has no second bell: the sidebar has the one', () => {
    signIn('user');
    renderShell('/home', { 'settings.getUser': () => profile });
    expect(within(screen.getByTestId('top-bar')).queryByRole('button', { name: 'Notifications' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Notifications' })).toHaveLength(1);
  });
});

describe('notification bell', () => {
  it('has no dot while nothing is unread', () => {
    const { container } = renderWithProviders(<NotificationBell hasUnread={false} onOpen={() => {}} />);
    const bell = screen.getByRole('button', { name: 'Notifications' });
    expect(bell).not.toHaveAttribute('data-unread');
    expect(bell).not.toHaveAccessibleDescription();
    expect(container.querySelector('.mantine-Indicator-indicator')).toBeNull();
  });

  it('shows a pulsing red dot, announced to screen readers, when something is unread', () => {
    const { container } = renderWithProviders(<NotificationBell hasUnread onOpen={() => {}} />);
    const bell = screen.getByRole('button', { name: 'Notifications' });
    expect(bell).toHaveAttribute('data-unread');
    expect(bell).toHaveAccessibleDescription('New notifications');
    const dot = container.querySelector('.mantine-Indicator-indicator');
    expect(dot).not.toBeNull();
    expect(dot).toHaveAttribute('data-processing');
  });
});
