import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test-utils/render';
import { stubTrpcClient } from '../../test-utils/trpc-stub';
import { SsoButton } from './SsoButton';

function renderButton(status: { enabled: boolean; name: string }, path = '/auth/login') {
  const stub = stubTrpcClient({ 'oidc.status': () => status });
  return renderWithProviders(<SsoButton />, { path, trpcClient: stub.client });
}

describe('the single sign-on button', () => {
  it('links to the provider with the page to return to, named after OIDC_NAME', async () => {
    renderButton({ enabled: true, name: 'Okta' }, '/auth/login?next=%2Fsettings');
    const link = await screen.findByRole('link', { name: 'Sign in with Okta' });
    expect(link).toHaveAttribute('href', '/api/auth/oidc/start?returnTo=%2Fsettings');
  });

  it('returns to /home by default, and shows nothing when single sign-on is not set up', async () => {
    const { unmount } = renderButton({ enabled: true, name: 'Okta' });
    expect(await screen.findByRole('link', { name: 'Sign in with Okta' })).toHaveAttribute(
      'href',
      '/api/auth/oidc/start',
    );
    unmount();
    renderButton({ enabled: false, name: '' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('link')).toBeNull();
  });

  it("shows the refusal the landing page brought back in this history entry's state", async () => {
    window.history.replaceState({ ssoError: 'No account for sam@example.com' }, '', '/auth/login');
    renderButton({ enabled: true, name: 'Okta' });
    expect(await screen.findByRole('alert')).toHaveTextContent('No account for sam@example.com');
    window.history.replaceState(null, '', '/');
  });
});
