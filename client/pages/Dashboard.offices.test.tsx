import { configure, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DashboardAnswer } from '../../shared/schemas/dashboard';
import { utcToday } from '../components/dashboard/figures';
import { addDays } from '../components/transactions/key-dates';
import { dashboardFigures } from '../test-utils/dashboard';
import { NORTH_ID, northAdminProfile, SOUTH_ID, testOffices, wideAdminProfile } from '../test-utils/offices';
import { renderWithProviders } from '../test-utils/render';
import { signInAs } from '../test-utils/transactions';
import { type StubHandler, stubTrpcClient } from '../test-utils/trpc-stub';
import { Dashboard } from './Dashboard';

// recharts measures its box, which jsdom cannot: each chart becomes a list of what it would draw.
vi.mock('@mantine/charts', () => ({
  BarChart: ({ data, dataKey }: { data: Record<string, unknown>[]; dataKey: string }) => (
    <ul data-testid="bar-chart">
      {data.map((row) => (
        <li key={String(row[dataKey])}>{String(row[dataKey])}</li>
      ))}
    </ul>
  ),
}));

configure({ asyncUtilTimeout: 5_000 });

const today = utcToday();
const offices: DashboardAnswer['offices'] = [
  {
    office: { _id: NORTH_ID, name: 'North' },
    queueSize: 4,
    overdue: 2,
    medianTurnaroundSeconds: 7_200,
    targetHours: 24,
  },
  {
    office: { _id: SOUTH_ID, name: 'South' },
    queueSize: 1,
    overdue: 0,
    medianTurnaroundSeconds: null,
    targetHours: 8,
  },
];

function renderDashboard(path = '/admin/dashboard', handlers: Record<string, StubHandler> = {}) {
  const stub = stubTrpcClient({
    'settings.getUser': () => wideAdminProfile(),
    'offices.list': () => testOffices(),
    'dashboard.figures': () => dashboardFigures({ offices }, today),
    ...handlers,
  });
  const view = renderWithProviders(<Dashboard />, { path, trpcClient: stub.client });
  return { ...view, stub };
}

beforeEach(() => signInAs('admin'));

describe('Dashboard: offices', { timeout: 30_000 }, () => {
  it("shows each office's queue, overdue items, turnaround and target", async () => {
    renderDashboard();
    const table = within(await screen.findByRole('table', { name: 'Offices' }));
    const north = within(table.getByRole('cell', { name: 'North' }).closest('tr') as HTMLElement);
    expect(north.getByRole('cell', { name: '4' })).toBeVisible();
    expect(north.getByRole('cell', { name: '2' })).toBeVisible();
    expect(north.getByRole('cell', { name: '24 h' })).toBeVisible();
    expect(table.getByRole('cell', { name: '8 h' })).toBeVisible();
  });

  it('narrows the figures to one office and keeps the range beside it in the address', async () => {
    const { user, stub, currentPath } = renderDashboard('/admin/dashboard?range=7');
    const office = await screen.findByRole('combobox', { name: 'Office' });
    await user.selectOptions(office, 'North');
    await waitFor(() =>
      expect(stub.callsTo('dashboard.figures')).toContainEqual({
        from: addDays(today, -6),
        to: today,
        officeId: NORTH_ID,
      }),
    );
    expect(currentPath()).toBe(`/admin/dashboard?range=7&office=${NORTH_ID}`);

    // A new range keeps the office.
    await user.click(screen.getByRole('radio', { name: '30 days' }));
    expect(currentPath()).toBe(`/admin/dashboard?range=30&office=${NORTH_ID}`);
  });

  it('offers an office admin no office filter', async () => {
    renderDashboard('/admin/dashboard', { 'settings.getUser': () => northAdminProfile() });
    await screen.findByRole('table', { name: 'Offices' });
    expect(screen.queryByRole('combobox', { name: 'Office' })).not.toBeInTheDocument();
  });
});
