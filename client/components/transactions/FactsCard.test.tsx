import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { complianceMessages } from '../../../shared/messages';
import type { Transaction as TransactionAnswer } from '../../../shared/schemas/transactions';
import { AdminTransaction } from '../../pages/AdminTransaction';
import { Transaction } from '../../pages/Transaction';
import { paths } from '../../paths';
import { renderWithProviders } from '../../test-utils/render';
import { checklistForm, signInAs, TRANSACTION_ID, transaction, USER_ID } from '../../test-utils/transactions';
import { type StubHandler, stubTrpcClient, trpcError } from '../../test-utils/trpc-stub';

const ADDRESS = { streetAddress: '12 Ocean Avenue', city: 'Santa Monica', state: 'CA', zip: '90401' };
const FACTS = {
  salePriceCents: 35_000_000,
  yearBuilt: null,
  financing: 'fha',
  propertyType: null,
  hoa: false,
} as const;

const LEAD_PAINT = checklistForm(3, {
  label: 'Lead-Based Paint Disclosure',
  requiredBecause: 'Year built 1965 is before 1978',
});

function renderAgentPage(handlers: Record<string, StubHandler>) {
  signInAs('user');
  const stub = stubTrpcClient({ 'keyDates.list': () => ({ dates: [], suggestedKinds: [] }), ...handlers });
  const view = renderWithProviders(
    <Route path={paths.transaction}>
      <Transaction />
    </Route>,
    { path: `/home/transactions/${TRANSACTION_ID}`, trpcClient: stub.client },
  );
  return { ...view, stub };
}

function renderAdminPage(handlers: Record<string, StubHandler>) {
  signInAs('admin');
  const stub = stubTrpcClient({
    'keyDates.list': () => ({ dates: [], suggestedKinds: [] }),
    'adminTransactions.history': () => [],
    'rejectionReasons.list': () => [],
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

/** The Facts card, found by its heading. */
async function factsCard() {
  const heading = await screen.findByRole('heading', { level: 2, name: 'Facts' });
  return within(heading.closest('section') as HTMLElement);
}

afterEach(() => notifications.clean());

describe('Facts card', () => {
  it('shows the facts in words: dollars, the choices by name, HOA as yes or no, unknown as not known', async () => {
    renderAgentPage({ 'transactions.get': () => transaction({ facts: FACTS }) });
    const card = await factsCard();
    expect(card.getByRole('textbox', { name: 'Sale price' })).toHaveValue('$350,000');
    expect(card.getByRole('textbox', { name: 'Year built' })).toHaveValue('');
    expect(card.getByRole('combobox', { name: 'Financing' })).toHaveDisplayValue('FHA');
    expect(card.getByRole('combobox', { name: 'Property type' })).toHaveDisplayValue('Not known');
    expect(card.getByRole('combobox', { name: /^HOA/ })).toHaveDisplayValue('No');
    // Nothing changed yet: nothing to save.
    expect(card.getByRole('button', { name: 'Save facts' })).toBeDisabled();
  });

  it('sends only the changed facts with the address as loaded, money in cents, and shows the checklist it answers with', async () => {
    const saved: TransactionAnswer = transaction({
      facts: {
        ...FACTS,
        salePriceCents: 125_000_050,
        yearBuilt: 1965,
        propertyType: 'condo',
        financing: null,
      },
      forms: [...transaction().forms, LEAD_PAINT],
    });
    const { user, stub } = renderAgentPage({
      'transactions.get': () =>
        stub.callsTo('transactions.update').length ? saved : transaction({ facts: FACTS }),
      'transactions.update': () => saved,
      'transactions.list': () => ({ transactions: [], totalPages: 1, totalTransactions: 0 }),
    });
    const card = await factsCard();
    const price = card.getByRole('textbox', { name: 'Sale price' });
    await user.clear(price);
    await user.type(price, '1250000.50');
    await user.type(card.getByRole('textbox', { name: 'Year built' }), '1965');
    await user.selectOptions(card.getByRole('combobox', { name: 'Property type' }), 'Condo');
    await user.selectOptions(card.getByRole('combobox', { name: 'Financing' }), 'Not known');
    await user.click(card.getByRole('button', { name: 'Save facts' }));

    await waitFor(() =>
      expect(stub.callsTo('transactions.update')).toEqual([
        {
          id: TRANSACTION_ID,
          userId: USER_ID,
          ...ADDRESS,
          // HOA was not touched: it is not sent.
          facts: { salePriceCents: 125_000_050, yearBuilt: 1965, financing: null, propertyType: 'condo' },
        },
      ]),
    );
    const item = within(await screen.findByTestId('form-Lead-Based Paint Disclosure'));
    expect(item.getByTestId('form-required-because')).toHaveTextContent(
      /^Required because Year built 1965 is before 1978$/,
    );
    expect(await screen.findByText('Checklist: added Lead-Based Paint Disclosure')).toBeVisible();
    // The page stays: the facts are edited where the checklist is.
    expect(screen.getByRole('heading', { level: 2, name: 'Facts' })).toBeVisible();
  });

  it("shows the server's refusal next to the fact it names, and a refusal naming none above the button", async () => {
    let answer = () => {
      throw trpcError(400, 'Invalid input', [
        { path: 'facts.yearBuilt', message: 'Year built (yearBuilt) is a year from 1600 to 2100' },
      ]);
    };
    const { user, stub } = renderAgentPage({
      'transactions.get': () => transaction(),
      'transactions.update': () => answer(),
    });
    const card = await factsCard();
    const year = card.getByRole('textbox', { name: 'Year built' });
    await user.type(year, '1965');
    await user.click(card.getByRole('button', { name: 'Save facts' }));
    expect(await card.findByText('Year built (yearBuilt) is a year from 1600 to 2100')).toBeVisible();
    expect(year).toHaveAttribute('aria-invalid', 'true');

    answer = () => {
      throw trpcError(409, complianceMessages.closedFacts);
    };
    await user.clear(year);
    await user.type(year, '1966');
    expect(year).not.toHaveAttribute('aria-invalid', 'true');
    await user.click(card.getByRole('button', { name: 'Save facts' }));
    expect(await card.findByRole('alert')).toHaveTextContent(
      'This transaction is closed: reopen it to change its facts',
    );
    expect(stub.callsTo('transactions.update')).toHaveLength(2);
  });

  it('checks a year out of range before sending anything', async () => {
    const { user, stub } = renderAgentPage({ 'transactions.get': () => transaction() });
    const card = await factsCard();
    await user.type(card.getByRole('textbox', { name: 'Year built' }), '1500');
    await user.click(card.getByRole('button', { name: 'Save facts' }));
    expect(await card.findByText('Year built (yearBuilt) is a year from 1600 to 2100')).toBeVisible();
    expect(stub.callsTo('transactions.update')).toEqual([]);
  });

  it('shows a closed file’s facts read-only, saying why', async () => {
    renderAgentPage({
      'transactions.get': () =>
        transaction({ facts: FACTS, closedAt: '2025-04-01T10:00:00.000Z', status: 'closed' }),
    });
    const card = await factsCard();
    expect(card.getByText('This transaction is closed: reopen it to change its facts')).toBeVisible();
    expect(card.getByRole('textbox', { name: 'Sale price' })).toBeDisabled();
    expect(card.getByRole('combobox', { name: 'Financing' })).toBeDisabled();
    expect(card.queryByRole('button', { name: 'Save facts' })).not.toBeInTheDocument();
  });

  it("saves through the admin's update, with the address as loaded and no checkbox", async () => {
    const saved = transaction({ facts: { ...FACTS, hoa: true } });
    const { user, stub } = renderAdminPage({
      'adminTransactions.get': () =>
        stub.callsTo('adminTransactions.update').length ? saved : transaction({ facts: FACTS }),
      'adminTransactions.update': () => saved,
      'adminTransactions.list': () => ({ transactions: [], totalPages: 1, totalTransactions: 0 }),
      'adminTransactions.search': () => ({ transactions: [], totalPages: 1, totalTransactions: 0 }),
    });
    const card = await factsCard();
    await user.selectOptions(card.getByRole('combobox', { name: /^HOA/ }), 'Yes');
    await user.click(card.getByRole('button', { name: 'Save facts' }));
    await waitFor(() =>
      expect(stub.callsTo('adminTransactions.update')).toEqual([
        { id: TRANSACTION_ID, ...ADDRESS, facts: { hoa: true } },
      ]),
    );
    expect(await screen.findByText('The checklist is unchanged')).toBeVisible();
    await waitFor(() => expect(card.getByRole('combobox', { name: /^HOA/ })).toHaveDisplayValue('Yes'));
  });
});
