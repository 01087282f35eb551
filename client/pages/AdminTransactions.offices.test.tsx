import { notifications } from '@mantine/notifications';
import { configure, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NORTH_ID, northAdminProfile, SOUTH_ID, testOffices, wideAdminProfile } from '../test-utils/offices';
import { renderWithProviders } from '../test-utils/render';
import { page, signInAs, summary } from '../test-utils/transactions';
import { type StubHandler, stubTrpcClient } from '../test-utils/trpc-stub';
import { AdminTransactions } from './AdminTransactions';

configure({ asyncUtilTimeout: 5_000 });

function renderAdminList(handlers: Record<string, StubHandler> = {}, path = '/adminTransactions') {
  const stub = stubTrpcClient({
    'settings.getUser': () => wideAdminProfile(),
    'offices.list': () => testOffices(),
    'adminTransactions.list': () => page([summary(1)]),
    ...handlers,
  });
  const view = renderWithProviders(<AdminTransactions />, { path, trpcClient: stub.client });
  return { ...view, stub };
}

const optionNames = (select: HTMLElement) =>
  [...(select as HTMLSelectElement).options].map((option) => option.textContent);

beforeEach(() => signInAs('admin'));
afterEach(() => notifications.clean());

describe('Admin transactions: the office filter', { timeout: 30_000 }, () => {
  it("narrows a brokerage-wide admin's list to one office, kept in the address, and back to all", async () => {
    const { user, stub, currentPath } = renderAdminList();
    const office = await screen.findByRole('combobox', { name: 'Office' });
    expect(optionNames(office)).toEqual(['All offices', 'North', 'South']);
    expect(office).toHaveValue('');

    await user.selectOptions(office, 'North');
    await waitFor(() =>
      expect(stub.callsTo('adminTransactions.list')).toContainEqual({
        page: 1,
        limit: 10,
        officeId: NORTH_ID,
      }),
    );
    expect(currentPath()).toBe(`/adminTransactions?office=${NORTH_ID}`);

    await user.selectOptions(office, 'All offices');
    expect(currentPath()).toBe('/adminTransactions');
  });

  it('opens on the office the address names', async () => {
    const { stub } = renderAdminList({}, `/adminTransactions?office=${SOUTH_ID}`);
    expect(await screen.findByRole('combobox', { name: 'Office' })).toHaveValue(SOUTH_ID);
    expect(stub.callsTo('adminTransactions.list')[0]).toEqual({ page: 1, limit: 10, officeId: SOUTH_ID });
  });

  it('is not offered to an office admin', async () => {
    const { stub } = renderAdminList({ 'settings.getUser': () => northAdminProfile() });
    await screen.findByText('1 Main Street');
    expect(screen.queryByRole('combobox', { name: 'Office' })).not.toBeInTheDocument();
    expect(stub.callsTo('offices.list')).toEqual([]);
  });

  it('is not offered while there are no offices', async () => {
    const { stub } = renderAdminList({ 'offices.list': () => [] });
    await screen.findByText('1 Main Street');
    await waitFor(() => expect(stub.callsTo('offices.list')).toHaveLength(1));
    expect(screen.queryByRole('combobox', { name: 'Office' })).not.toBeInTheDocument();
  });
});
