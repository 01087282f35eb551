import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notification, renderShell, subscribed } from '../test-utils/notification-feed';
import { checklistForm, page, summary, TRANSACTION_ID, transaction, uuid } from '../test-utils/transactions';

afterEach(() => {
  vi.restoreAllMocks();
  // The toast store outlives a test's render.
  notifications.clean();
});

/**
 * Each live event refetches what the open page shows, so it follows without a reload: the
 * transaction and the lists.
 */
describe('the open page follows live events', () => {
  it('updates the open transaction page when an event arrives, without a reload', async () => {
    // The server's answer changes between loads: the admin has just rejected the document.
    let status: 'pending' | 'rejected' = 'pending';
    const { feed } = renderShell(`/home/transactions/${TRANSACTION_ID}`, {
      'transactions.get': () => transaction({ forms: [checklistForm(1, { label: 'Disclosure', status })] }),
    });
    const badge = () => within(screen.getByTestId('form-Disclosure')).getByTestId('form-status');
    await waitFor(() => expect(badge()).toHaveTextContent(/^pending$/));
    await subscribed(feed);

    status = 'rejected';
    act(() =>
      feed.emit({ id: uuid(905), data: notification(5, { link: `/home/transactions/${TRANSACTION_ID}` }) }),
    );

    await waitFor(() => expect(badge()).toHaveTextContent(/^rejected$/));
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
});
