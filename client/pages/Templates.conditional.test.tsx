import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Template } from '../../shared/schemas/templates';
import { setSession } from '../auth/session';
import { renderWithProviders } from '../test-utils/render';
import { fakeAccessToken } from '../test-utils/tokens';
import { type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { Templates } from './Templates';

const ADMIN_ID = 'f3a1c2d4-0000-4000-8000-000000000001';

const purchase: Template = {
  _id: 'a0000000-0000-4000-8000-000000000003',
  type: 'Purchase',
  role: 'Buyer',
  forms: ['Purchase Agreement'],
  optionalForms: [],
  keyDateKinds: [],
  conditionalForms: [
    { label: 'Lead-Based Paint Disclosure', when: [{ fact: 'yearBuilt', op: 'lt', value: 1978 }] },
  ],
};

function renderTemplates(handlers: Record<string, StubHandler> = {}) {
  const stub = stubTrpcClient({
    'settings.getUser': () => ({
      _id: ADMIN_ID,
      firstName: 'Olive',
      lastName: 'Owner',
      company: 'Acme Realty',
      email: 'olive@example.com',
      phoneNumber: '+1 555 0100',
      role: 'admin',
      isAdminApproved: true,
      isEmailVerified: true,
      isOwner: true,
      createdAt: '2025-01-01T00:00:00.000Z',
    }),
    'templates.list': () => ({ data: [purchase], totalItems: 1, totalPages: 1 }),
    'templates.all': () => [purchase],
    'templates.update': (input) => ({ ...purchase, ...(input as object), _id: purchase._id }),
    ...handlers,
  });
  const view = renderWithProviders(<Templates />, {
    path: '/admin/forms/transactions/view',
    trpcClient: stub.client,
  });
  return { ...view, stub };
}

async function openUpdate(user: ReturnType<typeof renderTemplates>['user']) {
  const cell = await screen.findByRole('cell', { name: 'Purchase' });
  await user.click(within(cell.closest('tr') as HTMLElement).getByRole('button', { name: 'Update' }));
  return within(await screen.findByRole('dialog', { name: 'Update Transactions Forms' }));
}

const item = (dialog: ReturnType<typeof within>, n: number) =>
  within(dialog.getByRole('group', { name: `Conditional document ${n}` }));
const condition = (parent: ReturnType<typeof within>, n: number) =>
  within(parent.getByRole('group', { name: `Condition ${n}` }));
const optionsOf = (select: HTMLElement) =>
  [...(select as HTMLSelectElement).options].map((option) => option.text);

beforeEach(() =>
  setSession({
    accessToken: fakeAccessToken({ sub: ADMIN_ID, role: 'admin' }),
    refreshToken: 'refresh',
    userId: ADMIN_ID,
  }),
);
afterEach(() => notifications.clean());

describe('Conditional documents of a template', () => {
  it('lists a conditional document with its rule in words', async () => {
    renderTemplates();
    const cell = await screen.findByRole('cell', { name: 'Purchase' });
    const row = within(cell.closest('tr') as HTMLElement);
    expect(row.getByText('Lead-Based Paint Disclosure (conditional)')).toBeVisible();
    expect(row.getByText('Required when year built is before 1978')).toBeVisible();
  });

  it('prefills the rule, limits the operators to the fact, and sends a choice of several values', async () => {
    const { user, stub } = renderTemplates();
    const dialog = await openUpdate(user);
    const lead = item(dialog, 1);
    expect(lead.getByRole('textbox', { name: /^Document name/ })).toHaveValue('Lead-Based Paint Disclosure');
    const first = condition(lead, 1);
    expect(first.getByRole('combobox', { name: 'Fact' })).toHaveDisplayValue('Year built');
    expect(first.getByRole('combobox', { name: 'Operator' })).toHaveDisplayValue('before');
    expect(first.getByRole('textbox', { name: /^Value/ })).toHaveValue('1978');
    expect(lead.getByTestId('rule-preview')).toHaveTextContent('Required when year built is before 1978');

    await user.selectOptions(first.getByRole('combobox', { name: 'Fact' }), 'Financing');
    expect(optionsOf(first.getByRole('combobox', { name: 'Operator' }))).toEqual([
      'is',
      'is not',
      'is one of',
    ]);
    await user.selectOptions(first.getByRole('combobox', { name: 'Operator' }), 'is one of');
    await user.click(first.getByRole('combobox', { name: /^Value/ }));
    await user.click(await first.findByRole('option', { name: 'FHA' }));
    await user.click(await first.findByRole('option', { name: 'VA' }));
    expect(lead.getByTestId('rule-preview')).toHaveTextContent('Required when financing is one of FHA, VA');

    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(stub.callsTo('templates.update')).toHaveLength(1));
    expect(stub.callsTo('templates.update')[0]).toMatchObject({
      conditionalForms: [
        {
          label: 'Lead-Based Paint Disclosure',
          when: [{ fact: 'financing', op: 'in', value: ['fha', 'va'] }],
        },
      ],
    });
  });

  it('adds a document of two conditions: yes or no for the HOA, a price typed in dollars and sent in cents', async () => {
    const { user, stub } = renderTemplates();
    const dialog = await openUpdate(user);
    await user.click(dialog.getByRole('button', { name: 'Add conditional document' }));
    const hoa = item(dialog, 2);
    await user.type(hoa.getByRole('textbox', { name: /^Document name/ }), 'HOA Documents');
    await user.selectOptions(condition(hoa, 1).getByRole('combobox', { name: 'Fact' }), 'HOA');
    expect(optionsOf(condition(hoa, 1).getByRole('combobox', { name: 'Operator' }))).toEqual([
      'is',
      'is not',
    ]);
    expect(optionsOf(condition(hoa, 1).getByRole('combobox', { name: /^Value/ }))).toEqual(['Yes', 'No']);
    expect(hoa.getByTestId('rule-preview')).toHaveTextContent('Required when the property has an HOA');
    await user.click(hoa.getByRole('button', { name: 'Add condition' }));
    const price = condition(hoa, 2);
    await user.selectOptions(price.getByRole('combobox', { name: 'Fact' }), 'Sale price');
    await user.selectOptions(price.getByRole('combobox', { name: 'Operator' }), 'over');
    await user.type(price.getByRole('textbox', { name: /^Value/ }), '500000');
    expect(hoa.getByTestId('rule-preview')).toHaveTextContent(
      'Required when the property has an HOA and sale price is over $500,000.00',
    );

    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(stub.callsTo('templates.update')).toHaveLength(1));
    expect(stub.callsTo('templates.update')[0]).toMatchObject({
      conditionalForms: [
        ...purchase.conditionalForms,
        {
          label: 'HOA Documents',
          when: [
            { fact: 'hoa', op: 'eq', value: true },
            { fact: 'salePriceCents', op: 'gt', value: 50_000_000 },
          ],
        },
      ],
    });
  });

  it('names an unfinished condition and a missing name on their fields, sending nothing', async () => {
    const { user, stub } = renderTemplates();
    const dialog = await openUpdate(user);
    await user.click(dialog.getByRole('button', { name: 'Add conditional document' }));
    const added = item(dialog, 2);
    expect(added.getByTestId('rule-preview')).toHaveTextContent('Complete each condition to see the rule.');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await added.findByText('Document name is required')).toBeVisible();
    expect(added.getByText('A rule on Year built (yearBuilt) is a year from 1600 to 2100')).toBeVisible();
    expect(condition(added, 1).getByRole('textbox', { name: /^Value/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );

    // Removing the unfinished one leaves a template that can be sent.
    await user.click(dialog.getByRole('button', { name: 'Remove conditional document 2' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(stub.callsTo('templates.update')).toHaveLength(1));
    expect(stub.callsTo('templates.update')[0]).toMatchObject({
      conditionalForms: purchase.conditionalForms,
    });
  });

  it("keeps the dialog open with the server's refusal on the condition it names", async () => {
    const message = 'A rule on Year built (yearBuilt) is a year from 1600 to 2100';
    const { user } = renderTemplates({
      'templates.update': () => {
        throw trpcError(400, 'Invalid input', [{ path: 'conditionalForms.0.when.0.value', message }]);
      },
    });
    const dialog = await openUpdate(user);
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    const value = condition(item(dialog, 1), 1).getByRole('textbox', { name: /^Value/ });
    await waitFor(() => expect(value).toHaveAttribute('aria-invalid', 'true'));
    expect(item(dialog, 1).getByText(message)).toBeVisible();
    expect(screen.getByRole('dialog', { name: 'Update Transactions Forms' })).toBeVisible();
  });
});
