import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LibraryItem } from '../../shared/schemas/libraries';
import { emptyHomeText, Home } from '../pages/Home';
import { Forms } from '../pages/Library';
import { Users } from '../pages/Users';
import { renderWithProviders } from '../test-utils/render';
import { page, signInAs, summary } from '../test-utils/transactions';
import { deferred, type StubHandler, stubTrpcClient } from '../test-utils/trpc-stub';
import { testProfile } from '../test-utils/users';

/**
 * The shared list components (ListPage, ListTable, Pager) as the pages use them: what a list
 * shows while it loads, when it is empty, and what a search that found nothing offers.
 */

function render(ui: ReactElement, path: string, handlers: Record<string, StubHandler>) {
  const stub = stubTrpcClient(handlers);
  return { ...renderWithProviders(ui, { path, trpcClient: stub.client }), stub };
}

const searchBox = () => screen.getByRole('textbox', { name: 'Quick Search' });

afterEach(() => notifications.clean());

describe('while a list loads', () => {
  it("the pager says nothing (not 'Showing 0 to 0 of 0 results') until the rows are there", async () => {
    signInAs('user');
    const answer = deferred();
    render(<Home />, '/home', { 'transactions.list': () => answer.promise });
    expect(screen.getByRole('cell', { name: 'Loading...' })).toBeVisible();
    expect(screen.queryByTestId('pager-summary')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).not.toBeInTheDocument();

    answer.resolve(page([summary(1)]));
    expect(await screen.findByTestId('pager-summary')).toHaveTextContent('Showing 1 to 1 of 1 results');
  });

  it('the same on a page with its own pager (users)', async () => {
    signInAs('admin');
    const answer = deferred();
    render(<Users />, '/users', { 'users.list': () => answer.promise });
    expect(screen.getByText('Loading...')).toBeVisible();
    expect(screen.queryByTestId('pager-summary')).not.toBeInTheDocument();

    answer.resolve({ users: [testProfile()], totalUsers: 1, totalPages: 1 });
    expect(await screen.findByTestId('pager-summary')).toHaveTextContent('Showing 1 to 1 of 1 results');
  });
});

describe('an empty list', () => {
  it("offers the agent's first transaction, which opens the create dialog", async () => {
    signInAs('user');
    const { user } = render(<Home />, '/home', {
      'transactions.list': () => page([]),
      'templates.all': () => [],
    });
    expect(await screen.findByText(emptyHomeText.agent)).toBeVisible();
    // The pager still gives its count once the list has answered.
    expect(screen.getByTestId('pager-summary')).toHaveTextContent('Showing 0 to 0 of 0 results');
    await user.click(screen.getByRole('button', { name: 'Create your first transaction' }));
    expect(screen.getByRole('dialog', { name: 'Create Transaction' })).toBeVisible();
  });

  it("offers the owner the library's first item, and other users nothing to press", async () => {
    signInAs('admin');
    const handlers = (isOwner: boolean) => ({
      'settings.getUser': () => testProfile({ role: 'admin', isOwner }),
      'libraries.forms.list': () => ({ forms: [] as LibraryItem[], total: 0, pages: 1 }),
    });
    const owner = render(<Forms />, '/forms', handlers(true));
    await owner.user.click(await screen.findByRole('button', { name: 'Add the first form' }));
    expect(await screen.findByRole('dialog', { name: 'Add Forms' })).toBeVisible();
    owner.unmount();

    render(<Forms />, '/forms', handlers(false));
    expect(await screen.findByText('No forms yet.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Add Forms' })).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Add the first form' })).not.toBeInTheDocument();
  });
});

describe('a search that finds nothing', () => {
  it('says so and offers to clear the search, which empties the box and shows the whole list again', async () => {
    signInAs('user');
    const { user, stub } = render(<Home />, '/home', {
      'transactions.list': () => page([summary(1)]),
      'transactions.search': () => page([]),
    });
    await screen.findByText('1 Main Street');
    await user.type(searchBox(), 'Nowhere Lane{Enter}');
    expect(await screen.findByText(emptyHomeText.search('Nowhere Lane'))).toBeVisible();
    // Not the first transaction: the list is not empty, the search is.
    expect(screen.queryByRole('button', { name: 'Create your first transaction' })).not.toBeInTheDocument();

    stub.calls.length = 0;
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await screen.findByText('1 Main Street')).toBeVisible();
    expect(searchBox()).toHaveValue('');
    expect(searchBox()).toHaveFocus();
    expect(stub.callsTo('transactions.search')).toEqual([]);
  });

  it("names the term where the page's message does (users)", async () => {
    signInAs('admin');
    const { user } = render(<Users />, '/users', {
      'users.list': (input) =>
        (input as { query?: string }).query
          ? { users: [], totalUsers: 0, totalPages: 1 }
          : { users: [testProfile()], totalUsers: 1, totalPages: 1 },
    });
    await screen.findByText('Dana');
    await user.type(searchBox(), 'zed{Enter}');
    const row = await screen.findByRole('cell', { name: /No users match "zed"\./ });
    await user.click(within(row).getByRole('button', { name: 'Clear search' }));
    expect(await screen.findByText('Dana')).toBeVisible();
  });
});

describe('the phone layout', () => {
  it("hands each column's header to the card layout, and marks a table whose last column holds buttons", async () => {
    signInAs('user');
    render(<Home />, '/home', { 'transactions.list': () => page([summary(1)]) });
    await screen.findByText('1 Main Street');
    const table = screen.getByRole('table');
    expect(table.style.getPropertyValue('--list-label-2')).toBe('"Date created"');
    expect(table.style.getPropertyValue('--list-label-5')).toBe('"Progress"');
    expect(table.style.getPropertyValue('--list-label-6')).toBe('"Status"');
    expect(table.style.getPropertyValue('--list-label-7')).toBe('"Dates"');
    expect(table.style.getPropertyValue('--list-label-8')).toBe('"Action"');
    expect(table).toHaveAttribute('data-with-actions');
  });
});
