import { notifications } from '@mantine/notifications';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commissionMessages } from '../../shared/commission-messages';
import type { CommissionPlan } from '../../shared/schemas/commission';
import { setSession } from '../auth/session';
import { northAdminProfile, wideAdminProfile } from '../test-utils/offices';
import { renderWithProviders } from '../test-utils/render';
import { fakeAccessToken } from '../test-utils/tokens';
import { type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { TEST_USER_ID } from '../test-utils/users';
import { CommissionPlans, planToasts } from './CommissionPlans';

configure({ asyncUtilTimeout: 5_000 });

const STANDARD: CommissionPlan = {
  _id: 'c0000000-0000-4000-8000-000000000001',
  name: 'Standard 70/30',
  agentSplit: 70,
  capCents: 1_600_000,
  transactionFeeCents: 49_500,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const UNCAPPED: CommissionPlan = {
  ...STANDARD,
  _id: 'c0000000-0000-4000-8000-000000000002',
  name: 'Uncapped 80/20',
  agentSplit: 80,
  capCents: null,
  transactionFeeCents: 0,
};

function renderPlans(handlers: Record<string, StubHandler> = {}) {
  const stub = stubTrpcClient({
    'settings.getUser': () => wideAdminProfile(),
    'commission.listPlans': () => [STANDARD, UNCAPPED],
    ...handlers,
  });
  const view = renderWithProviders(<CommissionPlans />, {
    path: '/admin/commission-plans',
    trpcClient: stub.client,
  });
  return { ...view, stub };
}

const rowOf = (name: string) => {
  const row = screen.getByRole('cell', { name }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return within(row);
};

beforeEach(() => {
  setSession({
    accessToken: fakeAccessToken({ sub: TEST_USER_ID, role: 'admin' }),
    refreshToken: 'stored-refresh',
    userId: TEST_USER_ID,
  });
});
afterEach(() => notifications.clean());

describe('Commission Plans', { timeout: 30_000 }, () => {
  it('lists each plan with its split, cap and fee in dollars', async () => {
    renderPlans();
    expect(screen.getByRole('heading', { level: 1, name: 'Commission Plans' })).toBeVisible();
    await screen.findByRole('cell', { name: 'Standard 70/30' });
    expect(rowOf('Standard 70/30').getByRole('cell', { name: '70%' })).toBeVisible();
    expect(rowOf('Standard 70/30').getByRole('cell', { name: '$16,000.00' })).toBeVisible();
    expect(rowOf('Standard 70/30').getByRole('cell', { name: '$495.00' })).toBeVisible();
    expect(rowOf('Uncapped 80/20').getByRole('cell', { name: 'No cap' })).toBeVisible();
    expect(rowOf('Uncapped 80/20').getByRole('cell', { name: '$0.00' })).toBeVisible();
  });

  it('adds a plan: dollars typed, exact cents sent, an empty cap as none', async () => {
    const { user, stub } = renderPlans({
      'commission.createPlan': (input) => ({ ...STANDARD, ...(input as object), _id: UNCAPPED._id }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add plan' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add plan' }));
    await user.type(dialog.getByRole('textbox', { name: 'Name' }), 'Team 85');
    await user.type(dialog.getByRole('textbox', { name: /Agent split/ }), '85');
    await user.type(dialog.getByRole('textbox', { name: /Transaction fee/ }), '1,234.29');
    await user.click(dialog.getByRole('button', { name: 'Add plan' }));
    expect(await screen.findByText(planToasts.added)).toBeVisible();
    expect(stub.callsTo('commission.createPlan')).toEqual([
      { name: 'Team 85', agentSplit: 85, capCents: null, transactionFeeCents: 123_429 },
    ]);
    await waitFor(() => expect(stub.callsTo('commission.listPlans')).toHaveLength(2));
  });

  it('refuses what is no amount here, and a taken name on the name field', async () => {
    const { user, stub } = renderPlans({
      'commission.updatePlan': () => {
        throw trpcError(409, commissionMessages.nameTaken);
      },
    });
    await screen.findByRole('cell', { name: 'Standard 70/30' });
    await user.click(rowOf('Standard 70/30').getByRole('button', { name: 'Edit Standard 70/30' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit plan' }));
    const cap = dialog.getByRole('textbox', { name: /Annual cap/ });
    expect(cap).toHaveValue('16,000.00');
    expect(dialog.getByRole('textbox', { name: /Transaction fee/ })).toHaveValue('495.00');
    await user.clear(cap);
    await user.type(cap, '12.345');
    await user.click(dialog.getByRole('button', { name: 'Save plan' }));
    expect(await dialog.findByText('Enter an amount in dollars, like 1,234.56')).toBeVisible();
    expect(stub.callsTo('commission.updatePlan')).toEqual([]);

    await user.clear(cap);
    await user.type(cap, '20,000');
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'uncapped 80/20');
    await user.click(dialog.getByRole('button', { name: 'Save plan' }));
    expect(await dialog.findByText(commissionMessages.nameTaken)).toBeVisible();
    expect(name).toHaveAccessibleDescription(expect.stringContaining(commissionMessages.nameTaken));
    expect(stub.callsTo('commission.updatePlan')).toEqual([
      {
        id: STANDARD._id,
        name: 'uncapped 80/20',
        agentSplit: 70,
        capCents: 2_000_000,
        transactionFeeCents: 49_500,
      },
    ]);
  });

  it('shows the plans to an office admin without Add or Edit', async () => {
    renderPlans({ 'settings.getUser': () => northAdminProfile() });
    await screen.findByRole('cell', { name: 'Standard 70/30' });
    expect(await screen.findByText('Only a brokerage-wide admin can add or change plans.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Add plan' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument();
  });
});
