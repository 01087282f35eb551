import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../dates';
import { renderWithProviders } from '../test-utils/render';
import { page, signInAs, summary, USER_ID } from '../test-utils/transactions';
import { deferred, type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { emptyHomeText, Home } from './Home';

function renderHome(handlers: Record<string, StubHandler>) {
  const stub = stubTrpcClient(handlers);
  const view = renderWithProviders(<Home />, { path: '/home', trpcClient: stub.client });
  return { ...view, stub };
}

/** The body rows of the transactions table, each as its cells' text. */
function rows(): string[][] {
  const table = screen.getByRole('table');
  const [, ...bodyRows] = within(table).getAllByRole('row');
  return bodyRows.map((row) =>
    within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent ?? ''),
  );
}

const firstPage = [summary(1), summary(2, { user: { _id: USER_ID, firstName: 'Sam', lastName: 'Seller' } })];

async function search(user: ReturnType<typeof renderHome>['user'], text: string) {
  const box = screen.getByRole('textbox', { name: 'Quick Search' });
  await user.clear(box);
  if (text) await user.type(box, text);
  await user.click(screen.getByRole('button', { name: 'search' }));
}

beforeEach(() => signInAs('user'));
afterEach(() => notifications.clean());

describe('Transactions list (/home)', () => {
  it("shows one 'Loading...' row, then the stored user's first page", async () => {
    const answer = deferred();
    const { stub } = renderHome({ 'transactions.list': () => answer.promise });
    expect(screen.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Address',
      'Date created',
      'User',
      'City',
      'Progress',
      'Status',
      'Dates',
      'Action',
    ]);
    expect(rows()).toEqual([['Loading...']]);
    expect(stub.callsTo('transactions.list')).toEqual([{ userId: USER_ID, page: 1, limit: 10 }]);

    answer.resolve(page(firstPage, 2));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()).toEqual([
      [
        '1 Main Street',
        formatDateTime(firstPage[0]?.createdAt ?? ''),
        'Dana Agent',
        'City 1',
        '1/2 · 50%',
        'Missing documents',
        'No dates',
        'Edit',
      ],
      [
        '2 Main Street',
        formatDateTime(firstPage[1]?.createdAt ?? ''),
        'Sam Seller',
        'City 2',
        '1/2 · 50%',
        'Missing documents',
        'No dates',
        'Edit',
      ],
    ]);
    // The long localized form, not an ISO string.
    expect(rows()[0]?.[1]).toMatch(/2025/);
    expect(rows()[0]?.[1]).not.toContain('T14:05');
    expect(screen.getByTestId('pager-summary')).toHaveTextContent('Showing 1 to 2 of 2 results');
  });

  it("'Edit' and the address are links to the transaction's page (a new tab works), and Edit opens it", async () => {
    const { user, currentPath } = renderHome({ 'transactions.list': () => page(firstPage) });
    const [, secondRow] = await screen.findAllByRole('link', { name: 'Edit' });
    if (!secondRow) throw new Error('expected two rows');
    const href = `/home/transactions/${summary(2)._id}`;
    expect(secondRow).toHaveAttribute('href', href);
    expect(screen.getByRole('link', { name: '2 Main Street' })).toHaveAttribute('href', href);
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    await user.click(secondRow);
    expect(currentPath()).toBe(href);
  });

  it('says why an empty list is empty: an agent has none yet, an admin sees only their own files', async () => {
    const agent = renderHome({ 'transactions.list': () => page([]) });
    expect(await screen.findByText(emptyHomeText.agent)).toBeVisible();
    agent.unmount();

    signInAs('admin');
    renderHome({ 'transactions.list': () => page([]) });
    expect(await screen.findByText(emptyHomeText.admin)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open Admin Transactions' })).toHaveAttribute(
      'href',
      '/adminTransactions',
    );
    expect(screen.getByRole('button', { name: 'Create your first transaction' })).toBeVisible();
  });

  it('fetches the page asked for by the pager', async () => {
    const { user, stub } = renderHome({
      'transactions.list': (input) =>
        (input as { page: number }).page === 1 ? page([summary(1)], 25) : page([summary(11)], 25),
    });
    await screen.findByText('1 Main Street');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('11 Main Street')).toBeVisible();
    expect(stub.callsTo('transactions.list')).toEqual([
      { userId: USER_ID, page: 1, limit: 10 },
      { userId: USER_ID, page: 2, limit: 10 },
    ]);
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('searches with the trimmed term from page 1, and an empty search goes back to the list', async () => {
    const { user, stub } = renderHome({
      'transactions.list': () => page([summary(1)], 25),
      'transactions.search': () => page([summary(7, { streetAddress: '7 Ocean Drive' })]),
    });
    await screen.findByText('1 Main Street');
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(stub.callsTo('transactions.list')).toHaveLength(2));

    await search(user, '  Ocean  ');
    expect(await screen.findByText('7 Ocean Drive')).toBeVisible();
    expect(stub.callsTo('transactions.search')).toEqual([
      { userId: USER_ID, term: 'Ocean', page: 1, limit: 10 },
    ]);
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

    // Blank: the plain list again, from page 1; the search procedure never sees an empty term.
    stub.calls.length = 0;
    await search(user, '   ');
    expect(await screen.findByText('1 Main Street')).toBeVisible();
    expect(stub.callsTo('transactions.search')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  });

  it('Enter in the box searches too', async () => {
    const { user, stub } = renderHome({
      'transactions.list': () => page([summary(1)]),
      'transactions.search': () => page([]),
    });
    await screen.findByText('1 Main Street');
    await user.type(screen.getByRole('textbox', { name: 'Quick Search' }), 'Main{Enter}');
    expect(await screen.findByText(emptyHomeText.search('Main'))).toBeVisible();
    expect(stub.callsTo('transactions.search')).toEqual([
      { userId: USER_ID, term: 'Main', page: 1, limit: 10 },
    ]);
  });

  it('says so when the list fails to load, and Retry loads it again', async () => {
    let fail = true;
    const { user, stub } = renderHome({
      'transactions.list': () => {
        if (fail) throw trpcError(500, 'Internal server error');
        return page([summary(1)]);
      },
    });
    expect(await screen.findByText('Could not load transactions')).toBeVisible();
    expect(screen.getByText('Internal server error')).toBeVisible();
    expect(rows()).toEqual([['Transactions could not be loaded.']]);

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('1 Main Street')).toBeVisible();
    expect(stub.callsTo('transactions.list')).toHaveLength(2);
    await waitFor(() => expect(screen.queryByText('Could not load transactions')).not.toBeInTheDocument());
  });

  it("'Add Transaction' opens the create dialog", async () => {
    const { user } = renderHome({ 'transactions.list': () => page([]), 'templates.all': () => [] });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add Transaction' }));
    expect(screen.getByRole('dialog', { name: 'Create Transaction' })).toBeVisible();
  });

  it('shows the closing day, the next deadline and, in red, what is overdue', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 10, 25, 9, 0));
    try {
      renderHome({
        'transactions.list': () =>
          page([
            summary(1, {
              closingDate: '2025-12-12',
              nextDeadline: { kind: 'inspection', label: 'Inspection deadline', date: '2025-12-01' },
              overdue: { kind: 'appraisal', label: 'Appraisal deadline', date: '2025-11-20' },
            }),
            summary(2, {
              closingDate: '2026-01-09',
              nextDeadline: { kind: 'closing', label: 'Closing', date: '2026-01-09' },
            }),
          ]),
      });
      await waitFor(() => expect(rows()).toHaveLength(2));
      const [first, second] = within(screen.getByRole('table')).getAllByRole('row').slice(1);
      if (!first || !second) throw new Error('two rows expected');
      expect(within(first).getByTestId('closing-date')).toHaveTextContent(/^Closing Dec 12$/);
      expect(within(first).getByTestId('next-deadline')).toHaveTextContent(/^Inspection deadline · Dec 1$/);
      const overdue = within(first).getByTestId('overdue-date');
      expect(overdue).toHaveTextContent(/^Overdue: Appraisal deadline · Nov 20$/);
      expect(overdue.getAttribute('style')).toContain('--mantine-color-red');
      // Another year's day says its year; a deadline that is the closing is not said twice.
      expect(within(second).getByTestId('closing-date')).toHaveTextContent(/^Closing Jan 9, 2026$/);
      expect(within(second).queryByTestId('next-deadline')).not.toBeInTheDocument();
      expect(within(second).queryByTestId('overdue-date')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});
