import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { HistoryEntry } from '../../shared/schemas/transactions';
import { describeHistoryEntry } from '../components/transactions/TransactionHistory';
import { paths } from '../paths';
import { field } from '../test-utils/forms';
import { renderWithProviders } from '../test-utils/render';
import {
  agent,
  checklistForm,
  reviewer,
  signInAs,
  TRANSACTION_ID,
  transaction,
  uuid,
} from '../test-utils/transactions';
import { deferred, type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { AdminTransaction } from './AdminTransaction';

const DISCLOSURE_ID = checklistForm(2)._id;

function historyEntry(n: number, overrides: Partial<HistoryEntry>): HistoryEntry {
  return {
    _id: uuid(900 + n),
    action: 'transaction.create',
    entity: 'Transaction',
    entityId: TRANSACTION_ID,
    actor: agent,
    before: null,
    after: null,
    createdAt: '2025-03-04T14:05:00.000Z',
    ...overrides,
  };
}

const history: HistoryEntry[] = [
  historyEntry(3, {
    action: 'form.review',
    actor: reviewer,
    after: { label: 'Purchase Agreement', status: 'accepted' },
  }),
  historyEntry(2, { action: 'form.upload', after: { label: 'Purchase Agreement', status: 'pending' } }),
  historyEntry(1, { action: 'transaction.create', actor: null }),
];

function renderAdminDetail(handlers: Record<string, StubHandler>) {
  const stub = stubTrpcClient({
    'adminTransactions.get': () => transaction(),
    'adminTransactions.history': () => history,
    ...handlers,
  });
  const view = renderWithProviders(
    <Route path={paths.adminTransaction}>
      <AdminTransaction />
    </Route>,
    { path: `/adminTransactions/transactions/${TRANSACTION_ID}`, trpcClient: stub.client },
  );
  return { ...view, stub };
}

async function disclosureCard() {
  return within(await screen.findByTestId('form-Disclosure Form'));
}

beforeEach(() => signInAs('admin'));
afterEach(() => notifications.clean());

describe('Transaction detail (admin)', () => {
  it('warns about an empty comment without calling the server', async () => {
    const { user, stub } = renderAdminDetail({});
    const card = await disclosureCard();
    await user.type(card.getByRole('textbox', { name: 'Comment' }), '   ');
    await user.click(card.getByRole('button', { name: 'Post comment' }));
    expect(card.getByText('Please enter a comment before posting.')).toBeVisible();
    expect(stub.callsTo('adminTransactions.review')).toEqual([]);
  });

  it('Accept sends the decision alone, toasts and reloads the transaction and its history', async () => {
    const answer = deferred();
    const { user, stub } = renderAdminDetail({ 'adminTransactions.review': () => answer.promise });
    const card = await disclosureCard();
    await user.click(card.getByRole('button', { name: 'Accept' }));
    expect(stub.callsTo('adminTransactions.review')).toEqual([
      { id: TRANSACTION_ID, formId: DISCLOSURE_ID, status: 'accepted' },
    ]);
    // One decision at a time.
    expect(card.getByRole('button', { name: 'Reject' })).toBeDisabled();

    answer.resolve(checklistForm(2, { label: 'Disclosure Form', status: 'accepted' }));
    expect(await screen.findByText('Form Accepted/Rejected successfully!')).toBeVisible();
    await waitFor(() => expect(stub.callsTo('adminTransactions.get')).toHaveLength(2));
    expect(stub.callsTo('adminTransactions.history')).toHaveLength(2);
  });

  it('Reject sends the comment box along and clears it', async () => {
    const { user, stub } = renderAdminDetail({
      'adminTransactions.review': () => checklistForm(2, { label: 'Disclosure Form', status: 'rejected' }),
    });
    const card = await disclosureCard();
    await user.type(card.getByRole('textbox', { name: 'Comment' }), '  Missing signature ');
    await user.click(card.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Form Accepted/Rejected successfully!')).toBeVisible();
    expect(stub.callsTo('adminTransactions.review')).toEqual([
      { id: TRANSACTION_ID, formId: DISCLOSURE_ID, status: 'rejected', text: 'Missing signature' },
    ]);
    expect(card.getByRole('textbox', { name: 'Comment' })).toHaveValue('');
  });

  it('a comment without a decision is a review with text only', async () => {
    const { user, stub } = renderAdminDetail({
      'adminTransactions.review': () => checklistForm(2, { label: 'Disclosure Form' }),
    });
    const card = await disclosureCard();
    await user.type(card.getByRole('textbox', { name: 'Comment' }), 'Please resend page 2');
    await user.click(card.getByRole('button', { name: 'Post comment' }));
    expect(await screen.findByText('Comment added successfully!')).toBeVisible();
    expect(stub.callsTo('adminTransactions.review')).toEqual([
      { id: TRANSACTION_ID, formId: DISCLOSURE_ID, text: 'Please resend page 2' },
    ]);
  });

  it('says the review failed and keeps the comment', async () => {
    const { user } = renderAdminDetail({
      'adminTransactions.review': () => {
        throw trpcError(500, 'Internal server error');
      },
    });
    const card = await disclosureCard();
    await user.type(card.getByRole('textbox', { name: 'Comment' }), 'Wrong year');
    await user.click(card.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Failed to update. Please try again.')).toBeVisible();
    expect(card.getByRole('textbox', { name: 'Comment' })).toHaveValue('Wrong year');
    expect(card.getByRole('button', { name: 'Reject' })).toBeEnabled();
  });

  it('saves the address and the three checkboxes, then returns to the admin list', async () => {
    const { user, stub, currentPath } = renderAdminDetail({
      'adminTransactions.get': () =>
        transaction({ forms: [checklistForm(3, { label: 'Preliminary Title Report' })] }),
      'adminTransactions.update': () => transaction({ isTitleReport: true }),
    });
    await waitFor(() => expect(field('City')).toHaveValue('Santa Monica'));
    // A document named like a checkbox must not answer to its label (browser tests look it up so).
    await screen.findByTestId('form-Preliminary Title Report');
    expect(screen.getAllByLabelText(/Title Report/)).toEqual([
      screen.getByRole('checkbox', { name: 'Title Report' }),
    ]);
    expect(screen.getByRole('checkbox', { name: 'Transaction Coordinator' })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Title Report' }));
    await user.click(screen.getByRole('checkbox', { name: 'Natural Hazard Disclosure' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Transaction updated successfully!')).toBeVisible();
    expect(stub.callsTo('adminTransactions.update')).toEqual([
      {
        id: TRANSACTION_ID,
        streetAddress: '12 Ocean Avenue',
        city: 'Santa Monica',
        state: 'CA',
        zip: '90401',
        isTransactionCoordinator: false,
        isTitleReport: true,
        isNaturalHazardDisclosure: true,
      },
    ]);
    expect(currentPath()).toBe('/adminTransactions');
  });

  it('alerts when the save fails', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { user, currentPath } = renderAdminDetail({
      'adminTransactions.update': () => {
        throw trpcError(500, 'Internal server error');
      },
    });
    await waitFor(() => expect(field('City')).toHaveValue('Santa Monica'));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith('Failed to update transaction. Please try again.'),
    );
    expect(currentPath()).toBe(`/adminTransactions/transactions/${TRANSACTION_ID}`);
    alert.mockRestore();
  });

  it('lists the history newest first, with the actor or System', async () => {
    renderAdminDetail({});
    const section = within(await screen.findByRole('region', { name: 'History' }));
    await section.findByText('Accepted "Purchase Agreement"');
    const rows = section
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(1)
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['Rita Reviewer', 'Accepted "Purchase Agreement"'],
      ['Dana Agent', 'Uploaded a file for "Purchase Agreement"'],
      ['System', 'Created the transaction'],
    ]);
  });

  it('says the transaction was not found, with a way back to the admin list', async () => {
    const { stub } = renderAdminDetail({
      'adminTransactions.get': () => {
        throw trpcError(404, 'Not found');
      },
    });
    expect(await screen.findByRole('heading', { name: 'Transaction not found' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to admin transactions' })).toHaveAttribute(
      'href',
      '/adminTransactions',
    );
    expect(stub.callsTo('adminTransactions.history')).toEqual([]);
  });
});

describe('history in words', () => {
  it('describes each recorded action', () => {
    const say = (overrides: Partial<HistoryEntry>) => describeHistoryEntry(historyEntry(1, overrides));
    expect(say({ action: 'transaction.delete' })).toBe('Deleted the transaction');
    expect(
      say({
        action: 'transaction.update',
        before: { city: 'Santa Monica', zip: '90401', isTitleReport: false },
        after: { city: 'Venice', zip: '90401', isTitleReport: true },
      }),
    ).toBe('Updated the transaction (City, Title Report)');
    expect(say({ action: 'form.review', after: { label: 'Deed', status: 'rejected' } })).toBe(
      'Rejected "Deed"',
    );
    expect(say({ action: 'comment.create', after: { form: 'Deed', text: 'hi' } })).toBe(
      'Commented on "Deed"',
    );
    expect(say({ action: 'form.upload', after: null })).toBe('Uploaded a file for a document');
    expect(say({ action: 'something.new' })).toBe('something.new');
  });
});
