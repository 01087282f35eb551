import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { setSession } from './auth/session';
import { LoadedPage, lazyPage, matchesPattern } from './lazy-page';
import { AppRoutes, preloadPageAt } from './routes';
import { renderWithProviders } from './test-utils/render';
import { fakeAccessToken } from './test-utils/tokens';
import { stubTrpcClient } from './test-utils/trpc-stub';

/**
 * Lazy pages with preload: a page whose code arrived before the first render
 * shows in that render, with no loader that React would keep on screen for 300 ms.
 */

function FirstPage() {
  return <h1>First page</h1>;
}
function SecondPage() {
  return <h1>Second page</h1>;
}

/** A page module that arrives when the test says so. */
function controlledPage(component: () => React.JSX.Element) {
  let arrive: () => void = () => {};
  const load = vi.fn(
    () =>
      new Promise<{ component: () => React.JSX.Element }>(
        (resolve) => (arrive = () => resolve({ component })),
      ),
  );
  return { page: lazyPage(load, (module) => module.component), load, arrive: () => arrive() };
}

function inSuspense(node: React.ReactNode) {
  return <Suspense fallback={<p>Loading page</p>}>{node}</Suspense>;
}

describe('lazyPage', () => {
  it('renders a preloaded page in the first render, without the fallback', async () => {
    const { page, arrive } = controlledPage(FirstPage);
    const preloaded = page.preload();
    arrive();
    await preloaded;
    render(inSuspense(<LoadedPage page={page} />));
    expect(screen.getByRole('heading', { name: 'First page' })).toBeVisible();
    expect(screen.queryByText('Loading page')).not.toBeInTheDocument();
  });

  it('suspends on a page that has not arrived, then shows it, loading its code once', async () => {
    const { page, load, arrive } = controlledPage(FirstPage);
    render(inSuspense(<LoadedPage page={page} />));
    expect(screen.getByText('Loading page')).toBeVisible();
    await act(async () => arrive());
    expect(await screen.findByRole('heading', { name: 'First page' })).toBeVisible();
    await page.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows the new page when the route changes at the same place in the tree', async () => {
    const first = controlledPage(FirstPage);
    const second = controlledPage(SecondPage);
    const loading = [first.page.preload(), second.page.preload()];
    first.arrive();
    second.arrive();
    await Promise.all(loading);
    const { rerender } = render(inSuspense(<LoadedPage page={first.page} />));
    expect(screen.getByRole('heading', { name: 'First page' })).toBeVisible();
    rerender(inSuspense(<LoadedPage page={second.page} />));
    expect(screen.getByRole('heading', { name: 'Second page' })).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'First page' })).not.toBeInTheDocument();
  });

  it('tries the network again after a failed load', async () => {
    const load = vi
      .fn<() => Promise<{ component: () => React.JSX.Element }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ component: FirstPage });
    const page = lazyPage(load, (module) => module.component);
    await expect(page.preload()).rejects.toThrow('offline');
    await page.preload();
    expect(load).toHaveBeenCalledTimes(2);
    expect(page.loaded).toBe(FirstPage);
  });
});

describe('matchesPattern', () => {
  it.each([
    ['/home', '/home', true],
    ['/home', '/home/', true],
    ['/home', '/HOME', true],
    ['/home', '/home/transactions/7', false],
    ['/home', '/homes', false],
    ['/home/transactions/:id', '/home/transactions/0b9e6a52-1111', true],
    ['/home/transactions/:id', '/home/transactions/', false],
    ['/admin/forms/transactions/view', '/admin/forms/transactions/view', true],
    ['/admin/forms/transactions/view', '/admin/forms/transactions/viewer', false],
  ])('%s against %s: %s', (pattern, pathname, expected) => {
    expect(matchesPattern(pattern, pathname)).toBe(expected);
  });
});

describe('preloadPageAt', () => {
  it('loads the page of the path so the app shows it in its first render', async () => {
    const userId = 'f3a1c2d4-0000-4000-8000-000000000001';
    setSession({ accessToken: fakeAccessToken({ sub: userId, role: 'user' }), refreshToken: 'r', userId });
    await preloadPageAt('/settings');
    const stub = stubTrpcClient({ 'settings.getUser': () => new Promise(() => {}) });
    renderWithProviders(<AppRoutes />, { path: '/settings', trpcClient: stub.client });
    expect(screen.getByRole('heading', { level: 1, name: 'Update Profile' })).toBeVisible();
    expect(screen.queryByLabelText('Loading page')).not.toBeInTheDocument();
  });

  it('resolves for a path without a lazy page', async () => {
    await expect(preloadPageAt('/auth/login')).resolves.toBeUndefined();
    await expect(preloadPageAt('/no-such-page')).resolves.toBeUndefined();
  });
});
