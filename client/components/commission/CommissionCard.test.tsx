import { notifications } from '@mantine/notifications';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { commissionMessages } from '../../../shared/commission-messages';
import type { Transaction as TransactionAnswer } from '../../../shared/schemas/transactions';
import { Transaction } from '../../pages/Transaction';
import { paths } from '../../paths';
import { testCda } from '../../test-utils/cdas';
import { renderWithProviders } from '../../test-utils/render';
import { signInAs, TRANSACTION_ID, transaction } from '../../test-utils/transactions';
import { type StubHandler, stubTrpcClient, trpcError } from '../../test-utils/trpc-stub';

configure({ asyncUtilTimeout: 5_000 });

function renderAgentPage(handlers: Record<string, StubHandler>) {
  signInAs('user');
  const stub = stubTrpcClient({
    'keyDates.list': () => ({ dates: [], suggestedKinds: [] }),
    'transactions.list': () => ({ transactions: [], totalPages: 1, totalTransactions: 0 }),
    'transactions.search': () => ({ transactions: [], totalPages: 1, totalTransactions: 0 }),
    'commission.listCdas': () => [],
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

async function commissionCard() {
  const heading = await screen.findByRole('heading', { level: 2, name: 'Commission' });
  return within(heading.closest('section') as HTMLElement);
}

const SOLD = { salePriceCents: 85_000_000, yearBuilt: null, financing: null, propertyType: null, hoa: null };

afterEach(() => notifications.clean());

describe('Commission card', { timeout: 30_000 }, () => {
  it('sends an amount typed in dollars as exact cents and shows the gross it answers with', async () => {
    const saved: TransactionAnswer = transaction({
      commission: { grossCents: 2_550_029, ratePercent: null, referral: null },
    });
    const { user, stub } = renderAgentPage({
      'transactions.get': () => (stub.callsTo('commission.setForTransaction').length ? saved : transaction()),
      'commission.setForTransaction': () => saved,
    });
    const card = await commissionCard();
    expect(card.getByText('No commission set yet.')).toBeVisible();
    await user.type(card.getByRole('textbox', { name: 'Gross commission' }), '25,500.29');
    await user.click(card.getByRole('button', { name: 'Save commission' }));
    await waitFor(() =>
      expect(stub.callsTo('commission.setForTransaction')).toEqual([
        { id: TRANSACTION_ID, grossCommissionCents: 2_550_029, referral: null },
      ]),
    );
    expect(await card.findByTestId('commission-gross')).toHaveTextContent('Gross commission: $25,500.29');
    expect(card.getByRole('textbox', { name: 'Gross commission' })).toHaveValue('25,500.29');
  });

  it('takes a rate of the sale price with a referral, showing the gross it makes before saving', async () => {
    const { user, stub } = renderAgentPage({
      'transactions.get': () => transaction({ facts: SOLD }),
      'commission.setForTransaction': () =>
        transaction({
          facts: SOLD,
          commission: {
            grossCents: 2_125_000,
            ratePercent: 2.5,
            referral: { name: 'Lee Realty', percent: 25 },
          },
        }),
    });
    const card = await commissionCard();
    await user.click(card.getByRole('radio', { name: 'Rate of sale price' }));
    const rate = card.getByRole('textbox', { name: 'Rate' });
    await user.type(rate, '2.5');
    expect(rate).toHaveAccessibleDescription('$21,250.00 of $850,000.00');
    await user.type(card.getByRole('textbox', { name: /Referral name/ }), 'Lee Realty');
    await user.type(card.getByRole('textbox', { name: /Referral percent/ }), '25');
    await user.click(card.getByRole('button', { name: 'Save commission' }));
    await waitFor(() =>
      expect(stub.callsTo('commission.setForTransaction')).toEqual([
        { id: TRANSACTION_ID, ratePercent: 2.5, referral: { name: 'Lee Realty', percent: 25 } },
      ]),
    );
  });

  it('says a rate needs the sale price, and puts refusals on their fields', async () => {
    const { user, stub } = renderAgentPage({
      'transactions.get': () =>
        transaction({ commission: { grossCents: null, ratePercent: 3, referral: null } }),
      'commission.setForTransaction': () => {
        throw trpcError(400, commissionMessages.needsSalePrice);
      },
    });
    const card = await commissionCard();
    expect(card.getByTestId('commission-gross')).toHaveTextContent(commissionMessages.needsSalePrice);
    const rate = card.getByRole('textbox', { name: 'Rate' });
    expect(rate).toHaveValue('3');
    await user.type(card.getByRole('textbox', { name: /Referral name/ }), 'Lee Realty');
    await user.click(card.getByRole('button', { name: 'Save commission' }));
    expect(await card.findByText('Give both the referral’s name and percent, or neither')).toBeVisible();
    expect(stub.callsTo('commission.setForTransaction')).toEqual([]);

    await user.clear(card.getByRole('textbox', { name: /Referral name/ }));
    await user.click(card.getByRole('button', { name: 'Save commission' }));
    await waitFor(() => expect(rate).toHaveAttribute('aria-invalid', 'true'));
    expect(stub.callsTo('commission.setForTransaction')).toHaveLength(1);
  });

  it('shows a closed file’s commission read-only', async () => {
    renderAgentPage({
      'transactions.get': () =>
        transaction({
          closedAt: '2025-04-01T10:00:00.000Z',
          status: 'closed',
          commission: { grossCents: 1_000_000, ratePercent: null, referral: null },
        }),
    });
    const card = await commissionCard();
    expect(card.getByText('This transaction is closed: its commission shows only.')).toBeVisible();
    expect(card.getByRole('textbox', { name: 'Gross commission' })).toBeDisabled();
    expect(card.queryByRole('button', { name: 'Save commission' })).not.toBeInTheDocument();
  });

  it("lists the agent's CDAs newest first with their lines, PDF and hash, and nothing to issue", async () => {
    const paid = testCda(1, { status: 'superseded', supersededAt: '2025-04-02T10:00:00.000Z' });
    const current = testCda(2, { override: { reason: 'Broker approved the late disclosure' } });
    renderAgentPage({
      'transactions.get': () =>
        transaction({ commission: { grossCents: 1_000_000, ratePercent: null, referral: null } }),
      'commission.listCdas': () => [current, paid],
    });
    const card = await commissionCard();
    const newest = within(await card.findByTestId('cda-version-2'));
    expect(newest.getByText('Issued')).toBeVisible();
    const lines = newest.getAllByRole('row').map((row) => row.textContent);
    expect(lines).toEqual([
      'PayeeKindAmount',
      'Coastal HomesBrokerage share$1,000.00',
      'Dana AgentAgent share$8,950.00',
      'Coastal HomesTransaction fee$50.00',
    ]);
    expect(newest.getByTestId('cda-override')).toHaveTextContent('Broker approved the late disclosure');
    expect(newest.getByRole('link', { name: 'Download PDF of version 2' })).toHaveAttribute(
      'href',
      current.pdfUrl,
    );
    const hash = newest.getByTestId('cda-sha256');
    expect(hash).toHaveTextContent('22222222…22222222');
    expect(hash).toHaveAttribute('title', current.sha256);
    expect(within(card.getByTestId('cda-version-1')).getByText('Superseded')).toBeVisible();
    const versions = card.getAllByRole('heading', { level: 4 }).map((heading) => heading.textContent);
    expect(versions).toEqual(['Version 2', 'Version 1']);
    expect(card.queryByRole('button', { name: /Issue/ })).not.toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Mark paid' })).not.toBeInTheDocument();
  });
});
