import { notifications } from '@mantine/notifications';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { esignMessages } from '../../../shared/esign-messages';
import type { SignatureRequest } from '../../../shared/schemas/esign';
import { Transaction } from '../../pages/Transaction';
import { paths } from '../../paths';
import { renderWithProviders } from '../../test-utils/render';
import { checklistForm, signInAs, TRANSACTION_ID, transaction, uuid } from '../../test-utils/transactions';
import { type StubHandler, stubTrpcClient, trpcError } from '../../test-utils/trpc-stub';

// The dialog is loaded on demand: on a loaded two-core machine its first import took seconds.
configure({ asyncUtilTimeout: 5_000 });

const PURCHASE = 'Purchase Agreement';

function signatureRequest(overrides: Partial<SignatureRequest> = {}): SignatureRequest {
  return {
    _id: uuid(900),
    status: 'sent',
    formId: transaction().forms[0]?._id as string,
    subject: 'Please sign the purchase agreement',
    message: null,
    ordered: false,
    signers: [
      {
        _id: uuid(901),
        name: 'Pat Buyer',
        email: 'pat@example.com',
        status: 'signed',
        signedAt: '2026-12-01T10:00:00.000Z',
      },
      { _id: uuid(902), name: 'Sam Seller', email: 'sam@example.com', status: 'viewed', signedAt: null },
    ],
    createdAt: '2026-12-01T09:00:00.000Z',
    completedAt: null,
    documentSha256: 'a'.repeat(64),
    closedReason: null,
    ...overrides,
  };
}

function renderDetail(handlers: Record<string, StubHandler>) {
  const stub = stubTrpcClient({
    'keyDates.list': () => ({ dates: [], suggestedKinds: [] }),
    'transactions.get': () => transaction(),
    ...handlers,
  });
  const view = renderWithProviders(
    <Route path={paths.transaction}>
      <Transaction />
    </Route>,
    { path: `/home/transactions/${TRANSACTION_ID}`, trpcClient: stub.client },
  );
  return { ...view, stub };
}

const card = async (label: string) => within(await screen.findByTestId(`form-${label}`));

beforeEach(() => signInAs('user'));
afterEach(() => notifications.clean());

describe('sending a checklist item for signature', { timeout: 30_000 }, () => {
  it("shows each signer's progress as a chip on the item, asked for once for the whole checklist", async () => {
    const { stub } = renderDetail({ 'signatures.list': () => [signatureRequest()] });
    const purchase = await card(PURCHASE);
    const chips = await purchase.findByRole('list', {
      name: 'Signers of Please sign the purchase agreement',
    });
    const items = within(chips).getAllByRole('listitem');
    expect(items.map((chip) => [chip.textContent, chip.getAttribute('data-status')])).toEqual([
      ['Pat Buyer: Signed', 'signed'],
      ['Sam Seller: Opened', 'viewed'],
    ]);
    expect(purchase.getByText(/Out for signature/)).toBeInTheDocument();
    // The item without a file asks for nothing and shows no chips.
    expect((await card('Disclosure Form')).queryByTestId('signature-requests')).toBeNull();
    expect(stub.callsTo('signatures.list')).toEqual([{ id: TRANSACTION_ID }]);
  });

  it('voids a request only with a reason, then asks for the list again', async () => {
    let voided = false;
    const { stub, user } = renderDetail({
      'signatures.list': () => [
        signatureRequest(voided ? { status: 'voided', closedReason: 'Wrong version' } : {}),
      ],
      'signatures.void': () => {
        voided = true;
        return signatureRequest({ status: 'voided', closedReason: 'Wrong version' });
      },
    });
    const purchase = await card(PURCHASE);
    await user.click(await purchase.findByRole('button', { name: 'Void' }));
    const dialog = within(await screen.findByRole('dialog', { name: /^Void:/ }));
    await user.click(dialog.getByRole('button', { name: 'Void the request' }));
    expect(await dialog.findByText(esignMessages.reasonRequired)).toBeInTheDocument();
    expect(stub.callsTo('signatures.void')).toEqual([]);

    await user.type(dialog.getByLabelText('Reason'), '  Wrong version ');
    await user.click(dialog.getByRole('button', { name: 'Void the request' }));
    await waitFor(() =>
      expect(stub.callsTo('signatures.void')).toEqual([
        { id: TRANSACTION_ID, reqId: uuid(900), reason: 'Wrong version' },
      ]),
    );
    expect(await purchase.findByText(/Voided/)).toBeInTheDocument();
    expect(purchase.queryByRole('button', { name: 'Void' })).toBeNull();
  });

  it("sends what the agent wrote and shows the server's refusal in the dialog, keeping the draft", async () => {
    const withDocx = transaction();
    withDocx.forms[1] = checklistForm(2, {
      label: 'Disclosure Form',
      url: '/files/transactions/x/disclosure.docx?exp=1&sig=abc',
      fileName: 'disclosure.docx',
      version: 1,
    });
    const { stub, user } = renderDetail({
      'transactions.get': () => withDocx,
      'signatures.list': () => [],
      'signatures.create': () => {
        throw trpcError(400, esignMessages.signerWithoutSignature);
      },
    });
    const purchase = await card(PURCHASE);
    // What the portal cannot sign (a Word file) offers no sending.
    expect((await card('Disclosure Form')).queryByRole('button', { name: 'Send for signature' })).toBeNull();
    await user.click(purchase.getByRole('button', { name: 'Send for signature' }));
    const dialog = within(await screen.findByRole('dialog', { name: `Send for signature: ${PURCHASE}` }));
    expect(dialog.getByLabelText(/Subject/)).toHaveValue(`Please sign: ${PURCHASE}`);
    await user.type(dialog.getByLabelText('Signer 1: name'), ' Pat Buyer ');
    await user.type(dialog.getByLabelText('Signer 1: e-mail'), 'pat@example.com');
    await user.click(dialog.getByRole('button', { name: 'Add a signer' }));
    await user.type(dialog.getByLabelText('Signer 2: name'), 'Sam Seller');
    await user.type(dialog.getByLabelText('Signer 2: e-mail'), 'sam@example.com');
    await user.click(dialog.getByLabelText(/Sign in order/));
    await user.click(dialog.getByRole('button', { name: 'Send for signature' }));

    expect(await dialog.findByRole('alert')).toHaveTextContent(esignMessages.signerWithoutSignature);
    expect(stub.callsTo('signatures.create')).toEqual([
      {
        id: TRANSACTION_ID,
        formId: transaction().forms[0]?._id,
        subject: `Please sign: ${PURCHASE}`,
        signers: [
          { name: 'Pat Buyer', email: 'pat@example.com' },
          { name: 'Sam Seller', email: 'sam@example.com' },
        ],
        ordered: true,
        fields: [],
      },
    ]);
    // Nothing typed is lost: the dialog stays, as filled in.
    expect(dialog.getByLabelText('Signer 2: name')).toHaveValue('Sam Seller');
  });

  it('removes a signer and offers the rest as whom the next field is for', async () => {
    const { user } = renderDetail({ 'signatures.list': () => [] });
    await user.click((await card(PURCHASE)).getByRole('button', { name: 'Send for signature' }));
    const dialog = within(await screen.findByRole('dialog', { name: `Send for signature: ${PURCHASE}` }));
    expect(dialog.getByRole('button', { name: 'Remove signer 1' })).toBeDisabled();
    await user.type(dialog.getByLabelText('Signer 1: name'), 'Pat Buyer');
    await user.click(dialog.getByRole('button', { name: 'Add a signer' }));
    await user.type(dialog.getByLabelText('Signer 2: name'), 'Sam Seller');
    const fieldFor = dialog.getByLabelText('Field for');
    expect(
      within(fieldFor)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Pat Buyer', 'Sam Seller']);
    expect(fieldFor).toHaveValue('1');
    await user.click(dialog.getByRole('button', { name: 'Remove signer 1' }));
    expect(dialog.getByLabelText('Signer 1: name')).toHaveValue('Sam Seller');
    expect(
      within(fieldFor)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Sam Seller']);
    expect(fieldFor).toHaveValue('0');
  });
});
