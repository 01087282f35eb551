import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DashboardAnswer } from '../../shared/schemas/dashboard';
import { rangeMessages, utcToday } from '../components/dashboard/figures';
import { addDays } from '../components/transactions/key-dates';
import { dashboardFigures } from '../test-utils/dashboard';
import { renderWithProviders } from '../test-utils/render';
import { signInAs, uuid } from '../test-utils/transactions';
import { type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
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

const today = utcToday();
const figures = (overrides: Partial<DashboardAnswer> = {}) => dashboardFigures(overrides, today);

function renderDashboard(path = '/admin/dashboard', handlers: Record<string, StubHandler> = {}) {
  const stub = stubTrpcClient({ 'dashboard.figures': () => figures(), ...handlers });
  const view = renderWithProviders(<Dashboard />, { path, trpcClient: stub.client });
  return { ...view, stub };
}

/** A table's body rows (found by its accessible name), each as its cells' text. */
function rowsOf(name: string): string[][] {
  const [, ...rows] = within(screen.getByRole('table', { name })).getAllByRole('row');
  return rows.map((row) =>
    within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent ?? ''),
  );
}

const stat = (label: string) => screen.getByTestId(`stat-${label}`).textContent;

beforeEach(() => signInAs('admin'));
afterEach(() => vi.restoreAllMocks());

describe('Dashboard (/admin/dashboard)', () => {
  it('asks for the last 30 days by default and shows every figure of the answer', async () => {
    const { stub } = renderDashboard();
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    expect(await screen.findByRole('heading', { level: 2, name: 'Review queue now' })).toBeVisible();
    expect(stub.callsTo('dashboard.figures')).toEqual([{ from: addDays(today, -29), to: today }]);

    expect(stat('Waiting for review')).toBe('4');
    expect(stat('Oldest wait')).toBe('2 d 4 h');
    expect(stat('Median wait')).toBe('3 h 20 min');
    expect(stat('Decisions')).toBe('12');
    expect(stat('Median turnaround')).toBe('5 h');
    expect(stat('90th percentile')).toBe('1 d 2 h');
    expect(stat('Rejection rate')).toBe('25%');
    expect(stat('Closed')).toBe('5');
    expect(stat('Compliant at close')).toBe('4');
    expect(stat('Share compliant')).toBe('80%');

    expect(rowsOf('Turnaround by reviewer')).toEqual([['Rita Reviewer', '12', '5 h']]);
    expect(rowsOf('Rejections by document')).toEqual([
      ['Purchase Agreement', '8', '2', '25%'],
      ['=HYPERLINK("x")', '4', '1', '25%'],
    ]);
    expect(rowsOf('Rejections by agent')).toEqual([
      ['Dana Agent', '8', '3', '37.5%'],
      ['Sam Seller', '4', '0', '0%'],
    ]);
    expect(rowsOf('Top rejection reasons')).toEqual([['Missing signature', '3']]);
    expect(rowsOf('Compliance at close by month')).toHaveLength(1);
    expect(rowsOf('Compliance at close by month')[0]?.slice(1)).toEqual(['5', '4', '80%']);

    const [risk] = rowsOf('Files at risk');
    expect(risk?.[0]).toBe('9 Harbor Road, Augusta, ME 04330');
    expect(risk?.[2]).toMatch(/in 3 days/);
    expect(risk?.slice(3)).toEqual(['2', '1', '0']);
    expect(screen.getByRole('link', { name: '9 Harbor Road, Augusta, ME 04330' })).toHaveAttribute(
      'href',
      `/adminTransactions/transactions/${uuid(77)}`,
    );

    // Each chart is one image named for assistive technology; the tables carry its figures.
    expect(screen.getByRole('img', { name: /median turnaround of each reviewer/ })).toBeVisible();
    expect(screen.getByRole('img', { name: /rejection rate of the 2 documents/ })).toBeVisible();
    expect(screen.getByRole('img', { name: /files closed each month/ })).toBeVisible();

    // Money, in dollars to the cent.
    expect(stat('Gross commission')).toBe('$42,187.50');
    expect(stat('Brokerage')).toBe('$12,656.25');
    expect(stat('Agents')).toBe('$28,531.25');
    expect(stat('Not paid yet')).toBe('$9,750.00');
    const months = rowsOf('Money by month');
    expect(months.map((row) => row[1])).toEqual(
      months.length === 1 ? ['$42,187.50'] : ['$13,500.00', '$28,687.50'],
    );
    expect(screen.getByRole('img', { name: /gross commission of each month/ })).toBeVisible();
  });

  it('says so in each table when the range has nothing to show', async () => {
    renderDashboard('/admin/dashboard', {
      'dashboard.figures': () =>
        figures({
          queue: { size: 0, oldestWaitingSeconds: null, medianWaitingSeconds: null },
          turnaround: { reviewed: 0, medianSeconds: null, p90Seconds: null, byReviewer: [] },
          rejections: { rate: null, byDocument: [], byAgent: [], topReasons: [] },
          compliance: { closed: 0, compliantAtClose: 0, byMonth: [] },
          atRisk: [],
          money: {
            grossCents: 0,
            brokerageCents: 0,
            agentCents: 0,
            pendingCents: 0,
            byMonth: [{ month: today.slice(0, 7), grossCents: 0 }],
          },
        }),
    });
    expect(await screen.findByText('No decisions in this range.')).toBeVisible();
    expect(stat('Oldest wait')).toBe('No data');
    expect(stat('Share compliant')).toBe('No data');
    expect(screen.getByText('No rejections in this range.')).toBeVisible();
    expect(screen.getByText('No file closed in this range.')).toBeVisible();
    expect(screen.getByText(/Nothing at risk/)).toBeVisible();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('asks for the preset chosen and keeps it in the address', async () => {
    const { stub, user, currentPath } = renderDashboard();
    await screen.findByRole('heading', { level: 2, name: 'Turnaround' });
    await user.click(screen.getByRole('radio', { name: '7 days' }));
    await waitFor(() =>
      expect(stub.callsTo('dashboard.figures')).toContainEqual({ from: addDays(today, -6), to: today }),
    );
    expect(currentPath()).toBe('/admin/dashboard?range=7');

    await user.click(screen.getByRole('radio', { name: '90 days' }));
    await waitFor(() =>
      expect(stub.callsTo('dashboard.figures')).toContainEqual({ from: addDays(today, -89), to: today }),
    );
    expect(currentPath()).toBe('/admin/dashboard?range=90');
  });

  it('reads the range from the address, so a reload shows the same', async () => {
    const { stub } = renderDashboard('/admin/dashboard?from=2026-01-01&to=2026-01-31');
    await screen.findByRole('heading', { level: 2, name: 'Turnaround' });
    expect(stub.callsTo('dashboard.figures')).toEqual([{ from: '2026-01-01', to: '2026-01-31' }]);
    expect(screen.getByRole('radio', { name: 'Custom' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'From' })).toHaveTextContent('Jan 1, 2026');
    expect(screen.getByRole('button', { name: 'To' })).toHaveTextContent('Jan 31, 2026');
  });

  it('applies a custom range once both days are chosen, and says what is missing', async () => {
    const { stub, user, currentPath } = renderDashboard('/admin/dashboard?range=7');
    await screen.findByRole('heading', { level: 2, name: 'Turnaround' });
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    // The custom fields start from the days shown.
    expect(screen.getByRole('button', { name: 'To' })).toHaveTextContent(/\w{3} \d{1,2}, \d{4}/);

    const [clearFrom] = screen.getAllByRole('button', { name: 'Clear date' });
    await user.click(clearFrom as HTMLElement);
    await user.click(screen.getByRole('button', { name: 'Show figures' }));
    expect(await screen.findByText(rangeMessages.fromRequired)).toBeVisible();
    expect(currentPath()).toBe('/admin/dashboard?range=7');
    expect(stub.callsTo('dashboard.figures')).toHaveLength(1);
  });

  it('sends a custom range as chosen and shows it in the address', async () => {
    const { stub, user, currentPath } = renderDashboard('/admin/dashboard?range=7');
    await screen.findByRole('heading', { level: 2, name: 'Turnaround' });
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    await user.click(screen.getByRole('button', { name: 'Show figures' }));
    const expected = { from: addDays(today, -6), to: today };
    await waitFor(() =>
      expect(currentPath()).toBe(`/admin/dashboard?from=${expected.from}&to=${expected.to}`),
    );
    expect(stub.callsTo('dashboard.figures').at(-1)).toEqual(expected);
  });

  it("shows the server's message for a range it refuses", async () => {
    renderDashboard('/admin/dashboard?from=2026-02-01&to=2026-01-01', {
      'dashboard.figures': () => {
        throw trpcError(400, '"to" must not be before "from"');
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('These dates cannot be shown');
    expect(alert).toHaveTextContent('"to" must not be before "from"');
    expect(within(alert).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('offers a retry when the figures could not be loaded', async () => {
    let failures = 1;
    const { user } = renderDashboard('/admin/dashboard', {
      'dashboard.figures': () => {
        if (failures-- > 0) throw trpcError(503, 'The service is busy. Please try again.');
        return figures();
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The figures could not be loaded');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('stat-Waiting for review')).toHaveTextContent('4');
  });

  it('exports the rows a table shows as CSV, header first, formulas defused', async () => {
    const saved: Blob[] = [];
    const names: string[] = [];
    // jsdom has no object URLs and cannot follow a download link: both are caught here.
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:dashboard';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { user } = renderDashboard();
    await screen.findByRole('heading', { level: 2, name: 'Rejections' });

    await user.click(screen.getByRole('button', { name: 'Export CSV: Rejections by document' }));
    expect(names).toEqual(['rejections-by-document.csv']);
    expect(saved[0]?.type).toBe('text/csv;charset=utf-8');
    expect(await saved[0]?.text()).toBe(
      'Document,Reviewed,Rejected,Rejection rate\r\n' +
        'Purchase Agreement,8,2,25%\r\n' +
        '"\'=HYPERLINK(""x"")",4,1,25%\r\n',
    );

    await user.click(screen.getByRole('button', { name: 'Export CSV: Files at risk' }));
    expect(names.at(-1)).toBe('files-at-risk.csv');
    const lines = (await saved[1]?.text())?.split('\r\n');
    expect(lines?.[0]).toBe('Transaction,Agent,Closing date,Missing,Rejected,Awaiting review');
    expect(lines?.[1]).toMatch(
      /^"9 Harbor Road, Augusta, ME 04330",Dana Agent,"[A-Z][a-z]{2} \d{1,2}, \d{4} \(in 3 days\)",2,1,0$/,
    );
  });
});
