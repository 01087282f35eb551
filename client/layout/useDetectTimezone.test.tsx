import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearSession } from '../auth/session';
import { renderWithProviders } from '../test-utils/render';
import { signInAs } from '../test-utils/transactions';
import { stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { useDetectTimezone } from './useDetectTimezone';

function Probe() {
  useDetectTimezone();
  return null;
}

const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

beforeEach(() => window.sessionStorage.clear());
afterEach(() => window.sessionStorage.clear());

describe('useDetectTimezone', () => {
  it("sends the browser's zone once per session after sign-in, even under StrictMode", async () => {
    signInAs('user');
    const stub = stubTrpcClient({ 'notificationSettings.detectTimezone': () => ({}) });
    const first = renderWithProviders(<Probe />, { trpcClient: stub.client, strictMode: true });
    await waitFor(() => expect(stub.callsTo('notificationSettings.detectTimezone')).toHaveLength(1));
    expect(stub.callsTo('notificationSettings.detectTimezone')).toEqual([{ timezone: browserZone }]);
    first.unmount();

    // Another page of the same session (the shell mounted again): nothing more.
    renderWithProviders(<Probe />, { trpcClient: stub.client });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stub.callsTo('notificationSettings.detectTimezone')).toHaveLength(1);
  });

  it('tries again on the next load when the call failed, and sends nothing while signed out', async () => {
    clearSession();
    const stub = stubTrpcClient({
      'notificationSettings.detectTimezone': () => {
        throw trpcError(503, 'Service unavailable');
      },
    });
    const signedOut = renderWithProviders(<Probe />, { trpcClient: stub.client });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stub.calls).toEqual([]);
    signedOut.unmount();

    signInAs('admin');
    const failing = renderWithProviders(<Probe />, { trpcClient: stub.client });
    await waitFor(() => expect(stub.callsTo('notificationSettings.detectTimezone')).toHaveLength(1));
    await waitFor(() => expect(window.sessionStorage.length).toBe(0));
    failing.unmount();
    renderWithProviders(<Probe />, { trpcClient: stub.client });
    await waitFor(() => expect(stub.callsTo('notificationSettings.detectTimezone')).toHaveLength(2));
  });
});
