import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../shared/constants';
import { ui } from '../shared/messages';
import { AppRoutes } from './routes';
import { renderWithProviders } from './test-utils/render';

describe('routes', () => {
  it('sends / to sign-in when no user id is stored', async () => {
    const { history } = renderWithProviders(<AppRoutes />, { path: '/' });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeVisible();
    // Replaced, not pushed: Back must not return to / and bounce forward again.
    expect(history).toEqual(['/auth/login']);
  });

  it('sends / to /home when a user id is stored', async () => {
    window.localStorage.setItem(STORAGE_KEYS.userId, 'f3a1c2d4-0000-4000-8000-000000000001');
    const { history } = renderWithProviders(<AppRoutes />, { path: '/' });
    expect(await screen.findByRole('heading', { name: 'Transactions' })).toBeVisible();
    expect(history).toEqual(['/home']);
    expect(screen.queryByRole('heading', { name: 'Sign in' })).not.toBeInTheDocument();
  });

  it('ignores an access token without a user id (the spec keys on the user id)', async () => {
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'header.payload.signature');
    const { history } = renderWithProviders(<AppRoutes />, { path: '/' });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(history).toEqual(['/auth/login']);
  });

  it.each(['/no-such-page', '/auth/nope', '/home/extra/segments', '/not-found'])(
    'shows the 404 page at %s without changing the URL',
    (path) => {
      const { history } = renderWithProviders(<AppRoutes />, { path });
      expect(screen.getByText(ui.notFound)).toBeVisible();
      expect(history).toEqual([path]);
    },
  );

  it('does not show the 404 page on a known route', () => {
    renderWithProviders(<AppRoutes />, { path: '/home' });
    expect(screen.getByRole('heading', { name: 'Transactions' })).toBeVisible();
    expect(screen.queryByText(ui.notFound)).not.toBeInTheDocument();
  });
});
