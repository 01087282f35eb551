import { notifications as toasts } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { apiMessages, ui } from '../../shared/messages';
import type { Notification, NotificationsPage } from '../../shared/schemas/notifications';
import { TRANSACTION_DELETED_NOTE } from '../components/notification-target';
import { formatDateTime } from '../dates';
import { AppRoutes } from '../routes';
import { renderWithProviders } from '../test-utils/render';
import { signInAs, USER_ID, uuid } from '../test-utils/transactions';
import {
  deferred,
  type StubHandler,
  stubSubscription,
  stubTrpcClient,
  trpcError,
} from '../test-utils/trpc-stub';
import { Notifications } from './Notifications';

function notification(n: number, overrides: Partial<Notification> = {}): Notification {
  return {
    _id: uuid(900 + n),
    message: `Notification ${n}`,
    link: `/home/transactions/${uuid(n)}`,
    read: true,
    createdAt: `2025-03-0${n}T14:05:00.000Z`,
    transactionDeleted: false,
    ...overrides,
  };
}

function pageOf(rows: Notification[], total = rows.length): NotificationsPage {
  return {
    notifications: rows,
    totalPages: Math.max(1, Math.ceil(total / 10)),
    total,
    unread: rows.filter((row) => !row.read).length,
  };
}

function renderPage(handlers: Record<string, StubHandler>, options: { strictMode?: boolean } = {}) {
  signInAs('user');
  const stub = stubTrpcClient({ 'notifications.markAllRead': () => ({ message: 'ok' }), ...handlers });
  const view = renderWithProviders(<Notifications />, {
    path: '/notifications',
    trpcClient: stub.client,
    ...options,
  });
  return { ...view, stub };
}

const items = () => within(screen.getByRole('list', { name: 'Notifications' })).getAllByRole('listitem');
function item(index: number): HTMLElement {
  const found = items()[index];
  if (!found) throw new Error(`No notification at position ${index}`);
  return found;
}

afterEach(() => {
  toasts.clean();
});

describe('notifications page', () => {
  it('lists the messages newest first with their dates, each linking to its page, unread ones marked', async () => {
    const newest = notification(3, { message: 'Comment on 12 Ocean Avenue', read: false });
    const older = notification(2, { message: 'Document accepted', link: '/home/transactions/abc' });
    const oldest = notification(1, { message: 'Transaction created' });
    const { stub } = renderPage({ 'notifications.list': () => pageOf([newest, older, oldest]) });

    expect(screen.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    expect(screen.getByText(ui.loading)).toBeVisible();
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(stub.callsTo('notifications.list')).toEqual([{ userId: USER_ID, page: 1, limit: 10 }]);

    const [first, second, third] = [item(0), item(1), item(2)];
    expect(within(first).getByRole('link', { name: 'Comment on 12 Ocean Avenue' })).toHaveAttribute(
      'href',
      newest.link,
    );
    expect(within(first).getByText(formatDateTime(newest.createdAt))).toBeVisible();
    expect(within(first).getByText('New')).toBeVisible();
    expect(first).toHaveAttribute('data-unread');

    expect(within(second).getByRole('link', { name: 'Document accepted' })).toHaveAttribute(
      'href',
      '/home/transactions/abc',
    );
    expect(within(second).getByText(formatDateTime(older.createdAt))).toBeVisible();
    expect(within(second).queryByText('New')).not.toBeInTheDocument();
    expect(second).not.toHaveAttribute('data-unread');
    expect(within(third).getByText('Transaction created')).toBeVisible();
    expect(screen.queryByText(ui.loading)).not.toBeInTheDocument();
  });

  it("follows a notification's link", async () => {
    const { user, currentPath } = renderPage({
      'notifications.list': () =>
        pageOf([notification(1, { message: 'Open me', link: '/home/transactions/xyz' })]),
    });
    await user.click(await screen.findByRole('link', { name: 'Open me' }));
    expect(currentPath()).toBe('/home/transactions/xyz');
  });

  it('shows a link the server should not have sent as plain text', async () => {
    renderPage({
      'notifications.list': () =>
        pageOf([notification(1, { message: 'Elsewhere', link: '//evil.example/x' })]),
    });
    expect(await screen.findByText('Elsewhere')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Elsewhere' })).not.toBeInTheDocument();
  });

  it('keeps a notification whose transaction was deleted, says so, and offers no link to it', async () => {
    const { user, currentPath } = renderPage({
      'notifications.list': () =>
        pageOf([
          notification(2, { message: 'Comment on 9 Gone Street', transactionDeleted: true, read: false }),
          notification(1, { message: 'Comment on 1 Kept Road' }),
        ]),
    });
    await waitFor(() => expect(items()).toHaveLength(2));
    const gone = item(0);
    expect(within(gone).getByText('Comment on 9 Gone Street')).toBeVisible();
    expect(within(gone).getByText(TRANSACTION_DELETED_NOTE)).toBeVisible();
    expect(within(gone).queryByRole('link')).not.toBeInTheDocument();
    expect(within(gone).getByText('New')).toBeVisible();
    await user.click(within(gone).getByText('Comment on 9 Gone Street'));
    expect(currentPath()).toBe('/notifications');

    expect(within(item(1)).getByRole('link', { name: 'Comment on 1 Kept Road' })).toBeVisible();
    expect(within(item(1)).queryByText(TRANSACTION_DELETED_NOTE)).not.toBeInTheDocument();
  });

  it("says 'No new notifications' when there are none", async () => {
    renderPage({ 'notifications.list': () => pageOf([]) });
    expect(await screen.findByText(ui.noNotifications)).toBeVisible();
    expect(screen.queryByRole('list', { name: 'Notifications' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('pager-summary')).not.toBeInTheDocument();
  });

  it('marks everything read once per visit, after the list has loaded, without hiding what was new', async () => {
    const list = deferred<NotificationsPage>();
    const { stub, queryClient } = renderPage(
      {
        'notifications.list': () => list.promise,
      },
      { strictMode: true },
    );
    // Not before the list answered: the page first shows which ones were unread.
    await waitFor(() => expect(stub.callsTo('notifications.list').length).toBeGreaterThan(0));
    expect(stub.callsTo('notifications.markAllRead')).toEqual([]);

    list.resolve(pageOf([notification(2, { read: false }), notification(1)]));
    await waitFor(() => expect(stub.callsTo('notifications.markAllRead')).toEqual([{ userId: USER_ID }]));
    // The cached pages are stale now (the shell and the next visit load them as read)...
    await waitFor(() =>
      expect(
        queryClient
          .getQueryCache()
          .getAll()
          .filter((query) => JSON.stringify(query.queryKey).includes('notifications'))
          .every((query) => query.isStale()),
      ).toBe(true),
    );
    // ...while this visit still marks the one that was new.
    expect(within(item(0)).getByText('New')).toBeVisible();
    expect(stub.callsTo('notifications.markAllRead')).toHaveLength(1);
  });

  it('does not mark anything read when the list cannot be loaded, and offers a retry', async () => {
    let fail = true;
    const { stub, user } = renderPage({
      'notifications.list': () => {
        if (fail) throw trpcError(500, apiMessages.internal);
        return pageOf([notification(1, { message: 'Back again' })]);
      },
    });
    expect(await screen.findByText('Could not load notifications')).toBeVisible();
    expect(screen.getByText(apiMessages.internal)).toBeVisible();
    expect(stub.callsTo('notifications.markAllRead')).toEqual([]);

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Back again')).toBeVisible();
    await waitFor(() => expect(stub.callsTo('notifications.markAllRead')).toHaveLength(1));
  });

  it('pages through older notifications with the pager', async () => {
    const firstPage = Array.from({ length: 10 }, (_, i) =>
      notification(1, { _id: uuid(950 + i), message: `Row ${i + 1}` }),
    );
    const { user, stub } = renderPage({
      'notifications.list': (input) =>
        (input as { page: number }).page === 1
          ? pageOf(firstPage, 12)
          : pageOf([notification(1, { _id: uuid(970), message: 'Row 11' })], 12),
    });
    await waitFor(() => expect(items()).toHaveLength(10));
    expect(screen.getByTestId('pager-summary')).toHaveTextContent('Showing 1 to 10 of 12 results');

    await user.click(screen.getByRole('button', { name: 'Page 2' }));

    expect(await screen.findByText('Row 11')).toBeVisible();
    expect(screen.getByTestId('pager-summary')).toHaveTextContent('Showing 11 to 12 of 12 results');
    expect(stub.callsTo('notifications.list').at(-1)).toEqual({ userId: USER_ID, page: 2, limit: 10 });
    // One visit, one mark, whichever pages are looked at.
    expect(stub.callsTo('notifications.markAllRead')).toHaveLength(1);
  });

  it('inside the shell, opening the page clears the dot the server count had lit', async () => {
    signInAs('user');
    const stub = stubTrpcClient({
      'settings.getUser': () => new Promise(() => {}),
      'notifications.list': () => pageOf([notification(1, { read: false })]),
      'notifications.markAllRead': () => ({ message: 'ok' }),
      'notifications.onNotification': stubSubscription().handler,
    });
    renderWithProviders(<AppRoutes />, { path: '/notifications', trpcClient: stub.client });
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    await waitFor(() => expect(stub.callsTo('notifications.markAllRead')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Notifications' })).not.toHaveAttribute('data-unread');
  });
});
