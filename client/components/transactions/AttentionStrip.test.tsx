import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AttentionAnswer } from '../../../shared/schemas/dashboard';
import { PHONE_QUERY } from '../../breakpoints';
import { Home } from '../../pages/Home';
import { deviceMatching } from '../../test-utils/media';
import { renderWithProviders } from '../../test-utils/render';
import { queueItem } from '../../test-utils/review-queue';
import { page, signInAs, summary, uuid } from '../../test-utils/transactions';
import { type StubHandler, stubTrpcClient, trpcError } from '../../test-utils/trpc-stub';
import { NOTHING_NEEDS_ATTENTION, PHONE_ATTENTION_ITEMS } from './AttentionStrip';
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
  desk: null,
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

describe("an admin's /home: what waits for the desk", () => {
  const atRiskFile = (n: number, closingDate: string) => ({
    transaction: queueItem(n).transaction,
    closingDate,
    missing: 2,
    rejected: 0,
    awaitingReview: 1,
  });

  it('says how many items wait and for how long, names the files at risk, and leads to the queue and the dashboard', async () => {
    signInAs('admin');
    renderHome(() => ({
      ...EMPTY,
      desk: {
        queue: { size: 57, oldestWaitingSeconds: 3 * 86_400 + 4 * 3_600 },
        atRisk: { total: 5, items: [atRiskFile(7, '2026-12-03'), atRiskFile(8, '2026-12-04')] },
      },
    }));
    const desk = within(await screen.findByRole('region', { name: 'Waiting for the desk' }));
    expect(desk.getByText('57 items wait for review, the oldest for 3 d 4 h.')).toBeVisible();
    expect(desk.getByText('5 files at risk: closing within 7 days and not compliant.')).toBeVisible();
    expect(desk.getByRole('link', { name: '7 Main Street, City 7' })).toHaveAttribute(
      'href',
      `/adminTransactions/transactions/${uuid(7)}`,
    );
    expect(desk.getByRole('link', { name: '7 Main Street, City 7' }).closest('li')).toHaveTextContent(
      'closes Dec 3, 2026 · 2 missing, 1 awaiting review',
    );
    expect(desk.getByRole('link', { name: 'Open the review queue' })).toHaveAttribute(
      'href',
      '/admin/review',
    );
    expect(desk.getByRole('link', { name: 'Open the dashboard' })).toHaveAttribute(
      'href',
      '/admin/dashboard',
    );
    // Never "nothing needs your attention" while the desk has work.
    expect(screen.queryByText(NOTHING_NEEDS_ATTENTION)).not.toBeInTheDocument();
  });

  it('says the queue is empty and no file is at risk, in words', async () => {
    signInAs('admin');
    renderHome(() => ({
      ...EMPTY,
      desk: { queue: { size: 0, oldestWaitingSeconds: null }, atRisk: { total: 0, items: [] } },
    }));
    const desk = within(await screen.findByRole('region', { name: 'Waiting for the desk' }));
    expect(desk.getByText('Nothing waits for review.')).toBeVisible();
    expect(desk.getByText('No file closing within 7 days is missing anything.')).toBeVisible();
  });
});

describe('on a phone', () => {
  beforeEach(() => deviceMatching(PHONE_QUERY));
  afterEach(() => vi.restoreAllMocks());

  it(`shows the first ${PHONE_ATTENTION_ITEMS} items of each group until 'Show all'`, async () => {
    const { user } = renderHome(() => ({
      ...EMPTY,
      missing: {
        total: 12,
        items: Array.from({ length: 10 }, (_, i) => ({
          ...place(2),
          formId: uuid(200 + i),
          label: `Disclosure ${i + 1}`,
        })),
      },
      rejected: { total: 1, items: [{ ...place(1), formId: uuid(101), label: 'Purchase Agreement' }] },
    }));
    await screen.findByRole('heading', { name: 'Missing documents (12)' });
    expect(strip().getAllByRole('link', { name: /^Disclosure/ })).toHaveLength(PHONE_ATTENTION_ITEMS);
    // A group within the few shows whole, with nothing to expand.
    expect(strip().getAllByRole('button', { name: /^Show all/ })).toHaveLength(1);
    await user.click(strip().getByRole('button', { name: 'Show all 10 missing documents' }));
    expect(strip().getAllByRole('link', { name: /^Disclosure/ })).toHaveLength(10);
    expect(strip().getByText('Showing 10 of 12.')).toBeVisible();
  });
});
