import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AttentionAnswer } from '../../../shared/schemas/dashboard';
import { Home } from '../../pages/Home';
import { renderWithProviders } from '../../test-utils/render';
import { page, signInAs, summary, uuid } from '../../test-utils/transactions';
import { type StubHandler, stubTrpcClient, trpcError } from '../../test-utils/trpc-stub';
import { NOTHING_NEEDS_ATTENTION } from './AttentionStrip';
import { addDays, today } from './key-dates';

const place = (n: number) => ({
  transactionId: uuid(n),
  streetAddress: `${n} Main Street`,
  city: `City ${n}`,
  state: 'CA',
  zip: '90210',
});

const EMPTY: AttentionAnswer = {
  rejected: { total: 0, items: [] },
  missing: { total: 0, items: [] },
  deadlines: { total: 0, items: [] },
};

function renderHome(attention: StubHandler) {
  const stub = stubTrpcClient({
    'transactions.list': () => page([summary(1)], 1),
    'dashboard.attention': attention,
  });
  return { ...renderWithProviders(<Home />, { path: '/home', trpcClient: stub.client }), stub };
}

const strip = () => within(screen.getByRole('region', { name: 'Needs your attention' }));

beforeEach(() => signInAs('user'));

describe("'Needs your attention' on /home", () => {
  it('lists the three groups, each item linking to its place on the transaction page', async () => {
    const reference = today();
    renderHome(() => ({
      rejected: {
        total: 1,
        items: [{ ...place(1), formId: uuid(101), label: 'Purchase Agreement' }],
      },
      missing: {
        total: 12,
        items: Array.from({ length: 10 }, (_, i) => ({
          ...place(2),
          formId: uuid(200 + i),
          label: `Disclosure ${i + 1}`,
        })),
      },
      deadlines: {
        total: 2,
        items: [
          {
            ...place(3),
            kind: 'inspection',
            label: 'Inspection deadline',
            date: addDays(reference, -1),
            overdue: true,
          },
          { ...place(4), kind: 'closing', label: 'Closing', date: addDays(reference, 3), overdue: false },
        ],
      },
    }));

    expect(await screen.findByRole('heading', { level: 2, name: 'Needs your attention' })).toBeVisible();
    expect(
      strip()
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(['Rejected documents (1)', 'Missing documents (12)', 'Deadlines this week (2)']);

    expect(
      strip().getByRole('link', { name: 'Purchase Agreement, 1 Main Street, City 1, CA 90210' }),
    ).toHaveAttribute('href', `/home/transactions/${uuid(1)}#item-${uuid(101)}`);
    expect(strip().getByRole('link', { name: /^Disclosure 1,/ })).toHaveAttribute(
      'href',
      `/home/transactions/${uuid(2)}#item-${uuid(200)}`,
    );
    // More than listed: the total says so.
    expect(strip().getByText('Showing 10 of 12.')).toBeVisible();

    const overdue = strip().getByRole('link', { name: /^Inspection deadline/ });
    expect(overdue).toHaveAttribute('href', `/home/transactions/${uuid(3)}#key-dates`);
    expect(overdue.closest('li')).toHaveTextContent('Overdue');
    const upcoming = strip().getByRole('link', { name: /^Closing/ });
    expect(upcoming.closest('li')).toHaveTextContent('in 3 days');
    expect(upcoming.closest('li')).not.toHaveTextContent('Overdue');

    // The list is still the page's table, below.
    expect(screen.getByRole('table')).toBeInTheDocument();
  });

  it('says calmly that nothing needs attention when every group is empty', async () => {
    renderHome(() => EMPTY);
    expect(await screen.findByText(NOTHING_NEEDS_ATTENTION)).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Needs your attention' })).not.toBeInTheDocument();
  });

  it('says an empty group is clear while others have items', async () => {
    renderHome(() => ({
      ...EMPTY,
      missing: { total: 1, items: [{ ...place(5), formId: uuid(501), label: 'Agency Disclosure' }] },
    }));
    expect(await screen.findByRole('heading', { name: 'Missing documents (1)' })).toBeVisible();
    expect(strip().getByText('No rejected documents.')).toBeVisible();
    expect(strip().getByText('No deadline in the next 7 days.')).toBeVisible();
    expect(strip().queryByText(/^Showing/)).not.toBeInTheDocument();
  });

  it('stays a quiet line with a retry when it cannot load, leaving the list alone', async () => {
    let failures = 1;
    const { user } = renderHome(() => {
      if (failures-- > 0) throw trpcError(503, 'The service is busy. Please try again.');
      return EMPTY;
    });
    expect(await screen.findByText('What needs your attention could not be loaded.')).toBeVisible();
    expect(screen.getByRole('table')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(NOTHING_NEEDS_ATTENTION)).toBeVisible();
  });
});
