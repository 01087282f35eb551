import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiMessages } from '../../shared/messages';
import { sessionRefresher } from '../auth/refresh';
import { TRANSACTION_DELETED_NOTE } from '../components/notification-target';
import { listOf, notification, renderShell, subscribed } from '../test-utils/notification-feed';
import { USER_ID, uuid } from '../test-utils/transactions';
import { trpcError } from '../test-utils/trpc-stub';

const bell = () => screen.getByRole('button', { name: 'Notifications' });

afterEach(() => {
  vi.restoreAllMocks();
  // The toast store outlives a test's render.
  notifications.clean();
});

describe('live notifications in the shell', () => {
  it('lights the bell and shows a toast with the message when an event arrives, and refreshes the list', async () => {
    const { feed, stub } = renderShell('/tutorials');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tutorials' })).toBeVisible();
    await subscribed(feed);
    // A plain first subscription: the server starts from now.
    expect(feed.inputs).toEqual([undefined]);
    await waitFor(() =>
      expect(stub.callsTo('notifications.list')).toEqual([{ userId: USER_ID, page: 1, limit: 10 }]),
    );
    expect(bell()).not.toHaveAttribute('data-unread');

    act(() => feed.emit({ id: uuid(901), data: notification(1, { message: 'Your document was accepted' }) }));

    expect(bell()).toHaveAttribute('data-unread');
    expect(bell()).toHaveAccessibleDescription('New notifications');
    const toast = (await screen.findByText('Your document was accepted')).closest(
      '.mantine-Notification-root',
    );
    expect(toast).not.toBeNull();
    expect(within(toast as HTMLElement).getByText('New notification')).toBeVisible();
    await waitFor(() => expect(stub.callsTo('notifications.list')).toHaveLength(2));
  });

  it("opens the notification's link from its toast", async () => {
    const { feed, currentPath, user } = renderShell('/tutorials');
    await subscribed(feed);
    const link = `/home/transactions/${uuid(7)}`;
    act(() => feed.emit({ id: uuid(907), data: notification(7, { link }) }));
    await user.click(await screen.findByRole('button', { name: 'View' }));
    expect(currentPath()).toBe(link);
  });

  it('a live notification whose transaction was deleted says so and offers no View', async () => {
    const { feed } = renderShell('/tutorials');
    await subscribed(feed);
    act(() =>
      feed.emit({
        id: uuid(908),
        data: notification(8, { message: 'Comment on 9 Gone Street', transactionDeleted: true }),
      }),
    );
    const toast = (await screen.findByText('Comment on 9 Gone Street')).closest('.mantine-Notification-root');
    expect(toast).not.toBeNull();
    expect(within(toast as HTMLElement).getByText(TRANSACTION_DELETED_NOTE)).toBeVisible();
    expect(within(toast as HTMLElement).queryByRole('button', { name: 'View' })).not.toBeInTheDocument();
    expect(bell()).toHaveAttribute('data-unread');
  });

  it('clears the dot when the bell is clicked and goes to /notifications', async () => {
    const { feed, user, currentPath } = renderShell('/tutorials');
    await subscribed(feed);
    act(() => feed.emit({ id: uuid(901), data: notification(1) }));
    expect(bell()).toHaveAttribute('data-unread');

    await user.click(bell());

    expect(currentPath()).toBe('/notifications');
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    expect(bell()).not.toHaveAttribute('data-unread');
    expect(bell()).not.toHaveAccessibleDescription();
  });

  it('clears the dot from the bell of the slide-over menu too', async () => {
    const { feed, user, currentPath } = renderShell('/tutorials');
    await subscribed(feed);
    act(() => feed.emit({ id: uuid(901), data: notification(1) }));
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    const menu = await screen.findByRole('dialog');
    const menuBell = within(menu).getByRole('button', { name: 'Notifications' });
    expect(menuBell).toHaveAttribute('data-unread');

    await user.click(menuBell);

    expect(currentPath()).toBe('/notifications');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bell()).not.toHaveAttribute('data-unread');
  });

  it('shows the dot on load when the server still counts unread notifications', async () => {
    renderShell('/tutorials', { 'notifications.list': () => listOf([notification(1)], 1) });
    await waitFor(() => expect(bell()).toHaveAttribute('data-unread'));
  });

  it('shows no dot on load when everything is read', async () => {
    const { stub } = renderShell('/tutorials', {
      'notifications.list': () => listOf([notification(1, { read: true })], 0),
    });
    await waitFor(() => expect(stub.callsTo('notifications.list')).toHaveLength(1));
    await screen.findByText('Welcome Dana');
    expect(bell()).not.toHaveAttribute('data-unread');
  });

  it('after a refused subscription (401) refreshes the session and subscribes again, resuming after the last event', async () => {
    const recover = vi.spyOn(sessionRefresher, 'recover').mockResolvedValue(true);
    const { feed } = renderShell('/tutorials');
    await subscribed(feed);
    act(() => feed.emit({ id: uuid(903), data: notification(3) }));

    act(() => feed.fail(trpcError(401, apiMessages.sessionInvalid)));

    await waitFor(() => expect(feed.inputs).toHaveLength(2));
    expect(recover).toHaveBeenCalledExactlyOnceWith('refresh');
    expect(feed.inputs[1]).toEqual({ lastEventId: uuid(903) });
    await subscribed(feed, 2);
    // The new subscription delivers as the first did.
    act(() => feed.emit({ id: uuid(904), data: notification(4, { message: 'After the refresh' }) }));
    expect(await screen.findByText('After the refresh')).toBeVisible();
  });

  it('does not subscribe again when the refresh fails (the refresher has ended the session)', async () => {
    const recover = vi.spyOn(sessionRefresher, 'recover').mockResolvedValue(false);
    const { feed } = renderShell('/tutorials');
    await subscribed(feed);

    act(() => feed.fail(trpcError(401, apiMessages.sessionInvalid)));

    await waitFor(() => expect(recover).toHaveBeenCalledOnce());
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(feed.inputs).toHaveLength(1);
    expect(feed.open()).toBe(0);
  });

  it('leaves other subscription errors alone: no refresh, no message', async () => {
    const recover = vi.spyOn(sessionRefresher, 'recover');
    const { feed } = renderShell('/tutorials');
    await subscribed(feed);

    act(() => feed.fail(trpcError(500, apiMessages.internal)));

    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(recover).not.toHaveBeenCalled();
    expect(screen.queryByText(apiMessages.internal)).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Tutorials' })).toBeVisible();
  });

  it('keeps the shell working when notifications cannot be loaded at all', async () => {
    const { stub } = renderShell('/tutorials', {
      'notifications.list': () => {
        throw trpcError(500, apiMessages.internal);
      },
      'notifications.onNotification': () => {
        throw trpcError(503, apiMessages.serviceUnavailable);
      },
    });
    await waitFor(() => expect(stub.callsTo('notifications.onNotification')).toHaveLength(1));
    await waitFor(() => expect(stub.callsTo('notifications.list')).toHaveLength(1));
    expect(await screen.findByText('Welcome Dana')).toBeVisible();
    expect(bell()).not.toHaveAttribute('data-unread');
    expect(screen.queryByText(apiMessages.internal)).not.toBeInTheDocument();
  });
});
