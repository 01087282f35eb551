import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLabels } from '../../shared/audit-messages';
import type { AuditLogEvent, AuditLogInput } from '../../shared/schemas/audit';
import { renderWithProviders } from '../test-utils/render';
import { signInAs, uuid } from '../test-utils/transactions';
import { stubTrpcClient } from '../test-utils/trpc-stub';
import { Audit } from './Audit';

const admin = { _id: uuid(900), name: 'Ada Admin', email: 'ada@example.com' };

function event(n: number, overrides: Partial<AuditLogEvent> = {}): AuditLogEvent {
  return {
    _id: uuid(100 + n),
    seq: n,
    createdAt: `2026-12-0${1 + (n % 8)}T10:00:00.000Z`,
    actor: admin,
    apiKeyId: null,
    onBehalfOf: null,
    action: 'transaction.update',
    entity: 'Transaction',
    entityId: uuid(200 + n),
    transactionId: uuid(200 + n),
    before: { city: 'Salem' },
    after: { city: 'Portland' },
    hash: `${n}`.padStart(64, 'a'),
    prevHash: `${n - 1}`.padStart(64, 'a'),
    ...overrides,
  };
}

const FIRST_PAGE = [event(12), event(11, { action: 'form.review', actor: null })];
const SECOND_PAGE = [event(10)];

function renderPage(
  path = '/admin/audit',
  verify: () => unknown = () => ({ valid: true, events: 12, firstBrokenId: null }),
) {
  const stub = stubTrpcClient({
    'audit.list': (input) => {
      const { cursor, action } = input as AuditLogInput;
      if (action) return { items: FIRST_PAGE.filter((e) => e.action === action), nextCursor: null };
      return cursor ? { items: SECOND_PAGE, nextCursor: null } : { items: FIRST_PAGE, nextCursor: 'c-11' };
    },
    'audit.verify': verify,
    'users.list': () => ({ users: [], totalPages: 0, totalUsers: 0 }),
  });
  const rendered = renderWithProviders(<Audit />, { path, trpcClient: stub.client });
  return { ...rendered, stub };
}

const listCalls = (stub: ReturnType<typeof stubTrpcClient>) =>
  stub.calls.filter((call) => call.path === 'audit.list').map((call) => call.input as AuditLogInput);

beforeEach(() => signInAs('admin'));

describe('Audit', () => {
  it('lists the events newest first, with who did what, and shows one whole in a dialog', async () => {
    const { user } = renderPage();
    expect(screen.getByRole('heading', { level: 1, name: auditLabels.title })).toBeVisible();
    const review = (await screen.findByRole('cell', { name: 'form.review' })).closest('tr') as HTMLElement;
    expect(within(review).getByText(auditLabels.system)).toBeVisible();
    const update = screen.getByRole('cell', { name: 'transaction.update' }).closest('tr') as HTMLElement;
    expect(within(update).getByText('Ada Admin (ada@example.com)')).toBeVisible();
    await user.click(within(update).getByRole('button', { name: /Details/ }));
    const dialog = within(await screen.findByRole('dialog', { name: 'transaction.update' }));
    expect(dialog.getByText(/"city": "Salem"/)).toBeVisible();
    expect(dialog.getByText(/"city": "Portland"/)).toBeVisible();
    expect(dialog.getByText(FIRST_PAGE[0]?.hash as string)).toBeVisible();
  });

  it('verifies the chain on demand and says what it found', async () => {
    const { user, stub } = renderPage();
    await screen.findByRole('cell', { name: 'form.review' });
    expect(stub.calls.some((call) => call.path === 'audit.verify')).toBe(false);
    await user.click(screen.getByRole('button', { name: auditLabels.verify }));
    expect(await screen.findByText(auditLabels.chainValid('12'))).toBeVisible();
  });

  it('names the first broken event of a broken chain', async () => {
    const broken = uuid(111);
    const { user } = renderPage('/admin/audit', () => ({ valid: false, events: 12, firstBrokenId: broken }));
    await user.click(screen.getByRole('button', { name: auditLabels.verify }));
    expect(await screen.findByText(auditLabels.chainBroken('12'))).toBeVisible();
    expect(screen.getByText(auditLabels.firstBroken(broken))).toBeVisible();
  });

  it('keeps the filters in the address and asks the server with them', async () => {
    const { user, stub, currentPath } = renderPage();
    await screen.findByRole('cell', { name: 'form.review' });
    await user.selectOptions(screen.getByRole('combobox', { name: auditLabels.action }), 'form.review');
    await waitFor(() => expect(currentPath()).toBe('/admin/audit?action=form.review'));
    await waitFor(() => expect(listCalls(stub).at(-1)).toMatchObject({ action: 'form.review' }));
    expect(await screen.findByRole('cell', { name: 'form.review' })).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'transaction.update' })).toBeNull());
  });

  it('reads the filters of a shared link', async () => {
    const { stub } = renderPage('/admin/audit?entity=Transaction&from=2026-12-01&to=2026-12-03');
    await waitFor(() =>
      expect(listCalls(stub)[0]).toMatchObject({
        entity: 'Transaction',
        from: '2026-12-01',
        to: '2026-12-03',
      }),
    );
    expect(screen.getByRole('combobox', { name: auditLabels.entity })).toHaveValue('Transaction');
    expect(screen.getByLabelText(auditLabels.from)).toHaveValue('2026-12-01');
  });

  it('pages to older events by the server cursor and back', async () => {
    const { user, stub } = renderPage();
    await screen.findByRole('cell', { name: 'form.review' });
    expect(screen.getByRole('button', { name: auditLabels.newer })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: auditLabels.older }));
    await waitFor(() => expect(listCalls(stub).at(-1)).toMatchObject({ cursor: 'c-11' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'form.review' })).toBeNull());
    expect(screen.getByRole('button', { name: auditLabels.older })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: auditLabels.newer }));
    expect(await screen.findByRole('cell', { name: 'form.review' })).toBeVisible();
  });
});
