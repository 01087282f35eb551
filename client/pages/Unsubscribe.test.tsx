import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiMessages, notificationSettingsMessages } from '../../shared/messages';
import { AppRoutes } from '../routes';
import { renderWithProviders } from '../test-utils/render';
import { deferred, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';

const TOKEN = 'u1w2e3r4t5y6u7i8o9p0-_AbCdEf.GhIjKlMnOp';

function renderAt(token: string, handler: (input: unknown) => unknown) {
  const stub = stubTrpcClient({ 'notificationSettings.unsubscribe': handler });
  // Through the route table, signed out: the page is public and loads on demand.
  const view = renderWithProviders(<AppRoutes />, {
    path: `/unsubscribe/${token}`,
    trpcClient: stub.client,
    strictMode: true,
  });
  return { ...view, stub };
}

describe('Unsubscribe page', () => {
  it("posts the token once without signing in and shows the server's message", async () => {
    const answer = deferred();
    const { stub } = renderAt(TOKEN, () => answer.promise);
    expect(await screen.findByText('Updating your e-mail preferences...')).toBeVisible();
    const message = notificationSettingsMessages.unsubscribed('Comment');
    answer.resolve({ message, event: 'comment' });
    expect(
      await screen.findByText('You will no longer get e-mails for "Comment". It stays in the portal.'),
    ).toHaveAttribute('role', 'status');
    expect(stub.calls).toEqual([{ path: 'notificationSettings.unsubscribe', input: { token: TOKEN } }]);
    expect(screen.getByRole('link', { name: 'Notification settings' })).toHaveAttribute('href', '/settings');
  });

  it("shows the server's refusal of a bad link", async () => {
    renderAt('not-a-token', () => {
      throw trpcError(400, notificationSettingsMessages.unsubscribeInvalid);
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('This unsubscribe link is not valid');
  });

  it('says the service is unavailable, not that the link is bad, when no answer comes', async () => {
    renderAt(TOKEN, () => {
      throw new Error('Failed to fetch');
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(apiMessages.serviceUnavailable);
  });
});
