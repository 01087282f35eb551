import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test-utils/render';
import { page, signInAs, summary } from '../test-utils/transactions';
import { type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { AdminTransactions } from './AdminTransactions';

function renderAdminList(handlers: Record<string, StubHandler>) {
  const stub = stubTrpcClient(handlers);
  const view = renderWithProviders(<AdminTransactions />, {
    path: '/adminTransactions',
    trpcClient: stub.client,
  });
  return { ...view, stub };
}

const rowOf = (address: string) => {
  const row = screen.getByText(address).closest('tr');
  if (!row) throw new Error(`no row for ${address}`);
  return within(row);
};

beforeEach(() => signInAs('admin'));
afterEach(() => notifications.clean());

describe('Admin transactions list', () => {
  it("lists every user's transactions with Edit and Delete", async () => {
    const { user, stub, currentPath } = renderAdminList({
      'adminTransactions.list': () => page([summary(1), summary(2)]),
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Admin Transactions' })).toBeVisible();
    await screen.findByText('1 Main Street');
    expect(stub.callsTo('adminTransactions.list')).toEqual([{ page: 1, limit: 10 }]);
    expect(rowOf('2 Main Street').getByRole('button', { name: 'Delete' })).toBeVisible();
    const href = `/adminTransactions/transactions/${summary(2)._id}`;
    expect(rowOf('2 Main Street').getByRole('link', { name: '2 Main Street' })).toHaveAttribute('href', href);
    await user.click(rowOf('2 Main Street').getByRole('link', { name: 'Edit' }));
    expect(currentPath()).toBe(href);
  });

  it("shows each row's progress (waived counts as accepted) and its compliance badge", async () => {
    renderAdminList({
      'adminTransactions.list': () =>
        page([
          summary(1, {
            progress: {
              required: 8,
              accepted: 3,
              waived: 2,
              awaitingReview: 1,
              rejected: 1,
              missing: 1,
              percent: 63,
            },
            status: 'needs-review',
          }),
          summary(2, { status: 'rejected' }),
          summary(3, { status: 'missing' }),
          summary(4, {
            progress: {
              required: 2,
              accepted: 2,
              waived: 0,
              awaitingReview: 0,
              rejected: 0,
              missing: 0,
              percent: 100,
            },
            compliant: true,
            status: 'compliant',
          }),
          summary(5, { compliant: true, status: 'closed', closedAt: '2025-04-01T10:00:00.000Z' }),
        ]),
    });
    await screen.findByText('1 Main Street');
    const first = rowOf('1 Main Street');
    expect(first.getByText('5/8 · 63%')).toBeVisible();
    expect(first.getByRole('progressbar', { name: 'Required documents accepted: 5/8' })).toHaveAttribute(
      'aria-valuenow',
      '63',
    );
    const badges = screen.getAllByTestId('transaction-status').map((badge) => badge.textContent);
    expect(badges).toEqual(['Needs review', 'Rejected', 'Missing documents', 'Compliant', 'Closed']);
    expect(rowOf('4 Main Street').getByText('2/2 · 100%')).toBeVisible();
  });

  it('filters by status on the list and the search, back to page 1', async () => {
    const { user, stub } = renderAdminList({
      'adminTransactions.list': () => page([summary(1)], 25),
      'adminTransactions.search': () => page([summary(9, { streetAddress: '9 Agent Lane' })]),
    });
    await screen.findByText('1 Main Street');
    const filter = screen.getByRole('combobox', { name: 'Status' });
    expect(
      within(filter)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All', 'Needs review', 'Rejected', 'Missing documents', 'Compliant', 'Closed']);
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(stub.callsTo('adminTransactions.list')).toContainEqual({ page: 2, limit: 10 }),
    );
    await user.selectOptions(filter, 'Needs review');
    await waitFor(() =>
      expect(stub.callsTo('adminTransactions.list').at(-1)).toEqual({
        page: 1,
        limit: 10,
        status: 'needs-review',
      }),
    );

    await user.type(screen.getByRole('textbox', { name: 'Quick Search' }), 'dana');
    await user.click(screen.getByRole('button', { name: 'search' }));
    expect(await screen.findByText('9 Agent Lane')).toBeVisible();
    expect(stub.callsTo('adminTransactions.search')).toEqual([
      { term: 'dana', page: 1, limit: 10, status: 'needs-review' },
    ]);

    await user.selectOptions(filter, 'All');
    await waitFor(() =>
      expect(stub.callsTo('adminTransactions.search').at(-1)).toEqual({ term: 'dana', page: 1, limit: 10 }),
    );
  });

  it('searches all users with the trimmed term; an empty term lists again', async () => {
    const { user, stub } = renderAdminList({
      'adminTransactions.list': () => page([summary(1)]),
      'adminTransactions.search': () => page([summary(9, { streetAddress: '9 Agent Lane' })]),
    });
    await screen.findByText('1 Main Street');
    await user.type(screen.getByRole('textbox', { name: 'Quick Search' }), ' dana ');
    await user.click(screen.getByRole('button', { name: 'search' }));
    expect(await screen.findByText('9 Agent Lane')).toBeVisible();
    expect(stub.callsTo('adminTransactions.search')).toEqual([{ term: 'dana', page: 1, limit: 10 }]);

    await user.clear(screen.getByRole('textbox', { name: 'Quick Search' }));
    await user.click(screen.getByRole('button', { name: 'search' }));
    expect(await screen.findByText('1 Main Street')).toBeVisible();
    expect(stub.callsTo('adminTransactions.search')).toHaveLength(1);
  });

  it('deletes after confirmation, toasts and reloads the list', async () => {
    let rows = [summary(1), summary(2)];
    const { user, stub } = renderAdminList({
      'adminTransactions.list': () => page(rows),
      'adminTransactions.delete': (input) => {
        rows = rows.filter((row) => row._id !== (input as { id: string }).id);
        return { message: 'Transaction deleted successfully' };
      },
    });
    await screen.findByText('2 Main Street');
    await user.click(rowOf('2 Main Street').getByRole('button', { name: 'Delete' }));

    const confirm = within(await screen.findByRole('dialog', { name: 'Delete transaction' }));
    expect(confirm.getByText(/2 Main Street, City 2/)).toBeVisible();
    expect(stub.callsTo('adminTransactions.delete')).toEqual([]);
    await user.click(confirm.getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Transaction deleted successfully')).toBeVisible();
    expect(stub.callsTo('adminTransactions.delete')).toEqual([{ id: summary(2)._id }]);
    await waitFor(() => expect(screen.queryByText('2 Main Street')).not.toBeInTheDocument());
    expect(stub.callsTo('adminTransactions.list')).toHaveLength(2);
  });

  it('Cancel in the confirmation deletes nothing', async () => {
    const { user, stub } = renderAdminList({ 'adminTransactions.list': () => page([summary(1)]) });
    await screen.findByText('1 Main Street');
    await user.click(rowOf('1 Main Street').getByRole('button', { name: 'Delete' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Delete transaction' }));
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(stub.callsTo('adminTransactions.delete')).toEqual([]);
  });

  it("shows the server's message when the delete fails", async () => {
    const { user } = renderAdminList({
      'adminTransactions.list': () => page([summary(1)]),
      'adminTransactions.delete': () => {
        throw trpcError(404, 'Not found');
      },
    });
    await screen.findByText('1 Main Street');
    await user.click(rowOf('1 Main Street').getByRole('button', { name: 'Delete' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Delete transaction' }));
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Not found')).toBeVisible();
    expect(screen.queryByText('Transaction deleted successfully')).not.toBeInTheDocument();
  });
});
