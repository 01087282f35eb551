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
  comment,
  reviewer,
  signInAs,
  TRANSACTION_ID,
  transaction,
  uuid,
} from '../test-utils/transactions';
import { deferred, type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { AdminTransaction } from './AdminTransaction';

const DISCLOSURE_ID = checklistForm(2)._id;

const reasons = [
  { code: 'missing-signature', label: 'Missing signature', active: true },
  { code: 'retired', label: 'Retired reason', active: false },
  { code: 'illegible', label: 'Illegible or incomplete scan', active: true },
];

const versions = {
  versions: [
    {
      _id: uuid(802),
      number: 2,
      name: 'disclosure-v2.pdf',
      size: 2048,
      contentType: 'application/pdf',
      sha256: 'b'.repeat(64),
      url: '/files/v2',
      uploadedAt: '2025-03-06T09:00:00.000Z',
      uploadedBy: agent,
      decision: null,
    },
    {
      _id: uuid(801),
      number: 1,
      name: 'disclosure.pdf',
      size: 1024,
      contentType: 'application/pdf',
      sha256: null,
      url: '/files/v1',
      uploadedAt: '2025-03-05T09:00:00.000Z',
      uploadedBy: agent,
      decision: {
        status: 'rejected',
        reasons: [{ code: 'illegible', label: 'Illegible or incomplete scan' }],
        text: 'Blurry',
        at: '2025-03-05T12:00:00.000Z',
        by: reviewer,
      },
    },
  ],
};

/** The fixture's transaction with a file (version 2) waiting for review on the Disclosure Form. */
function withDisclosureFile() {
  const base = transaction();
  return transaction({
    forms: [
      ...base.forms.slice(0, 1),
      checklistForm(2, {
        label: 'Disclosure Form',
        url: '/files/transactions/x/disclosure.pdf?exp=1&sig=abc',
        fileName: 'disclosure.pdf',
        submittedAt: '2025-03-06T09:00:00.000Z',
        version: 2,
      }),
    ],
  });
}

function historyEntry(n: number, overrides: Partial<HistoryEntry>): HistoryEntry {
  return {
    _id: uuid(900 + n),
    action: 'transaction.create',
    entity: 'Transaction',
    entityId: TRANSACTION_ID,
    actor: agent,
    apiKey: null,
    onBehalfOf: null,
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
  // A coordinator's upload, made for the agent: the row names both.
  historyEntry(2, {
    action: 'form.upload',
    actor: { _id: uuid(950), firstName: 'Cora', lastName: 'Coordinator' },
    onBehalfOf: agent,
    after: { label: 'Purchase Agreement', status: 'pending' },
  }),
  historyEntry(1, { action: 'transaction.create', actor: null }),
];

function renderAdminDetail(handlers: Record<string, StubHandler>) {
  const stub = stubTrpcClient({
    'adminTransactions.get': () => withDisclosureFile(),
    'adminTransactions.history': () => history,
    'keyDates.list': () => ({ dates: [], suggestedKinds: [] }),
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

// The page is compiled on its first render: on a loaded two-core machine that alone neared 5 s.
describe('Transaction detail (admin)', { timeout: 30_000 }, () => {
  it('warns about an empty comment without calling the server', async () => {
    const { user, stub } = renderAdminDetail({});
    const card = await disclosureCard();
    // The reviewer's box opens on demand too.
    expect(card.queryByRole('textbox', { name: 'Comment' })).not.toBeInTheDocument();
    await user.click(card.getByRole('button', { name: 'Add a comment' }));
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
      { id: TRANSACTION_ID, formId: DISCLOSURE_ID, status: 'accepted', version: 2 },
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
    await user.click(card.getByRole('button', { name: 'Add a comment' }));
    await user.type(card.getByRole('textbox', { name: 'Comment' }), '  Missing signature ');
    await user.click(card.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Form Accepted/Rejected successfully!')).toBeVisible();
    expect(stub.callsTo('adminTransactions.review')).toEqual([
      {
        id: TRANSACTION_ID,
        formId: DISCLOSURE_ID,
        status: 'rejected',
        version: 2,
        text: 'Missing signature',
      },
    ]);
    // Sent, the box closes.
    expect(card.queryByRole('textbox', { name: 'Comment' })).not.toBeInTheDocument();
  });

  it('a comment without a decision is a review with text only', async () => {
    const { user, stub } = renderAdminDetail({
      'adminTransactions.review': () => checklistForm(2, { label: 'Disclosure Form' }),
    });
    const card = await disclosureCard();
    await user.click(card.getByRole('button', { name: 'Add a comment' }));
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
    await user.click(card.getByRole('button', { name: 'Add a comment' }));
    await user.type(card.getByRole('textbox', { name: 'Comment' }), 'Wrong year');
    await user.click(card.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Failed to update. Please try again.')).toBeVisible();
    expect(card.getByRole('textbox', { name: 'Comment' })).toHaveValue('Wrong year');
    expect(card.getByRole('button', { name: 'Reject' })).toBeEnabled();
  });

  it('offers Accept and Reject only on an item with a file, saying why otherwise', async () => {
    renderAdminDetail({ 'adminTransactions.get': () => transaction() });
    const card = await disclosureCard();
    for (const name of ['Accept', 'Reject']) {
      const button = card.getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription('There is no file to review');
    }
    expect(card.getByTestId('form-state')).toHaveTextContent('Required · Missing');
  });

  it('Reject opens the reasons and the box; a rejection without either is refused here', async () => {
    const { user, stub } = renderAdminDetail({
      'rejectionReasons.list': () => reasons,
      'adminTransactions.review': () => checklistForm(2, { label: 'Disclosure Form', status: 'rejected' }),
    });
    const card = await disclosureCard();
    await user.click(card.getByRole('button', { name: 'Reject' }));
    expect(card.getByRole('textbox', { name: 'Comment' })).toHaveFocus();
    const chips = within(await card.findByRole('group', { name: 'Rejection reasons' }));
    // Inactive reasons are not offered.
    expect(chips.getAllByRole('checkbox').map((chip) => chip.closest('div')?.textContent)).toEqual([
      'Missing signature',
      'Illegible or incomplete scan',
    ]);

    await user.click(card.getByRole('button', { name: 'Reject' }));
    expect(card.getByText('Give a reason for the rejection')).toBeVisible();
    expect(stub.callsTo('adminTransactions.review')).toEqual([]);

    await user.click(chips.getByRole('checkbox', { name: 'Missing signature' }));
    await user.click(chips.getByRole('checkbox', { name: 'Illegible or incomplete scan' }));
    await user.click(card.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Form Accepted/Rejected successfully!')).toBeVisible();
    expect(stub.callsTo('adminTransactions.review')).toEqual([
      {
        id: TRANSACTION_ID,
        formId: DISCLOSURE_ID,
        status: 'rejected',
        version: 2,
        reasons: ['missing-signature', 'illegible'],
      },
    ]);
  });

  it("shows the server's refusal of a decision in a toast", async () => {
    const { user } = renderAdminDetail({
      'adminTransactions.review': () => {
        throw trpcError(409, 'A newer file (version 3) was attached since: review that one');
      },
    });
    const card = await disclosureCard();
    await user.click(card.getByRole('button', { name: 'Accept' }));
    expect(
      await screen.findByText('A newer file (version 3) was attached since: review that one'),
    ).toBeVisible();
  });

  it('shows the reasons of a rejection in its comment', async () => {
    renderAdminDetail({
      'adminTransactions.get': () =>
        transaction({
          forms: [
            checklistForm(2, {
              label: 'Disclosure Form',
              status: 'rejected',
              version: 1,
              fileName: 'disclosure.pdf',
              comments: [
                comment(3, {
                  role: 'admin',
                  status: 'rejected',
                  text: 'Page 2',
                  user: reviewer,
                  reasons: [
                    { code: 'missing-signature', label: 'Missing signature' },
                    { code: 'illegible', label: 'Illegible or incomplete scan' },
                  ],
                }),
              ],
            }),
          ],
        }),
    });
    const card = await disclosureCard();
    expect(card.getByText('Missing signature · Illegible or incomplete scan')).toBeVisible();
    expect(card.getByTestId('form-state')).toHaveTextContent('Required · Rejected');
  });

  it('History shows every version of the item, loaded when opened', async () => {
    const { user, stub } = renderAdminDetail({ 'transactions.versions': () => versions });
    const card = await disclosureCard();
    expect(card.getByTestId('form-file')).toHaveTextContent(/^disclosure\.pdf · .*2025.* · Version 2$/);
    const toggle = card.getByRole('button', { name: 'History' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(stub.callsTo('transactions.versions')).toEqual([]);
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const list = within(await card.findByRole('list', { name: 'Versions' }));
    expect(list.getByTestId('version-1')).toHaveTextContent('Illegible or incomplete scan');
    expect(list.getByTestId('version-1')).toHaveTextContent(/Rejected by .* on /);
    expect(list.getByTestId('version-2')).toHaveTextContent('Awaiting review');
    expect(list.getByRole('link', { name: 'disclosure-v2.pdf' })).toHaveAttribute('href', '/files/v2');
    expect(stub.callsTo('transactions.versions')).toEqual([{ id: TRANSACTION_ID, formId: DISCLOSURE_ID }]);
    await user.click(toggle);
    expect(card.queryByRole('list', { name: 'Versions' })).not.toBeInTheDocument();
  });

  it('says a version nobody decided was replaced by the next, never "not decided"', async () => {
    const [second, first] = versions.versions;
    const third = { ...second, _id: uuid(803), number: 3, name: 'disclosure-v3.pdf', url: '/files/v3' };
    const { user } = renderAdminDetail({
      'transactions.versions': () => ({ versions: [third, second, { ...first, decision: null }] }),
    });
    const card = await disclosureCard();
    await user.click(card.getByRole('button', { name: 'History' }));
    const list = within(await card.findByRole('list', { name: 'Versions' }));
    expect(list.getByTestId('version-3')).toHaveTextContent('Awaiting review');
    expect(list.getByTestId('version-2')).toHaveTextContent('Replaced by version 3');
    expect(list.getByTestId('version-1')).toHaveTextContent('Replaced by version 2');
    expect(card.queryByText(/not decided/i)).not.toBeInTheDocument();
  });

  it('approves or denies a requested waiver, with the box as an optional note', async () => {
    const requested = transaction({
      forms: [
        checklistForm(2, {
          label: 'Disclosure Form',
          waiver: {
            reason: 'Not applicable: built after 1978',
            status: 'requested',
            requestedAt: '2025-03-06T09:00:00.000Z',
            decidedAt: null,
          },
        }),
      ],
    });
    const { user, stub } = renderAdminDetail({
      'adminTransactions.get': () => requested,
      'adminTransactions.decideWaiver': () => requested.forms[0],
    });
    const card = await disclosureCard();
    expect(card.getByTestId('form-state')).toHaveTextContent('Required · Waiver requested');
    expect(card.getByText('Waiver requested: Not applicable: built after 1978')).toBeVisible();
    // Already asked: no second request.
    expect(card.queryByRole('button', { name: 'Request waiver' })).not.toBeInTheDocument();

    await user.click(card.getByRole('button', { name: 'Approve waiver' }));
    expect(await screen.findByText('Waiver approved')).toBeVisible();
    await user.click(card.getByRole('button', { name: 'Add a comment' }));
    await user.type(card.getByRole('textbox', { name: 'Comment' }), 'A 1990 build');
    await user.click(card.getByRole('button', { name: 'Deny waiver' }));
    expect(await screen.findByText('Waiver denied')).toBeVisible();
    expect(stub.callsTo('adminTransactions.decideWaiver')).toEqual([
      { id: TRANSACTION_ID, formId: DISCLOSURE_ID, approve: true },
      { id: TRANSACTION_ID, formId: DISCLOSURE_ID, approve: false, text: 'A 1990 build' },
    ]);
  });

  it('cannot close a file that is not compliant, and says which documents hold it back', async () => {
    renderAdminDetail({
      'adminTransactions.get': () =>
        transaction({
          forms: [
            checklistForm(1, { label: 'Disclosure', status: 'pending' }),
            checklistForm(2, { label: 'Inspection', status: 'pending', version: 1, fileName: 'i.pdf' }),
            checklistForm(3, { label: 'Deed', status: 'rejected', version: 1, fileName: 'd.pdf' }),
            checklistForm(4, { label: 'Survey', required: false }),
            checklistForm(5, { label: 'Accepted one', status: 'accepted', version: 1 }),
            checklistForm(6, {
              label: 'Lead paint',
              waiver: {
                reason: 'Built 1990',
                status: 'approved',
                requestedAt: '2025-03-06T09:00:00.000Z',
                decidedAt: '2025-03-07T09:00:00.000Z',
              },
            }),
          ],
        }),
    });
    const close = await screen.findByRole('button', { name: 'Close transaction' });
    expect(close).toBeDisabled();
    const why = 'Not compliant yet: Disclosure (missing), Inspection (awaiting review), Deed (rejected)';
    expect(close).toHaveAccessibleDescription(why);
    expect(screen.getByTestId('not-compliant')).toHaveTextContent(why);
    expect(within(screen.getByTestId('form-Survey')).getByTestId('form-state')).toHaveTextContent(
      'Optional · Missing',
    );
    expect(within(screen.getByTestId('form-Lead paint')).getByTestId('form-state')).toHaveTextContent(
      'Required · Waived',
    );
  });

  it('closes a compliant file; a closed one shows the banner and Reopen', async () => {
    let closedAt: string | null = null;
    const compliantFile = () =>
      transaction({
        compliant: true,
        status: closedAt ? 'closed' : 'compliant',
        closedAt,
        forms: [checklistForm(2, { label: 'Disclosure Form', status: 'accepted', version: 1 })],
      });
    const { user, stub } = renderAdminDetail({
      'adminTransactions.get': () => compliantFile(),
      'adminTransactions.close': () => {
        closedAt = '2025-04-01T10:00:00.000Z';
        return compliantFile();
      },
      'adminTransactions.reopen': () => {
        closedAt = null;
        return compliantFile();
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Close transaction' }));
    expect(await screen.findByText('This transaction is closed')).toBeVisible();
    expect(stub.callsTo('adminTransactions.close')).toEqual([{ id: TRANSACTION_ID }]);
    const card = await disclosureCard();
    expect(card.getByRole('button', { name: 'Upload' })).toBeDisabled();
    expect(card.getByRole('button', { name: 'Reject' })).toBeDisabled();
    expect(card.getByRole('button', { name: 'Add a comment' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Reopen' }));
    await waitFor(() => expect(screen.queryByText('This transaction is closed')).not.toBeInTheDocument());
    expect(stub.callsTo('adminTransactions.reopen')).toEqual([{ id: TRANSACTION_ID }]);
    expect(screen.getByRole('button', { name: 'Close transaction' })).toBeEnabled();
  });

  it('shows the retention of a closed file; the legal hold needs a reason, then shows it', async () => {
    let held = false;
    const closedFile = () =>
      transaction({
        status: 'closed',
        closedAt: '2025-04-01T10:00:00.000Z',
        retainUntil: '2032-04-01',
        legalHold: held,
        legalHoldReason: held ? 'Subpoena 26-CV-0412' : null,
      });
    const { user, stub } = renderAdminDetail({
      'adminTransactions.get': () => closedFile(),
      'adminTransactions.legalHold': () => {
        held = true;
        return closedFile();
      },
    });
    expect(await screen.findByText('Kept until 2032-04-01')).toBeVisible();
    const toggle = screen.getByRole('switch', { name: 'Legal hold' });
    expect(toggle).not.toBeChecked();

    await user.click(toggle);
    const dialog = within(await screen.findByRole('dialog', { name: 'Place a legal hold' }));
    await user.click(dialog.getByRole('button', { name: 'Place hold' }));
    expect(dialog.getByText('Give a reason for the legal hold')).toBeVisible();
    expect(stub.callsTo('adminTransactions.legalHold')).toEqual([]);

    await user.type(dialog.getByRole('textbox', { name: /Reason/ }), '  Subpoena 26-CV-0412 ');
    await user.click(dialog.getByRole('button', { name: 'Place hold' }));
    expect(await screen.findByText('Under legal hold: Subpoena 26-CV-0412')).toBeVisible();
    expect(stub.callsTo('adminTransactions.legalHold')).toEqual([
      { id: TRANSACTION_ID, hold: true, reason: 'Subpoena 26-CV-0412' },
    ]);
    expect(screen.getByRole('switch', { name: 'Legal hold' })).toBeChecked();
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

  it('lists the history newest first, with the actor (and whom a coordinator acted for) or System', async () => {
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
      ['Cora Coordinator for Dana Agent', 'Uploaded a file for "Purchase Agreement"'],
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
    expect(say({ action: 'transaction.commission' })).toBe('Set the commission');
    expect(say({ action: 'cda.issued', after: { version: 2, override: null } })).toBe(
      'Issued the CDA, version 2',
    );
    expect(
      say({ action: 'cda.issued', after: { version: 1, override: { reason: 'Broker approved' } } }),
    ).toBe('Issued the CDA, version 1, overriding compliance: Broker approved');
    expect(say({ action: 'cda.paid', after: { status: 'paid' } })).toBe('Marked the CDA paid');
    expect(
      say({
        action: 'transaction.update',
        before: { city: 'Santa Monica', zip: '90401', isTitleReport: false },
        after: { city: 'Venice', zip: '90401', isTitleReport: true },
      }),
    ).toBe('Updated the transaction (City, Title Report)');
    expect(
      say({
        action: 'transaction.update',
        before: { city: 'Venice', facts: { yearBuilt: 1990 } },
        after: {
          city: 'Venice',
          facts: { yearBuilt: 1965 },
          checklist: {
            added: ['Lead-Based Paint Disclosure'],
            removed: [],
            nowRequired: [],
            nowOptional: ['X'],
          },
        },
      }),
    ).toBe(
      'Updated the transaction (Facts); the checklist now requires Lead-Based Paint Disclosure; keeps as optional X',
    );
    expect(
      say({
        action: 'transaction.checklist',
        after: { checklist: { added: [], removed: ['HOA Documents'], nowRequired: [], nowOptional: [] } },
      }),
    ).toBe("The template's rules changed the checklist: it no longer needs HOA Documents");
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
