import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../shared/constants';
import { oidcMessages } from '../../shared/oidc-messages';
import { renderWithProviders } from '../test-utils/render';
import { stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { SsoLanding } from './SsoLanding';

const USER_ID = 'f3a1c2d4-0000-4000-8000-000000000001';
const session = { token: 'access.jwt.token', refreshToken: 'opaque-refresh', _id: USER_ID };

/** The address the provider's callback sent the browser to. */
function landAt(fragment: string, exchange: (input: unknown) => unknown) {
  window.history.replaceState(null, '', `/auth/sso${fragment}`);
  const stub = stubTrpcClient({ 'oidc.exchange': exchange });
  const view = renderWithProviders(<SsoLanding />, {
    path: '/auth/sso',
    trpcClient: stub.client,
    strictMode: true,
  });
  return { ...view, stub };
}

afterEach(() => {
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('the single sign-on landing page', () => {
  it('trades the code once, stores the session, removes the code from the address and opens the page asked for', async () => {
    const { stub, currentPath } = landAt('#code=one-time-code&next=%2Fsettings', () => session);
    await waitFor(() => expect(currentPath()).toBe('/settings'));
    expect(stub.callsTo('oidc.exchange')).toEqual([{ code: 'one-time-code' }]);
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('opaque-refresh');
    expect(window.location.hash).toBe('');
  });

  it('goes home when the page to return to would leave the site', async () => {
    const { currentPath } = landAt('#code=c&next=%2F%2Fevil.example', () => session);
    await waitFor(() => expect(currentPath()).toBe('/home'));
  });

  it("returns to the sign-in page with the server's refusal", async () => {
    const { currentPath, historyState } = landAt('#code=c', () => {
      throw trpcError(403, 'No account for sam@example.com');
    });
    await waitFor(() => expect(currentPath()).toBe('/auth/login'));
    expect(historyState()).toEqual({ ssoError: 'No account for sam@example.com' });
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
  });

  it('without a code, says the link is not valid on the sign-in page', async () => {
    const { currentPath, historyState, stub } = landAt('', () => session);
    await waitFor(() => expect(currentPath()).toBe('/auth/login'));
    expect(historyState()).toEqual({ ssoError: oidcMessages.linkInvalid });
    expect(stub.calls).toEqual([]);
  });
});
