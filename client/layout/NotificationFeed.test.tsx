import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiMessages } from '../../shared/messages';
import type { Notification, NotificationsPage } from '../../shared/schemas/notifications';
import { sessionRefresher } from '../auth/refresh';
import { TRANSACTION_DELETED_NOTE } from '../components/notification-target';
import { AppRoutes } from '../routes';
import { renderWithProviders } from '../test-utils/render';
import {
  checklistForm,
  page,
  signInAs,
  summary,
  TRANSACTION_ID,
  transaction,
  USER_ID,
  uuid,
} from '../test-utils/transactions';
import { type StubHandler, stubSubscription, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { testProfile } from '../test-utils/users';

const profile = testProfile();

function notification(n: number, overrides: Partial<Notification> = {}): Notification {
  return {
    _id: uuid(900 + n),
    message: `Notification ${n}`,
    link: `/home/transactions/${uuid(n)}`,
    read: false,
    createdAt: '2025-03-04T14:05:00.000Z',
    transactionDeleted: false,
    ...overrides,
  };
}

function listOf(rows: Notification[], unread = rows.filter((row) => !row.read).length): NotificationsPage {
  return { notifications: rows, totalPages: 1, total: rows.length, unread };
}

type FeedEvent = { id: string; data: Notification };

function renderShell(path: string, handlers: Record<string, StubHandler> = {}) {
  signInAs('user');
  const feed = stubSubscription<FeedEvent>();
  const stub = stubTrpcClient({
    'settings.getUser': () => profile,
    'notifications.list': () => listOf([]),
    'notifications.markAllRead': () => ({ message: 'ok' }),
    'notifications.onNotification': feed.handler,
    ...handlers,
  });
  const view = renderWithProviders(<AppRoutes />, { path, trpcClient: stub.client });
  return { ...view, stub, feed };
}

const bell = () => screen.getByRole('button', { name: 'Notifications' });

async function subscribed(feed: ReturnType<typeof stubSubscription<FeedEvent>>, count = 1) {
  await waitFor(() => expect(feed.open()).toBe(1));
  expect(feed.inputs).toHaveLength(count);
}

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

  it('updates the open transaction page when an event arrives, without a reload', async () => {
    // The server's answer changes between loads: the admin has just rejected the document.
    let status: 'pending' | 'rejected' = 'pending';
    const { feed } = renderShell(`/home/transactions/${TRANSACTION_ID}`, {
      'transactions.get': () => transaction({ forms: [checklistForm(1, { label: 'Disclosure', status })] }),
    });
    const badge = () => within(screen.getByTestId('form-Disclosure')).getByTestId('form-status');
    await waitFor(() => expect(badge()).toHaveTextContent(/^Pending$/));
    await subscribed(feed);

    status = 'rejected';
    act(() =>
      feed.emit({ id: uuid(905), data: notification(5, { link: `/home/transactions/${TRANSACTION_ID}` }) }),
    );

    await waitFor(() => expect(badge()).toHaveTextContent(/^Rejected$/));
  });

  it('updates the open list of transactions when an event arrives', async () => {
    let rows = [summary(1, { streetAddress: '1 First Street' })];
    const { feed, stub } = renderShell('/home', { 'transactions.list': () => page(rows) });
    expect(await screen.findByText(/1 First Street/)).toBeVisible();
    await subscribed(feed);
    const loads = stub.callsTo('transactions.list').length;

    rows = [summary(2, { streetAddress: '2 Second Street' }), ...rows];
    act(() => feed.emit({ id: uuid(906), data: notification(6) }));

    expect(await screen.findByText(/2 Second Street/)).toBeVisible();
    expect(stub.callsTo('transactions.list').length).toBeGreaterThan(loads);
  });

  it("opens the notification's link from its toast", async () => {
    const { feed, currentPath, user } = renderShell('/tutorials');
    await subscribed(feed);
    const link = `/home/transactions/${uuid(7)}`;
    act(() => feed.emit({ id: uuid(907), data: notification(7, { link }) }));
    await user.click(await screen.findByRole('button', { name: 'View' }));
    expect(currentPath()).toBe(link);
  });

  it('a live notification whose transaction was deleted says so and offers no View (issue 17)', async () => {
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
