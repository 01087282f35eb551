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
    await user.click(rowOf('2 Main Street').getByRole('button', { name: 'Edit' }));
    expect(currentPath()).toBe(`/adminTransactions/transactions/${summary(2)._id}`);
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
