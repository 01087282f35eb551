import { waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { Notification, NotificationsPage } from '../../shared/schemas/notifications';
import { AppRoutes } from '../routes';
import { renderWithProviders } from './render';
import { signInAs, uuid } from './transactions';
import { type StubHandler, stubSubscription, stubTrpcClient } from './trpc-stub';
import { testProfile } from './users';

/** The signed-in shell with its live notification stream, driven by the test. */

export function notification(n: number, overrides: Partial<Notification> = {}): Notification {
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

export function listOf(
  rows: Notification[],
  unread = rows.filter((row) => !row.read).length,
): NotificationsPage {
  return { notifications: rows, totalPages: 1, total: rows.length, unread };
}

/** One event as the client receives a `tracked(id, notification)` of the server. */
export type FeedEvent = { id: string; data: Notification };

/** The whole app at `path`, signed in as `role`, with `feed` to emit live events. */
export function renderShell(
  path: string,
  handlers: Record<string, StubHandler> = {},
  role: 'user' | 'admin' = 'user',
) {
  signInAs(role);
  const feed = stubSubscription<FeedEvent>();
  const stub = stubTrpcClient({
    'settings.getUser': () => testProfile({ role }),
    'notifications.list': () => listOf([]),
    'notifications.markAllRead': () => ({ message: 'ok' }),
    'notifications.onNotification': feed.handler,
    ...handlers,
  });
  const view = renderWithProviders(<AppRoutes />, { path, trpcClient: stub.client });
  return { ...view, stub, feed };
}

/** The shell has subscribed `count` times in all, and one subscription is open. */
export async function subscribed(feed: ReturnType<typeof stubSubscription<FeedEvent>>, count = 1) {
  await waitFor(() => expect(feed.open()).toBe(1));
  expect(feed.inputs).toHaveLength(count);
}
