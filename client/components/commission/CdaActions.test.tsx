import { notifications } from '@mantine/notifications';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { TRPCClientError } from '@trpc/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { commissionMessages } from '../../../shared/commission-messages';
import { AdminTransaction } from '../../pages/AdminTransaction';
import { paths } from '../../paths';
import { testCda } from '../../test-utils/cdas';
import { northAdminProfile, wideAdminProfile } from '../../test-utils/offices';
import { renderWithProviders } from '../../test-utils/render';
import { signInAs, TRANSACTION_ID, transaction } from '../../test-utils/transactions';
import { type StubHandler, stubTrpcClient } from '../../test-utils/trpc-stub';

configure({ asyncUtilTimeout: 5_000 });

const NOT_COMPLIANT = 'This transaction is not compliant yet: 2 required documents are not accepted';
const MISSING = [
  { formId: '00000000-0000-4000-8000-000000000001', label: 'Purchase Agreement' },
  { formId: '00000000-0000-4000-8000-000000000002', label: 'Disclosure Form' },
];

/** The 409 of a file that is not compliant, with the items it names, as tRPC hands it over. */
const notCompliant = () =>
  TRPCClientError.from({
    error: {
      code: -32009,
      message: NOT_COMPLIANT,
      data: { code: 'CONFLICT', httpStatus: 409, error: 'not-compliant', missing: MISSING },
    },
  });

function renderAdminPage(handlers: Record<string, StubHandler>) {
  signInAs('admin');
  const stub = stubTrpcClient({
    'settings.getUser': () => wideAdminProfile(),
    'keyDates.list': () => ({ dates: [], suggestedKinds: [] }),
    'adminTransactions.history': () => [],
    'rejectionReasons.list': () => [],
    'adminTransactions.get': () =>
      transaction({ commission: { grossCents: 1_000_000, ratePercent: null, referral: null } }),
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

async function commissionCard() {
  const heading = await screen.findByRole('heading', { level: 2, name: 'Commission' });
  return within(heading.closest('section') as HTMLElement);
}

afterEach(() => notifications.clean());

describe("the admin's CDAs", { timeout: 30_000 }, () => {
  it('shows why a CDA is refused, the missing items listed, and lets a brokerage-wide admin override', async () => {
    const issued = testCda(1, { override: { reason: 'Signed copies are on the way' } });
    const { user, stub } = renderAdminPage({
      'commission.listCdas': () => (stub.callsTo('commission.issueCda').length > 1 ? [issued] : []),
      'commission.issueCda': (input) => {
        if (!(input as { override?: unknown }).override) throw notCompliant();
        return issued;
      },
    });
    const card = await commissionCard();
    await user.click(await card.findByRole('button', { name: 'Issue CDA' }));
    const alert = await card.findByRole('alert');
    expect(alert).toHaveTextContent(NOT_COMPLIANT);
    expect(
      within(card.getByTestId('cda-missing'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Purchase Agreement', 'Disclosure Form']);

    await user.click(card.getByRole('button', { name: 'Override and issue' }));
    expect(await card.findByText(commissionMessages.overrideReasonRequired)).toBeVisible();
    await user.type(
      card.getByRole('textbox', { name: /Override with a reason/ }),
      'Signed copies are on the way',
    );
    await user.click(card.getByRole('button', { name: 'Override and issue' }));
    await waitFor(() =>
      expect(stub.callsTo('commission.issueCda')).toEqual([
        { id: TRANSACTION_ID },
        { id: TRANSACTION_ID, override: { reason: 'Signed copies are on the way' } },
      ]),
    );
    expect(await card.findByTestId('cda-version-1')).toBeVisible();
    expect(await card.findByRole('button', { name: 'Issue new version' })).toBeVisible();
    expect(card.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers an office admin no override', async () => {
    const { user } = renderAdminPage({
      'settings.getUser': () => northAdminProfile(),
      'commission.listCdas': () => [],
      'commission.issueCda': () => {
        throw notCompliant();
      },
    });
    const card = await commissionCard();
    await user.click(await card.findByRole('button', { name: 'Issue CDA' }));
    expect(await card.findByTestId('cda-missing')).toHaveTextContent('Purchase Agreement');
    expect(card.queryByRole('button', { name: 'Override and issue' })).not.toBeInTheDocument();
  });

  it('marks the current CDA paid today, leaving the moment to the server, then offers no new version', async () => {
    const current = testCda(2);
    const paid = { ...current, status: 'paid' as const, paidAt: '2025-04-03T10:00:00.000Z' };
    const { user, stub } = renderAdminPage({
      'commission.listCdas': () => [
        stub.callsTo('commission.markCdaPaid').length ? paid : current,
        testCda(1, { status: 'superseded' }),
      ],
      'commission.markCdaPaid': () => paid,
    });
    const card = await commissionCard();
    const form = await card.findByRole('form', { name: 'Mark version 2 paid' });
    expect(within(form).getByLabelText(/Paid on/)).not.toHaveValue('');
    await user.click(within(form).getByRole('button', { name: 'Mark paid' }));
    await waitFor(() =>
      expect(stub.callsTo('commission.markCdaPaid')).toEqual([{ id: TRANSACTION_ID, cdaId: current._id }]),
    );
    expect(await card.findByText(commissionMessages.cdaPaidCannotReplace)).toBeVisible();
    expect(card.queryByRole('button', { name: /Issue/ })).not.toBeInTheDocument();
    expect(card.queryByRole('form', { name: /Mark version/ })).not.toBeInTheDocument();
  });
});
