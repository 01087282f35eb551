import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Template } from '../../../shared/schemas/templates';
import { field } from '../../test-utils/forms';
import { renderWithProviders } from '../../test-utils/render';
import { signInAs, TRANSACTION_ID, transaction, USER_ID, uuid } from '../../test-utils/transactions';
import { deferred, type StubHandler, stubTrpcClient, trpcError } from '../../test-utils/trpc-stub';
import {
  asksForRole,
  CreateTransactionDialog,
  initialRole,
  rolesOf,
  typesOf,
} from './CreateTransactionDialog';
import type { AgentChoice } from './useCoordinatedAgents';

const templates: Template[] = [
  {
    _id: uuid(1),
    type: 'Lease',
    role: '-',
    forms: ['Lease Agreement'],
    optionalForms: [],
    keyDateKinds: [],
    conditionalForms: [],
  },
  {
    _id: uuid(2),
    type: 'Sale',
    role: 'Buyer',
    forms: ['Offer'],
    optionalForms: [],
    keyDateKinds: [],
    conditionalForms: [],
  },
  {
    _id: uuid(3),
    type: 'Sale',
    role: 'Seller',
    forms: ['Listing'],
    optionalForms: [],
    keyDateKinds: [],
    conditionalForms: [],
  },
];

function renderDialog(handlers: Record<string, StubHandler> = {}, agents: AgentChoice[] = []) {
  const onClose = vi.fn();
  const stub = stubTrpcClient({ 'templates.all': () => templates, ...handlers });
  const view = renderWithProviders(<CreateTransactionDialog opened onClose={onClose} agents={agents} />, {
    path: '/home',
    trpcClient: stub.client,
  });
  return { ...view, stub, onClose };
}

const dialog = () => within(screen.getByRole('dialog', { name: 'Create Transaction' }));

/** Waits for the types to arrive, then picks one. */
async function chooseType(user: ReturnType<typeof renderDialog>['user'], type: string) {
  await waitFor(() => expect(field('Type')).toBeEnabled());
  await user.selectOptions(field('Type'), type);
}

async function fillAddress(user: ReturnType<typeof renderDialog>['user']) {
  await user.type(field('Street Address'), ' 12 Ocean Avenue ');
  await user.type(field('City'), 'Santa Monica');
  await user.type(field('State'), 'CA');
  await user.type(field('Zip'), '90401');
}

const address = { streetAddress: '12 Ocean Avenue', city: 'Santa Monica', state: 'CA', zip: '90401' };

beforeEach(() => signInAs('user'));
afterEach(() => notifications.clean());

describe('type and role choices', () => {
  it('lists each type once and the distinct roles of one type', () => {
    const withDuplicate = [
      ...templates,
      {
        _id: uuid(4),
        type: 'Sale',
        role: 'Buyer',
        forms: [],
        optionalForms: [],
        keyDateKinds: [],
        conditionalForms: [],
      },
    ];
    expect(typesOf(withDuplicate)).toEqual(['Lease', 'Sale']);
    expect(rolesOf(withDuplicate, 'Sale')).toEqual(['Buyer', 'Seller']);
    expect(rolesOf(withDuplicate, 'Lease')).toEqual(['-']);
    expect(asksForRole(['-'])).toBe(false);
    expect(asksForRole(['-', 'Buyer'])).toBe(true);
    expect(asksForRole([])).toBe(false);
    expect(initialRole(['Buyer'])).toBe('Buyer');
    expect(initialRole(['Buyer', 'Seller'])).toBe('');
    expect(initialRole(['-'])).toBe('-');
  });
});

describe('Create Transaction dialog', () => {
  it('offers the distinct types and hides Role until a type with roles is chosen', async () => {
    const { user } = renderDialog();
    await waitFor(() => expect(field('Type')).toBeEnabled());
    const options = within(field('Type'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['Select a type', 'Lease', 'Sale']);
    expect(dialog().queryByLabelText(/^Role/)).not.toBeInTheDocument();

    await user.selectOptions(field('Type'), 'Sale');
    const roleOptions = within(field('Role'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(roleOptions).toEqual(['Select a role', 'Buyer', 'Seller']);

    // Back to a type whose only role is '-': the select goes away again.
    await user.selectOptions(field('Type'), 'Lease');
    expect(dialog().queryByLabelText(/^Role/)).not.toBeInTheDocument();
  });

  it('shows the product messages for empty fields and sends nothing', async () => {
    const { user, stub } = renderDialog();
    await waitFor(() => expect(field('Type')).toBeEnabled());
    await user.click(dialog().getByRole('button', { name: 'Submit' }));
    for (const message of [
      'Type is required',
      'Street Address is required',
      'City is required',
      'State is required',
      'Zip Code is required',
    ]) {
      expect(await dialog().findByText(message)).toBeVisible();
    }
    // Role is not shown yet, so it cannot be missing.
    expect(dialog().queryByText('Role is required')).not.toBeInTheDocument();
    expect(stub.callsTo('transactions.create')).toEqual([]);
  });

  it('requires a role once the Role select is shown', async () => {
    const { user, stub } = renderDialog({ 'transactions.create': () => transaction() });
    await chooseType(user, 'Sale');
    await fillAddress(user);
    await user.click(dialog().getByRole('button', { name: 'Submit' }));
    expect(await dialog().findByText('Role is required')).toBeVisible();
    expect(stub.callsTo('transactions.create')).toEqual([]);

    await user.selectOptions(field('Role'), 'Seller');
    stub.calls.length = 0;
    await user.click(dialog().getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(stub.callsTo('transactions.create')).toEqual([
        { type: 'Sale', role: 'Seller', ...address, user: USER_ID },
      ]),
    );
  });

  it('picks the only role of a type that has one, and sends it', async () => {
    const { user, stub } = renderDialog({
      'templates.all': () => [
        ...templates,
        { ...templates[1], _id: uuid(5), type: 'Purchase', role: 'Buyer' },
      ],
      'transactions.create': () => transaction(),
    });
    await chooseType(user, 'Purchase');
    expect(field('Role')).toHaveValue('Buyer');
    await fillAddress(user);
    await user.click(dialog().getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(stub.callsTo('transactions.create')).toEqual([
        { type: 'Purchase', role: 'Buyer', ...address, user: USER_ID },
      ]),
    );
  });

  it("sends '-' as the role of a type without roles, with the stored user id", async () => {
    const { user, stub } = renderDialog({ 'transactions.create': () => transaction() });
    await chooseType(user, 'Lease');
    await fillAddress(user);
    await user.click(dialog().getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(stub.callsTo('transactions.create')).toEqual([
        { type: 'Lease', role: '-', ...address, user: USER_ID },
      ]),
    );
  });

  it('shows Loading... on a disabled Submit while sending, then toasts, closes and opens the new transaction', async () => {
    const answer = deferred();
    const { user, stub, onClose, currentPath, queryClient } = renderDialog({
      'transactions.create': () => answer.promise,
    });
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await chooseType(user, 'Sale');
    await user.selectOptions(field('Role'), 'Buyer');
    await fillAddress(user);
    await user.click(dialog().getByRole('button', { name: 'Submit' }));

    const sending = await dialog().findByRole('button', { name: 'Loading...' });
    expect(sending).toBeDisabled();
    expect(stub.callsTo('transactions.create')).toEqual([
      { type: 'Sale', role: 'Buyer', ...address, user: USER_ID },
    ]);
    expect(onClose).not.toHaveBeenCalled();

    answer.resolve(transaction());
    expect(await screen.findByText('Transaction created successfully!')).toBeVisible();
    expect(onClose).toHaveBeenCalledOnce();
    expect(currentPath()).toBe(`/home/transactions/${TRANSACTION_ID}`);
    // The list behind the dialog is refreshed.
    expect(invalidate).toHaveBeenCalledWith(expect.objectContaining({ queryKey: [['transactions']] }));
  });

  it("alerts the server's message and keeps the dialog open with what was typed", async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { user, onClose, currentPath } = renderDialog({
      'transactions.create': () => {
        throw trpcError(400, 'No template for this type and role');
      },
    });
    await chooseType(user, 'Lease');
    await fillAddress(user);
    await user.click(dialog().getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(alert).toHaveBeenCalledWith('No template for this type and role'));
    expect(onClose).not.toHaveBeenCalled();
    expect(currentPath()).toBe('/home');
    expect(field('City')).toHaveValue('Santa Monica');
    expect(dialog().getByRole('button', { name: 'Submit' })).toBeEnabled();
    expect(screen.queryByText('Transaction created successfully!')).not.toBeInTheDocument();
    alert.mockRestore();
  });

  it('Cancel closes without sending', async () => {
    const { user, stub, onClose } = renderDialog();
    await user.click(dialog().getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledOnce();
    expect(stub.callsTo('transactions.create')).toEqual([]);
  });

  it('sends the optional closing date picked in the dialog', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 10, 28, 10, 0));
    try {
      const { user, stub } = renderDialog({ 'transactions.create': () => transaction() });
      await chooseType(user, 'Lease');
      await fillAddress(user);
      await user.click(dialog().getByRole('button', { name: /^Closing date/ }));
      await user.click(await screen.findByRole('button', { name: '26 November 2025' }));
      await user.click(dialog().getByRole('button', { name: 'Submit' }));
      await waitFor(() =>
        expect(stub.callsTo('transactions.create')).toEqual([
          { type: 'Lease', role: '-', ...address, closingDate: '2025-11-26', user: USER_ID },
        ]),
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("a coordinator's dialog", () => {
  const agents = [
    { value: USER_ID, label: 'Tara Tate (you)' },
    { value: uuid(501), label: 'Dana North' },
  ];

  it('opens the transaction for the agent chosen, itself by default', async () => {
    const { user, stub } = renderDialog({ 'transactions.create': () => transaction() }, agents);
    const agent = field('Agent');
    expect([...(agent as HTMLSelectElement).options].map((option) => option.textContent)).toEqual([
      'Tara Tate (you)',
      'Dana North',
    ]);
    expect(agent).toHaveValue(USER_ID);
    await user.selectOptions(agent, 'Dana North');
    await chooseType(user, 'Lease');
    await fillAddress(user);
    await user.click(dialog().getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(stub.callsTo('transactions.create')).toEqual([
        { type: 'Lease', role: '-', ...address, user: USER_ID, agentId: uuid(501) },
      ]),
    );
  });

  it('offers no Agent choice to an agent who coordinates for no one', async () => {
    renderDialog();
    await waitFor(() => expect(field('Type')).toBeEnabled());
    expect(dialog().queryByRole('combobox', { name: 'Agent' })).not.toBeInTheDocument();
  });
});
