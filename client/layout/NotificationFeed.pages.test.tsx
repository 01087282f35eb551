import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AttentionAnswer } from '../../shared/schemas/dashboard';
import { dashboardFigures } from '../test-utils/dashboard';
import { notification, renderShell, subscribed } from '../test-utils/notification-feed';
import { queueItem, queuePage } from '../test-utils/review-queue';
import { checklistForm, page, summary, TRANSACTION_ID, transaction, uuid } from '../test-utils/transactions';

// recharts measures its box, which jsdom cannot (the dashboard's charts): a list stands in.
vi.mock('@mantine/charts', () => ({ BarChart: () => <ul data-testid="bar-chart" /> }));

/** The first sight of a page loaded on demand: its module can take seconds on a busy machine. */
const FIRST_LOAD = { timeout: 5_000 };

afterEach(() => {
  vi.restoreAllMocks();
  // The toast store outlives a test's render.
  notifications.clean();
});

/**
 * Each live event refetches what the open page shows, so it follows without a reload: the
 * transaction, the lists, the review queue, the dashboard and the agent's attention strip.
 */
describe('the open page follows live events', () => {
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

  it('updates the open review queue when an event arrives: its rows and its count', async () => {
    let items = [queueItem(1)];
    const { feed } = renderShell(
      '/admin/review',
      {
        'reviewQueue.list': () => queuePage(items),
        'templates.all': () => [],
        'users.list': () => ({ users: [], totalUsers: 0, totalPages: 1 }),
      },
      'admin',
    );
    expect(await screen.findByTestId('pager-summary', {}, FIRST_LOAD)).toHaveTextContent(
      'Showing 1 to 1 of 1 results',
    );
    await subscribed(feed);

    items = [queueItem(1), queueItem(2)];
    act(() =>
      feed.emit({ id: uuid(909), data: notification(9, { message: 'Dana Agent uploaded Document 2' }) }),
    );

    await waitFor(() =>
      expect(screen.getByTestId('pager-summary')).toHaveTextContent('Showing 1 to 2 of 2 results'),
    );
    expect(screen.getByText('Document 2')).toBeVisible();
  });

  it("updates the open dashboard's figures when an event arrives", async () => {
    let waiting = 4;
    const { feed } = renderShell(
      '/admin/dashboard',
      {
        'dashboard.figures': () =>
          dashboardFigures({
            queue: { size: waiting, oldestWaitingSeconds: 600, medianWaitingSeconds: 300 },
          }),
      },
      'admin',
    );
    const stat = await screen.findByTestId('stat-Waiting for review', {}, FIRST_LOAD);
    expect(stat).toHaveTextContent('4');
    await subscribed(feed);

    waiting = 5;
    act(() => feed.emit({ id: uuid(910), data: notification(10) }));

    await waitFor(() => expect(screen.getByTestId('stat-Waiting for review')).toHaveTextContent('5'));
  });

  it("updates the agent's attention strip when an event arrives", async () => {
    const place = {
      transactionId: TRANSACTION_ID,
      streetAddress: '4 Fourth Street',
      city: 'Augusta',
      state: 'ME',
      zip: '04330',
    };
    const none = { total: 0, items: [] };
    let attention: AttentionAnswer = { rejected: none, missing: none, deadlines: none, desk: null };
    const { feed } = renderShell('/home', {
      'transactions.list': () => page([]),
      'dashboard.attention': () => attention,
    });
    expect(await screen.findByTestId('attention-clear', {}, FIRST_LOAD)).toBeVisible();
    await subscribed(feed);

    attention = {
      ...attention,
      rejected: { total: 1, items: [{ ...place, formId: uuid(301), label: 'Disclosure' }] },
    };
    act(() => feed.emit({ id: uuid(911), data: notification(11, { message: 'Disclosure was rejected' }) }));

    expect(await screen.findByRole('heading', { name: 'Needs your attention' })).toBeVisible();
    expect(screen.queryByTestId('attention-clear')).not.toBeInTheDocument();
  });
});
