import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route } from 'wouter';
import { archiveLabels } from '../../../shared/archive-messages';
import type { ArchiveAnswer } from '../../../shared/schemas/archives';
import { Transaction } from '../../pages/Transaction';
import { paths } from '../../paths';
import { renderWithProviders } from '../../test-utils/render';
import { signInAs, TRANSACTION_ID, transaction } from '../../test-utils/transactions';
import { stubTrpcClient } from '../../test-utils/trpc-stub';

configure({ asyncUtilTimeout: 5_000 });

const CLOSED_AT = '2026-12-01T15:00:00.000Z';
const SHA = 'a'.repeat(64);

function renderClosedPage(answers: ArchiveAnswer[]) {
  signInAs('user');
  let call = 0;
  const stub = stubTrpcClient({
    'keyDates.list': () => ({ dates: [], suggestedKinds: [] }),
    'commission.listCdas': () => [],
    'transactions.get': () => transaction({ closedAt: CLOSED_AT }),
    'archives.status': () => answers[Math.min(call++, answers.length - 1)] ?? null,
  });
  renderWithProviders(
    <Route path={paths.transaction}>
      <Transaction />
    </Route>,
    { path: `/home/transactions/${TRANSACTION_ID}`, trpcClient: stub.client },
  );
  return stub;
}

const preparing: ArchiveAnswer = {
  status: 'preparing',
  closedAt: CLOSED_AT,
  sealedAt: null,
  sha256: null,
  bytes: null,
};
const ready: ArchiveAnswer = {
  status: 'ready',
  closedAt: CLOSED_AT,
  sealedAt: '2026-12-01T15:00:04.000Z',
  sha256: SHA,
  bytes: 3 * 1024 * 1024,
};

describe('Archive card', { timeout: 30_000 }, () => {
  it('says the archive is being prepared, then offers it with its sha256 once sealed', async () => {
    renderClosedPage([preparing, ready]);
    const heading = await screen.findByRole('heading', { level: 2, name: archiveLabels.title });
    const card = within(heading.closest('section') as HTMLElement);
    expect(card.getByText(archiveLabels.preparing)).toBeVisible();
    expect(
      await card.findByRole('button', { name: archiveLabels.download }, { timeout: 6_000 }),
    ).toBeVisible();
    expect(card.getByText(SHA)).toBeVisible();
    expect(card.getByText(`${archiveLabels.size}: 3.0 MB`)).toBeVisible();
  });

  it('is not shown on an open file', async () => {
    signInAs('user');
    const stub = stubTrpcClient({
      'keyDates.list': () => ({ dates: [], suggestedKinds: [] }),
      'commission.listCdas': () => [],
      'transactions.get': () => transaction(),
    });
    renderWithProviders(
      <Route path={paths.transaction}>
        <Transaction />
      </Route>,
      { path: `/home/transactions/${TRANSACTION_ID}`, trpcClient: stub.client },
    );
    await screen.findByRole('heading', { level: 2, name: 'Commission' });
    expect(screen.queryByRole('heading', { level: 2, name: archiveLabels.title })).toBeNull();
    expect(stub.callsTo('archives.status')).toEqual([]);
  });
});
