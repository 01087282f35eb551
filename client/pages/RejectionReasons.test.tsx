import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { complianceMessages } from '../../shared/messages';
import type { RejectionReason } from '../../shared/schemas/compliance';
import { renderWithProviders } from '../test-utils/render';
import { reasons as seeded } from '../test-utils/review-queue';
import { signInAs } from '../test-utils/transactions';
import { type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { RejectionReasons, reasonToasts } from './RejectionReasons';

const toast = (text: string) =>
  screen.findByText(text, {
    selector: '.mantine-Notification-description, .mantine-Notification-description *',
  });

/** The reasons the server keeps: create and update change the list the page reads again. */
function renderReasons(handlers: Record<string, StubHandler> = {}) {
  let reasons: RejectionReason[] = seeded.map((reason) => ({ ...reason }));
  const stub = stubTrpcClient({
    'rejectionReasons.list': () => reasons,
    'rejectionReasons.create': (input) => {
      const { label } = input as { label: string };
      const reason = { code: label.toLowerCase().replace(/[^a-z0-9]+/g, '-'), label, active: true };
      reasons = [...reasons, reason];
      return reason;
    },
    'rejectionReasons.update': (input) => {
      const { code, ...change } = input as Partial<RejectionReason> & { code: string };
      reasons = reasons.map((reason) => (reason.code === code ? { ...reason, ...change } : reason));
      return reasons.find((reason) => reason.code === code);
    },
    ...handlers,
  });
  const view = renderWithProviders(<RejectionReasons />, {
    path: '/admin/rejection-reasons',
    trpcClient: stub.client,
  });
  return { ...view, stub };
}

const rowOf = (label: string) => {
  const row = screen.getByRole('cell', { name: label }).closest('tr');
  if (!row) throw new Error(`no row for ${label}`);
  return within(row);
};

beforeEach(() => signInAs('admin'));
afterEach(() => notifications.clean());

describe('Rejection Reasons', () => {
  it('lists every reason with its code and status, retired ones included', async () => {
    renderReasons();
    expect(screen.getByRole('heading', { level: 1, name: 'Rejection Reasons' })).toBeVisible();
    await screen.findByRole('cell', { name: 'Missing signature' });
    expect(rowOf('Missing signature').getByText('missing-signature')).toBeVisible();
    expect(rowOf('Missing signature').getByText('Active')).toBeVisible();
    expect(rowOf('An old reason').getByText('Retired')).toBeVisible();
    expect(rowOf('An old reason').getByRole('button', { name: 'Restore An old reason' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to the review queue' })).toHaveAttribute(
      'href',
      '/admin/review',
    );
  });

  it('adds a reason', async () => {
    const { user, stub } = renderReasons();
    await screen.findByRole('cell', { name: 'Missing signature' });
    await user.click(screen.getByRole('button', { name: 'Add reason' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add reason' }));
    await user.type(dialog.getByRole('textbox', { name: /^Label/ }), '  Missing addendum ');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await toast(reasonToasts.added)).toBeVisible();
    expect(stub.callsTo('rejectionReasons.create')).toEqual([{ label: 'Missing addendum' }]);
    expect(await screen.findByRole('cell', { name: 'Missing addendum' })).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows the server's message under the field, and an empty label without asking", async () => {
    const { user, stub } = renderReasons({
      'rejectionReasons.create': () => {
        throw trpcError(409, complianceMessages.reasonLabelTaken);
      },
    });
    await screen.findByRole('cell', { name: 'Missing signature' });
    await user.click(screen.getByRole('button', { name: 'Add reason' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add reason' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(dialog.getByText(complianceMessages.reasonLabelRequired)).toBeVisible();
    expect(stub.callsTo('rejectionReasons.create')).toEqual([]);
    await user.type(dialog.getByRole('textbox', { name: /^Label/ }), 'missing signature');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText(complianceMessages.reasonLabelTaken)).toBeVisible();
    expect(dialog.getByRole('textbox', { name: /^Label/ })).toHaveAccessibleDescription(
      complianceMessages.reasonLabelTaken,
    );
  });

  it('renames a reason', async () => {
    const { user, stub } = renderReasons();
    await screen.findByRole('cell', { name: 'Missing signature' });
    await user.click(rowOf('Missing signature').getByRole('button', { name: 'Rename Missing signature' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Rename reason' }));
    const field = dialog.getByRole('textbox', { name: /^Label/ });
    expect(field).toHaveValue('Missing signature');
    await user.clear(field);
    await user.type(field, 'Signature missing');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await toast(reasonToasts.renamed)).toBeVisible();
    expect(stub.callsTo('rejectionReasons.update')).toEqual([
      { code: 'missing-signature', label: 'Signature missing' },
    ]);
    expect(await screen.findByRole('cell', { name: 'Signature missing' })).toBeVisible();
  });

  it('retires and restores a reason', async () => {
    const { user, stub } = renderReasons();
    await screen.findByRole('cell', { name: 'Missing signature' });
    await user.click(rowOf('Missing signature').getByRole('button', { name: 'Retire Missing signature' }));
    expect(await toast(reasonToasts.retired)).toBeVisible();
    await waitFor(() => expect(rowOf('Missing signature').getByText('Retired')).toBeVisible());
    await user.click(rowOf('An old reason').getByRole('button', { name: 'Restore An old reason' }));
    expect(await toast(reasonToasts.restored)).toBeVisible();
    expect(stub.callsTo('rejectionReasons.update')).toEqual([
      { code: 'missing-signature', active: false },
      { code: 'old-reason', active: true },
    ]);
    await waitFor(() => expect(rowOf('An old reason').getByText('Active')).toBeVisible());
  });
});
