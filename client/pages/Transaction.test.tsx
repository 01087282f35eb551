import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { TransactionForm } from '../../shared/schemas/transactions';
import { RestError } from '../api/errors';
import { uploadFile } from '../api/upload';
import { paths } from '../paths';
import { field } from '../test-utils/forms';
import { renderWithProviders } from '../test-utils/render';
import {
  checklistForm,
  signInAs,
  TRANSACTION_ID,
  transaction,
  USER_ID,
  uploadAnswer,
} from '../test-utils/transactions';
import { deferred, type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { Transaction } from './Transaction';

// The XMLHttpRequest helper has its own tests; here it is the page's boundary.
vi.mock('../api/upload', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/upload')>()),
  uploadFile: vi.fn(),
}));

function renderDetail(handlers: Record<string, StubHandler>) {
  const stub = stubTrpcClient({ 'keyDates.list': () => ({ dates: [], suggestedKinds: [] }), ...handlers });
  const view = renderWithProviders(
    <Route path={paths.transaction}>
      <Transaction />
    </Route>,
    { path: `/home/transactions/${TRANSACTION_ID}`, trpcClient: stub.client },
  );
  return { ...view, stub };
}

const formCard = (label: string) => within(screen.getByTestId(`form-${label}`));

beforeEach(() => signInAs('user'));
afterEach(() => {
  notifications.clean();
  vi.mocked(uploadFile).mockReset();
});

// The page is compiled on its first render: on a loaded two-core machine that alone neared 5 s.
describe('Transaction detail (agent)', { timeout: 30_000 }, () => {
  it('shows the address and one card per form with status, View and comments', async () => {
    const { stub, user } = renderDetail({ 'transactions.get': () => transaction() });
    expect(screen.getByRole('heading', { level: 1, name: 'Transaction' })).toBeVisible();
    expect(
      await screen.findByRole('heading', { level: 2, name: '12 Ocean Avenue, Santa Monica, CA 90401' }),
    ).toBeVisible();
    expect(stub.callsTo('transactions.get')).toEqual([{ id: TRANSACTION_ID, userId: USER_ID }]);

    const agreement = formCard('Purchase Agreement');
    expect(agreement.getByTestId('form-status')).toHaveTextContent(/^Accepted$/);
    const view = agreement.getByRole('link', { name: 'View' });
    expect(view).toHaveAttribute('href', '/files/transactions/x/agreement.pdf?exp=1&sig=abc');
    expect(view).toHaveAttribute('target', '_blank');
    expect(view.getAttribute('rel')).toContain('noopener');
    expect(agreement.getByText('Signed copy attached')).toBeVisible();
    expect(agreement.getByText('Rita Reviewer')).toBeVisible();
    // The comment's decision, in the badge's words.
    expect(agreement.getByText('Rita Reviewer').closest('li')).toHaveTextContent('Accepted');
    // Agents have no review buttons.
    expect(agreement.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();

    // The comment box opens on demand (a dozen empty boxes made the page 2,600 px tall).
    expect(agreement.queryByRole('textbox', { name: 'Comment' })).not.toBeInTheDocument();
    await user.click(agreement.getByRole('button', { name: 'Add a comment' }));
    // Inside a card, 'Comment' names the comment box alone (browser tests fill it by label).
    expect(agreement.getAllByLabelText(/comment/i)).toEqual([
      agreement.getByRole('textbox', { name: 'Comment' }),
    ]);
    expect(agreement.getByRole('textbox', { name: 'Comment' })).toHaveFocus();
    expect(agreement.queryByRole('button', { name: 'Add a comment' })).not.toBeInTheDocument();

    const disclosure = formCard('Disclosure Form');
    expect(disclosure.getByTestId('form-status')).toHaveTextContent(/^Pending$/);
    // Nothing uploaded yet: nothing to view.
    expect(disclosure.queryByRole('link', { name: 'View' })).not.toBeInTheDocument();
    expect(disclosure.getByRole('button', { name: 'View' })).toBeDisabled();
  });

  it('says the transaction was not found, with a way back, on a 404', async () => {
    renderDetail({
      'transactions.get': () => {
        throw trpcError(404, 'Not found');
      },
    });
    expect(await screen.findByRole('heading', { name: 'Transaction not found' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to transactions' })).toHaveAttribute('href', '/home');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('ignores an empty comment and posts a trimmed one', async () => {
    let current = transaction();
    const { user, stub } = renderDetail({
      'transactions.get': () => current,
      'transactions.addComment': (input) => {
        const { text } = input as { text: string };
        current = transaction({ forms: [checklistForm(2, { label: 'Disclosure Form', comments: [] })] });
        current.forms[0]?.comments.push({
          _id: '00000000-0000-4000-8000-000000000999',
          text,
          role: 'user',
          status: null,
          reasons: [],
          createdAt: '2025-03-06T10:00:00.000Z',
          user: { _id: USER_ID, firstName: 'Dana', lastName: 'Agent' },
        });
        return current.forms[0]?.comments[0];
      },
    });
    await screen.findByTestId('form-Disclosure Form');
    const card = formCard('Disclosure Form');

    await user.click(card.getByRole('button', { name: 'Add a comment' }));
    await user.type(card.getByRole('textbox', { name: 'Comment' }), '   ');
    await user.click(card.getByRole('button', { name: 'Post comment' }));
    expect(stub.callsTo('transactions.addComment')).toEqual([]);
    expect(screen.queryByText('Please enter a comment before posting.')).not.toBeInTheDocument();

    await user.type(card.getByRole('textbox', { name: 'Comment' }), ' Uploaded the signed copy ');
    await user.click(card.getByRole('button', { name: 'Post comment' }));
    expect(await screen.findByText('Comment added successfully!')).toBeVisible();
    expect(stub.callsTo('transactions.addComment')).toEqual([
      { id: TRANSACTION_ID, formId: checklistForm(2)._id, text: 'Uploaded the signed copy' },
    ]);
    expect(await formCard('Disclosure Form').findByText('Uploaded the signed copy')).toBeVisible();
    // Posted, the box closes again.
    expect(formCard('Disclosure Form').queryByRole('textbox', { name: 'Comment' })).not.toBeInTheDocument();
    expect(formCard('Disclosure Form').getByRole('button', { name: 'Add a comment' })).toBeVisible();
  });

  it('opens one comment box at a time on demand and closes it on Cancel', async () => {
    const { user } = renderDetail({ 'transactions.get': () => transaction() });
    await screen.findByTestId('form-Disclosure Form');
    expect(screen.queryAllByRole('textbox', { name: 'Comment' })).toEqual([]);

    const card = formCard('Disclosure Form');
    await user.click(card.getByRole('button', { name: 'Add a comment' }));
    await user.type(card.getByRole('textbox', { name: 'Comment' }), 'Half a thought');
    expect(screen.getAllByRole('textbox', { name: 'Comment' })).toHaveLength(1);

    await user.click(card.getByRole('button', { name: 'Cancel' }));
    expect(card.queryByRole('textbox', { name: 'Comment' })).not.toBeInTheDocument();
    // Opened again, it starts empty.
    await user.click(card.getByRole('button', { name: 'Add a comment' }));
    expect(card.getByRole('textbox', { name: 'Comment' })).toHaveValue('');
  });

  it('uploads with a progress bar, then stores the key on the form', async () => {
    const upload = deferred<Awaited<ReturnType<typeof uploadFile>>>();
    let report: (percent: number) => void = () => {};
    vi.mocked(uploadFile).mockImplementation((_path, _file, onProgress) => {
      report = onProgress ?? report;
      return upload.promise;
    });
    const { user, stub } = renderDetail({
      'transactions.get': () => transaction(),
      'transactions.setFormFile': () => checklistForm(2, { label: 'Disclosure Form', url: '/files/k' }),
    });
    await screen.findByTestId('form-Disclosure Form');
    const card = screen.getByTestId('form-Disclosure Form');
    const input = card.querySelector('input[type="file"]');
    if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
    const file = new File(['%PDF-1.7'], 'disclosure.pdf', { type: 'application/pdf' });
    await user.upload(input, file);

    expect(vi.mocked(uploadFile)).toHaveBeenCalledWith(
      `/api/uploads/transactions/${TRANSACTION_ID}`,
      file,
      expect.any(Function),
    );
    report(40);
    expect(await within(card).findByText('40%')).toBeVisible();
    expect(within(card).getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute(
      'aria-valuenow',
      '40',
    );
    expect(within(card).getByText('disclosure.pdf · Uploading')).toBeVisible();

    upload.resolve(
      uploadAnswer('disclosure.pdf', {
        key: `transactions/${TRANSACTION_ID}/abc-disclosure.pdf`,
        url: '/files/signed',
      }),
    );
    expect(await screen.findByText('File uploaded successfully!')).toBeVisible();
    expect(stub.callsTo('transactions.setFormFile')).toEqual([
      {
        id: TRANSACTION_ID,
        formId: checklistForm(2)._id,
        url: `transactions/${TRANSACTION_ID}/abc-disclosure.pdf`,
      },
    ]);
    await waitFor(() => expect(within(card).queryByRole('progressbar')).not.toBeInTheDocument());
    // The page reloads the transaction to show the new file and status.
    await waitFor(() => expect(stub.callsTo('transactions.get')).toHaveLength(2));
  });

  it('reports a refused upload and does not touch the form', async () => {
    vi.mocked(uploadFile).mockRejectedValue(
      new RestError(415, 'Unsupported media type', 'UNSUPPORTED_MEDIA_TYPE'),
    );
    const { user, stub } = renderDetail({ 'transactions.get': () => transaction() });
    await screen.findByTestId('form-Disclosure Form');
    const input = screen.getByTestId('form-Disclosure Form').querySelector('input[type="file"]');
    if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
    await user.upload(input, new File(['x'], 'scan.png', { type: 'image/png' }));
    // Beside the item, named, until dismissed: a failed file is never lost from sight.
    const card = formCard('Disclosure Form');
    expect(await card.findByText('Failed to upload file')).toBeVisible();
    expect(card.getByText('scan.png: Unsupported media type')).toBeVisible();
    await user.click(card.getByRole('button', { name: 'Dismiss the message about scan.png' }));
    expect(card.queryByText('Failed to upload file')).not.toBeInTheDocument();
    expect(stub.callsTo('transactions.setFormFile')).toEqual([]);
  });

  it('says so when the uploaded file cannot be recorded on the form', async () => {
    vi.mocked(uploadFile).mockResolvedValue({
      key: 'transactions/x/y.pdf',
      url: '/files/y',
      name: 'y.pdf',
      size: 1,
      contentType: 'application/pdf',
      sha256: 'a'.repeat(64),
      duplicateOf: null,
      pages: 1,
      warnings: [],
      suggestions: [],
    });
    const { user } = renderDetail({
      'transactions.get': () => transaction(),
      'transactions.setFormFile': () => {
        throw trpcError(400, 'This file does not belong to this transaction');
      },
    });
    await screen.findByTestId('form-Disclosure Form');
    const input = screen.getByTestId('form-Disclosure Form').querySelector('input[type="file"]');
    if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
    await user.upload(input, new File(['%PDF'], 'y.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('Failed to update file URL')).toBeVisible();
    expect(screen.queryByText('File uploaded successfully!')).not.toBeInTheDocument();
  });

  it('says each item: required or optional, its state, its file and version', async () => {
    renderDetail({
      'transactions.get': () =>
        transaction({
          forms: [
            checklistForm(1, { label: 'Missing one' }),
            checklistForm(2, {
              label: 'Waiting one',
              version: 3,
              fileName: 'scan-3.pdf',
              url: '/files/3',
              submittedAt: '2025-03-06T09:00:00.000Z',
            }),
            checklistForm(3, { label: 'Accepted one', status: 'accepted', version: 1, fileName: 'a.pdf' }),
            checklistForm(4, { label: 'Rejected one', status: 'rejected', version: 1, fileName: 'r.pdf' }),
            checklistForm(5, { label: 'Optional one', required: false }),
            checklistForm(6, {
              label: 'Waived one',
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
    await screen.findByTestId('form-Missing one');
    const state = (label: string) => formCard(label).getByTestId('form-state').textContent;
    expect(state('Missing one')).toBe('Required · Missing');
    expect(state('Waiting one')).toBe('Required · Awaiting review');
    expect(state('Accepted one')).toBe('Required · Accepted');
    expect(state('Rejected one')).toBe('Required · Rejected');
    expect(state('Optional one')).toBe('Optional · Missing');
    expect(state('Waived one')).toBe('Required · Waived');
    // The stored status word stays on its badge (browser tests read it).
    expect(formCard('Waiting one').getByTestId('form-status')).toHaveTextContent(/^Pending$/);
    expect(formCard('Waiting one').getByTestId('form-file')).toHaveTextContent(
      /^scan-3\.pdf · .*2025.* · Version 3$/,
    );
    expect(formCard('Missing one').queryByTestId('form-file')).not.toBeInTheDocument();
    expect(formCard('Missing one').queryByRole('button', { name: 'History' })).not.toBeInTheDocument();
    // A waiver only where it could help: required, not accepted, not already waived or asked.
    expect(formCard('Missing one').getByRole('button', { name: 'Request waiver' })).toBeEnabled();
    expect(formCard('Rejected one').getByRole('button', { name: 'Request waiver' })).toBeEnabled();
    for (const label of ['Accepted one', 'Optional one', 'Waived one'])
      expect(formCard(label).queryByRole('button', { name: 'Request waiver' })).not.toBeInTheDocument();
    expect(formCard('Waived one').getByText('Waived: Built 1990')).toBeVisible();
  });

  it('asks for a waiver in a dialog whose reason is required', async () => {
    let waiver: TransactionForm['waiver'] = null;
    const current = () => transaction({ forms: [checklistForm(2, { label: 'Disclosure Form', waiver })] });
    const { user, stub } = renderDetail({
      'transactions.get': () => current(),
      'transactions.requestWaiver': (input) => {
        waiver = {
          reason: (input as { reason: string }).reason,
          status: 'requested',
          requestedAt: '2025-03-06T09:00:00.000Z',
          decidedAt: null,
        };
        return current().forms[0];
      },
    });
    await screen.findByTestId('form-Disclosure Form');
    await user.click(formCard('Disclosure Form').getByRole('button', { name: 'Request waiver' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Request a waiver: Disclosure Form' }));
    const reason = dialog.getByRole('textbox', { name: 'Reason' });
    expect(reason).toHaveAttribute('placeholder', 'Not applicable: built after 1978');
    await user.type(reason, '   ');
    await user.click(dialog.getByRole('button', { name: 'Request waiver' }));
    expect(dialog.getByText('Reason is required')).toBeVisible();
    expect(stub.callsTo('transactions.requestWaiver')).toEqual([]);

    await user.type(reason, ' Built in 1990 ');
    await user.click(dialog.getByRole('button', { name: 'Request waiver' }));
    expect(await screen.findByText('Waiver requested')).toBeVisible();
    expect(stub.callsTo('transactions.requestWaiver')).toEqual([
      { id: TRANSACTION_ID, formId: checklistForm(2)._id, reason: 'Built in 1990' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const card = formCard('Disclosure Form');
    await waitFor(() =>
      expect(card.getByTestId('form-state')).toHaveTextContent('Required · Waiver requested'),
    );
    expect(card.getByText('Waiver requested: Built in 1990')).toBeVisible();
    expect(card.queryByRole('button', { name: 'Request waiver' })).not.toBeInTheDocument();
    // The agent decides nothing.
    expect(card.queryByRole('button', { name: 'Approve waiver' })).not.toBeInTheDocument();
  });

  it('a closed transaction: a banner, no upload, waiver or address change, comments still', async () => {
    const { user, stub } = renderDetail({
      'transactions.get': () =>
        transaction({ status: 'closed', compliant: false, closedAt: '2025-04-01T10:00:00.000Z' }),
      'transactions.addComment': () => checklistForm(2).comments,
    });
    expect(await screen.findByText('This transaction is closed')).toBeVisible();
    const card = formCard('Disclosure Form');
    expect(card.getByRole('button', { name: 'Upload' })).toBeDisabled();
    expect(card.getByRole('button', { name: 'Request waiver' })).toBeDisabled();
    expect(field('City')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();

    await user.click(card.getByRole('button', { name: 'Add a comment' }));
    await user.type(card.getByRole('textbox', { name: 'Comment' }), 'Thanks');
    await user.click(card.getByRole('button', { name: 'Post comment' }));
    await waitFor(() => expect(stub.callsTo('transactions.addComment')).toHaveLength(1));
  });

  it('warns when the uploaded file is already attached to another item, and keeps it', async () => {
    const { user, stub } = renderDetail({
      'transactions.get': () => transaction(),
      'transactions.setFormFile': () => checklistForm(2, { label: 'Disclosure Form', url: '/files/k' }),
    });
    const answer = (duplicateOf: { formId: string; label: string } | null) =>
      uploadAnswer('dup.pdf', { url: '/files/dup', sha256: 'c'.repeat(64), duplicateOf });
    await screen.findByTestId('form-Disclosure Form');
    const input = screen.getByTestId('form-Disclosure Form').querySelector('input[type="file"]');
    if (!(input instanceof HTMLInputElement)) throw new Error('no file input');

    // The same bytes as this very item's current file: no warning.
    vi.mocked(uploadFile).mockResolvedValueOnce(
      answer({ formId: checklistForm(2)._id, label: 'Disclosure Form' }),
    );
    await user.upload(input, new File(['%PDF'], 'dup.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('File uploaded successfully!')).toBeVisible();
    expect(screen.queryByText(/The same file is already attached/)).not.toBeInTheDocument();
    notifications.clean();

    vi.mocked(uploadFile).mockResolvedValueOnce(
      answer({ formId: checklistForm(1)._id, label: 'Purchase Agreement' }),
    );
    await user.upload(input, new File(['%PDF'], 'dup.pdf', { type: 'application/pdf' }));
    expect(
      await screen.findByText('The same file is already attached to "Purchase Agreement"'),
    ).toBeVisible();
    expect(stub.callsTo('transactions.setFormFile')).toHaveLength(2);
  });

  it('updates the address, toasts and goes back to /home', async () => {
    const { user, stub, currentPath } = renderDetail({
      'transactions.get': () => transaction(),
      'transactions.update': () => transaction({ city: 'Venice' }),
    });
    await waitFor(() => expect(field('City')).toHaveValue('Santa Monica'));
    await user.clear(field('City'));
    await user.type(field('City'), ' Venice ');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Transaction updated successfully!')).toBeVisible();
    expect(stub.callsTo('transactions.update')).toEqual([
      {
        id: TRANSACTION_ID,
        userId: USER_ID,
        streetAddress: '12 Ocean Avenue',
        city: 'Venice',
        state: 'CA',
        zip: '90401',
      },
    ]);
    expect(currentPath()).toBe('/home');
  });

  it('requires the address fields, with the product messages', async () => {
    const { user, stub } = renderDetail({ 'transactions.get': () => transaction() });
    await waitFor(() => expect(field('City')).toHaveValue('Santa Monica'));
    for (const label of ['Street Address', 'City', 'State', 'Zip']) await user.clear(field(label));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    for (const message of [
      'Street Address is required',
      'City is required',
      'State is required',
      'Zip Code is required',
    ]) {
      expect(await screen.findByText(message)).toBeVisible();
    }
    expect(stub.callsTo('transactions.update')).toEqual([]);
    // The agent's form has no admin checkboxes.
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('alerts when the update fails and stays on the page', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { user, currentPath } = renderDetail({
      'transactions.get': () => transaction(),
      'transactions.update': () => {
        throw trpcError(500, 'Internal server error');
      },
    });
    await waitFor(() => expect(field('City')).toHaveValue('Santa Monica'));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith('Failed to update transaction. Please try again.'),
    );
    expect(currentPath()).toBe(`/home/transactions/${TRANSACTION_ID}`);
    alert.mockRestore();
  });
});
