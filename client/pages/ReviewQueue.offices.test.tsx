import { notifications } from '@mantine/notifications';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NORTH_ID, northAdminProfile, SOUTH_ID, testOffices, wideAdminProfile } from '../test-utils/offices';
import { renderWithProviders } from '../test-utils/render';
import { queueItem, queuePage } from '../test-utils/review-queue';
import { signInAs } from '../test-utils/transactions';
import { type StubHandler, stubTrpcClient } from '../test-utils/trpc-stub';
import { ReviewQueue } from './ReviewQueue';

// pdf.js cannot run in jsdom: the viewer is a lazy module of its own, replaced here.
vi.mock('../components/review/PdfViewer', () => ({
  default: ({ url }: { url: string }) => <div data-testid="pdf-viewer">{url}</div>,
}));

configure({ asyncUtilTimeout: 5_000 });

const items = [
  queueItem(1, { overdue: true, office: { _id: NORTH_ID, name: 'North' } }),
  queueItem(2, { office: { _id: SOUTH_ID, name: 'South' } }),
];

function renderQueue(handlers: Record<string, StubHandler> = {}, path = '/admin/review') {
  const stub = stubTrpcClient({
    'settings.getUser': () => wideAdminProfile(),
    'offices.list': () => testOffices(),
    'reviewQueue.list': () => queuePage(items),
    'templates.all': () => [],
    'users.list': () => ({ users: [], totalUsers: 0, totalPages: 1 }),
    ...handlers,
  });
  const view = renderWithProviders(<ReviewQueue />, { path, trpcClient: stub.client });
  return { ...view, stub };
}

const rowOf = (address: string) => {
  const row = screen.getByText(new RegExp(address)).closest('tr');
  if (!row) throw new Error(`no row for ${address}`);
  return within(row);
};

beforeEach(() => signInAs('admin'));
afterEach(() => notifications.clean());

describe('Review queue: offices', { timeout: 30_000 }, () => {
  it("marks an item waiting past its office's target, and names each item's office", async () => {
    renderQueue();
    await screen.findByText(/1 Main Street/);
    expect(rowOf('1 Main Street').getByText('Overdue')).toBeVisible();
    expect(rowOf('1 Main Street').getByText('North')).toBeVisible();
    expect(rowOf('2 Main Street').queryByText('Overdue')).not.toBeInTheDocument();
    expect(rowOf('2 Main Street').getByText('South')).toBeVisible();
  });

  it("narrows a brokerage-wide admin's queue to one office, kept in the address", async () => {
    const { user, stub, currentPath } = renderQueue();
    const office = await screen.findByRole('combobox', { name: 'Office' });
    await user.selectOptions(office, 'South');
    await waitFor(() =>
      expect(stub.callsTo('reviewQueue.list')).toContainEqual({ page: 1, limit: 10, officeId: SOUTH_ID }),
    );
    expect(currentPath()).toBe(`/admin/review?office=${SOUTH_ID}`);
  });

  it('opens on the office the address names', async () => {
    const { stub } = renderQueue({}, `/admin/review?office=${NORTH_ID}`);
    expect(await screen.findByRole('combobox', { name: 'Office' })).toHaveValue(NORTH_ID);
    expect(stub.callsTo('reviewQueue.list')[0]).toEqual({ page: 1, limit: 10, officeId: NORTH_ID });
  });

  it('offers an office admin no office filter', async () => {
    renderQueue({ 'settings.getUser': () => northAdminProfile() });
    await screen.findByText(/1 Main Street/);
    expect(screen.queryByRole('combobox', { name: 'Office' })).not.toBeInTheDocument();
  });
});
