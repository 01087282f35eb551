import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import { keyDateMessages } from '../../shared/messages';
import type { CalendarEvent, CalendarInput } from '../../shared/schemas/key-dates';
import { paths } from '../paths';
import { renderWithProviders } from '../test-utils/render';
import { signInAs, uuid } from '../test-utils/transactions';
import { type StubHandler, stubTrpcClient } from '../test-utils/trpc-stub';
import { testProfile } from '../test-utils/users';
import { Calendar } from './Calendar';

const OCEAN = uuid(1);
const MAIN = uuid(2);
const ALEX = uuid(900);

const EVENTS: CalendarEvent[] = [
  {
    transactionId: OCEAN,
    streetAddress: '12 Ocean Ave',
    kind: 'inspection',
    label: 'Inspection deadline',
    date: '2025-11-20',
    done: false,
  },
  {
    transactionId: MAIN,
    streetAddress: '4 Main St',
    kind: 'appraisal',
    label: 'Appraisal deadline',
    date: '2025-12-01',
    done: false,
  },
  {
    transactionId: OCEAN,
    streetAddress: '12 Ocean Ave',
    kind: 'closing',
    label: 'Closing',
    date: '2025-12-01',
    done: false,
  },
  {
    transactionId: MAIN,
    streetAddress: '4 Main St',
    kind: 'contract-acceptance',
    label: 'Contract acceptance',
    date: '2025-11-03',
    done: true,
  },
  {
    transactionId: MAIN,
    streetAddress: '4 Main St',
    kind: 'closing',
    label: 'Closing',
    date: '2026-01-09',
    done: false,
  },
];

/** The calendar as the server answers it: the events in the range, of one agent when asked. */
function calendarList(input: unknown) {
  const { from, to, agentId } = input as CalendarInput;
  return {
    events: EVENTS.filter(
      (event) => event.date >= from && event.date <= to && (!agentId || event.transactionId === OCEAN),
    ),
  };
}

function renderCalendar(handlers: Record<string, StubHandler> = {}) {
  const stub = stubTrpcClient({
    'calendar.list': calendarList,
    'users.list': () => ({
      users: [
        testProfile({ _id: ALEX, firstName: 'Alex', lastName: 'Lister' }),
        testProfile(),
        testProfile({ _id: uuid(901), firstName: 'Rita', lastName: 'Reviewer', role: 'admin' }),
      ],
      totalPages: 1,
      totalUsers: 3,
    }),
    ...handlers,
  });
  const view = renderWithProviders(
    <>
      <Route path={paths.calendar}>
        <Calendar />
      </Route>
      <Route path="/home/transactions/:id">agent detail page</Route>
      <Route path="/adminTransactions/transactions/:id">admin detail page</Route>
    </>,
    { path: '/calendar', trpcClient: stub.client },
  );
  return { ...view, stub };
}

const day = (date: string) => within(screen.getByTestId(`day-${date}`));
const toast = (text: string) =>
  screen.findByText(text, {
    selector: '.mantine-Notification-description, .mantine-Notification-description *',
  });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2025, 10, 28, 9, 0));
});
afterEach(() => {
  vi.useRealTimers();
  notifications.clean();
});

describe('Calendar page', () => {
  it("shows this month's weeks with each day's events, today marked, and the next 60 days", async () => {
    signInAs('user');
    const { stub } = renderCalendar();
    expect(screen.getByRole('heading', { level: 2, name: 'November 2025' })).toBeVisible();
    await waitFor(() => expect(day('2025-11-20').getAllByRole('link')).toHaveLength(1));
    // The grid runs Sunday Oct 26 to Saturday Dec 6, asked for in one call; the list from today.
    expect(stub.callsTo('calendar.list')).toEqual([
      { from: '2025-10-26', to: '2025-12-06' },
      { from: '2025-11-28', to: '2026-01-27' },
    ]);
    expect(
      day('2025-11-20').getByRole('link', { name: 'Inspection deadline · 12 Ocean Ave' }),
    ).toHaveAttribute('data-overdue');
    expect(
      day('2025-12-01')
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Appraisal deadline · 4 Main St', 'Closing · 12 Ocean Ave']);
    expect(day('2025-11-03').getByRole('link')).toHaveAttribute('data-done');
    expect(day('2025-11-21').queryAllByRole('link')).toEqual([]);
    const todayCell = screen.getByRole('listitem', { name: 'Friday, November 28, 2025 (today)' });
    expect(todayCell).toHaveAttribute('aria-current', 'date');
    expect(screen.getAllByRole('listitem').filter((item) => item.getAttribute('aria-current'))).toHaveLength(
      1,
    );

    const upcoming = within(screen.getByRole('list', { name: 'Upcoming key dates' }));
    const upcomingDays = upcoming.getAllByTestId(/^upcoming-/).map((item) => item.dataset.testid);
    expect(upcomingDays).toEqual(['upcoming-2025-12-01', 'upcoming-2026-01-09']);
    expect(within(screen.getByTestId('upcoming-2025-12-01')).getByText('in 3 days')).toBeVisible();
    expect(within(screen.getByTestId('upcoming-2025-12-01')).getAllByRole('link')).toHaveLength(2);
    // Agents have no agent filter.
    expect(screen.queryByRole('combobox', { name: 'Agent' })).not.toBeInTheDocument();
    expect(stub.callsTo('users.list')).toEqual([]);
  });

  it("moves between months and opens the agent's transaction from an event", async () => {
    signInAs('user');
    const { user, stub, currentPath } = renderCalendar();
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(screen.getByRole('heading', { level: 2, name: 'December 2025' })).toBeVisible();
    await waitFor(() =>
      expect(stub.callsTo('calendar.list')).toContainEqual({ from: '2025-11-30', to: '2026-01-03' }),
    );
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(screen.getByRole('heading', { level: 2, name: 'October 2025' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Today' }));
    expect(screen.getByRole('heading', { level: 2, name: 'November 2025' })).toBeVisible();

    await user.click(
      await day('2025-11-20').findByRole('link', { name: 'Inspection deadline · 12 Ocean Ave' }),
    );
    expect(currentPath()).toBe(`/home/transactions/${OCEAN}`);
  });

  it("lets an admin narrow the calendar to one agent's dates, and leads to the admin detail page", async () => {
    signInAs('admin');
    const { user, stub, currentPath } = renderCalendar();
    await waitFor(() => expect(day('2025-12-01').getAllByRole('link')).toHaveLength(2));
    expect(stub.callsTo('users.list')).toEqual([{ page: 1, limit: 100 }]);

    await user.click(screen.getByRole('combobox', { name: 'Agent' }));
    // Agents only: an admin has no deals of their own to list.
    expect(screen.queryByRole('option', { name: 'Rita Reviewer' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Alex Lister' }));
    await waitFor(() => expect(day('2025-12-01').getAllByRole('link')).toHaveLength(1));
    expect(stub.callsTo('calendar.list')).toContainEqual({
      from: '2025-10-26',
      to: '2025-12-06',
      agentId: ALEX,
    });
    expect(stub.callsTo('calendar.list')).toContainEqual({
      from: '2025-11-28',
      to: '2026-01-27',
      agentId: ALEX,
    });
    expect(day('2025-12-01').getByRole('link').textContent).toBe('Closing · 12 Ocean Ave');

    await user.click(day('2025-12-01').getByRole('link'));
    expect(currentPath()).toBe(`/adminTransactions/transactions/${OCEAN}`);
  });

  it('subscribes: shows the new feed address to copy, and says the old one stops working', async () => {
    signInAs('user');
    const url = 'https://portal.example.com/calendar/secret-token.ics';
    const { user, stub } = renderCalendar({ 'calendar.createFeed': () => ({ url }) });
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Subscribe to your key dates' }));
    expect(dialog.getByRole('textbox', { name: 'Calendar address' })).toHaveValue(url);
    expect(dialog.getByRole('button', { name: 'Copy' })).toBeVisible();
    expect(dialog.getByText(/Google Calendar/)).toBeVisible();
    expect(await toast(keyDateMessages.feedCreated)).toBeVisible();
    expect(stub.callsTo('calendar.createFeed')).toEqual([undefined]);
  });
});
