import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keyDateMessages } from '../../../shared/messages';
import type { KeyDatesAnswer } from '../../../shared/schemas/key-dates';
import { renderWithProviders } from '../../test-utils/render';
import { signInAs, TRANSACTION_ID, uuid } from '../../test-utils/transactions';
import { type StubHandler, stubTrpcClient, trpcError } from '../../test-utils/trpc-stub';
import { DATE_REQUIRED, KeyDatesEditor } from './KeyDatesEditor';

const ANSWER: KeyDatesAnswer = {
  dates: [
    { _id: uuid(301), kind: 'inspection', label: 'Inspection deadline', date: '2025-11-20', done: false },
    { _id: uuid(302), kind: 'appraisal', label: 'Appraisal deadline', date: '2025-12-04', done: false },
    { _id: uuid(303), kind: 'custom', label: 'HOA documents', date: '2025-12-01', done: false },
    {
      _id: uuid(304),
      kind: 'contract-acceptance',
      label: 'Contract acceptance',
      date: '2025-11-10',
      done: true,
    },
  ],
  suggestedKinds: ['closing'],
};

function renderEditor(handlers: Record<string, StubHandler> = {}, closed = false) {
  const stub = stubTrpcClient({ 'keyDates.list': () => ANSWER, ...handlers });
  const view = renderWithProviders(<KeyDatesEditor transactionId={TRANSACTION_ID} closed={closed} />, {
    trpcClient: stub.client,
  });
  return { ...view, stub };
}

const row = (name: string) => within(screen.getByRole('group', { name }));
const toast = (text: string) =>
  screen.findByText(text, {
    selector: '.mantine-Notification-description, .mantine-Notification-description *',
  });

beforeEach(() => {
  signInAs('user');
  // Only the date: timers stay real for user-event and the stub network.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2025, 10, 28, 10, 0));
});
afterEach(() => {
  vi.useRealTimers();
  notifications.clean();
});

describe('KeyDatesEditor', () => {
  it('shows each date with where it stands, overdue in red, and the suggested kinds as empty rows', async () => {
    renderEditor();
    const inspection = await screen.findByRole('group', { name: 'Inspection deadline' });
    const state = within(inspection).getByTestId('key-date-state');
    expect(state).toHaveTextContent(/^overdue$/);
    expect(state.getAttribute('style')).toContain('--mantine-color-red');
    expect(inspection).toHaveAttribute('data-state', 'overdue');

    expect(row('Appraisal deadline').getByTestId('key-date-state')).toHaveTextContent(/^in 6 days$/);
    expect(row('Appraisal deadline').getByTestId('key-date-state').getAttribute('style')).not.toContain(
      'red',
    );
    expect(row('HOA documents').getByRole('textbox', { name: /^Label/ })).toHaveValue('HOA documents');
    expect(row('HOA documents').getByTestId('key-date-state')).toHaveTextContent('in 3 days');
    expect(row('Contract acceptance').getByTestId('key-date-state')).toHaveTextContent(/^done$/);
    expect(row('Contract acceptance').getByRole('checkbox', { name: 'Done' })).toBeChecked();

    const closing = row('Closing');
    expect(closing.getByRole('button', { name: 'Date' })).toHaveTextContent('Pick a date');
    expect(closing.queryByTestId('key-date-state')).not.toBeInTheDocument();
  });

  it('sends every row in one replace: the suggested row once filled, done, a new custom date; not the removed one', async () => {
    const replace = vi.fn((_input: unknown) => ANSWER);
    const { user, stub } = renderEditor({ 'keyDates.replace': replace });
    await screen.findByRole('group', { name: 'Inspection deadline' });

    await user.click(row('Inspection deadline').getByRole('checkbox', { name: 'Done' }));
    await user.click(row('Appraisal deadline').getByRole('button', { name: 'Remove Appraisal deadline' }));

    // The suggested closing row: pick Dec 12 in the picker.
    await user.click(row('Closing').getByRole('button', { name: 'Date' }));
    await user.click(await screen.findByRole('button', { name: '12 November 2025' }));
    await waitFor(() => expect(row('Closing').getByTestId('key-date-state')).toHaveTextContent('overdue'));

    await user.click(screen.getByRole('button', { name: 'Add date' }));
    // The first kind not used yet.
    const added = row('Appraisal deadline');
    await user.selectOptions(added.getByRole('combobox', { name: 'Kind' }), 'custom');
    const custom = row('Custom date 5');
    await user.type(custom.getByRole('textbox', { name: /^Label/ }), 'Walk-through');
    await user.click(row('Walk-through').getByRole('button', { name: 'Date' }));
    await user.click(await screen.findByRole('button', { name: '30 November 2025' }));

    await user.click(screen.getByRole('button', { name: 'Save key dates' }));
    expect(await toast(keyDateMessages.saved)).toBeVisible();
    expect(stub.callsTo('keyDates.replace')).toEqual([
      {
        id: TRANSACTION_ID,
        dates: [
          { kind: 'inspection', date: '2025-11-20', done: true },
          { kind: 'custom', label: 'HOA documents', date: '2025-12-01', done: false },
          { kind: 'contract-acceptance', date: '2025-11-10', done: true },
          { kind: 'closing', date: '2025-11-12', done: false },
          { kind: 'custom', label: 'Walk-through', date: '2025-11-30', done: false },
        ],
      },
    ]);
  }, 20_000);

  it('leaves untouched suggestions out, and refuses a custom row without a label or a day', async () => {
    const { user, stub } = renderEditor({ 'keyDates.replace': () => ANSWER });
    await screen.findByRole('group', { name: 'Inspection deadline' });
    await user.click(screen.getByRole('button', { name: 'Add date' }));
    await user.selectOptions(row('Financing contingency').getByRole('combobox', { name: 'Kind' }), 'custom');
    await user.click(screen.getByRole('button', { name: 'Save key dates' }));
    const custom = row('Custom date 6');
    expect(custom.getByText(keyDateMessages.customLabelRequired)).toBeVisible();
    expect(custom.getByText(DATE_REQUIRED)).toBeVisible();
    expect(stub.callsTo('keyDates.replace')).toEqual([]);

    await user.click(custom.getByRole('button', { name: 'Remove Custom date 6' }));
    await user.click(screen.getByRole('button', { name: 'Save key dates' }));
    await waitFor(() => expect(stub.callsTo('keyDates.replace')).toHaveLength(1));
    const [sent] = stub.callsTo('keyDates.replace') as { dates: { kind: string }[] }[];
    expect(sent?.dates.map((date) => date.kind)).toEqual([
      'inspection',
      'appraisal',
      'custom',
      'contract-acceptance',
    ]);
  }, 15_000);

  it("toasts the server's refusal", async () => {
    const { user } = renderEditor({
      'keyDates.replace': () => {
        throw trpcError(409, 'This transaction is closed');
      },
    });
    await screen.findByRole('group', { name: 'Inspection deadline' });
    await user.click(screen.getByRole('button', { name: 'Save key dates' }));
    expect(await toast('This transaction is closed')).toBeVisible();
  });

  it('is read-only on a closed transaction: no suggestions, no add, remove or save', async () => {
    renderEditor({}, true);
    await screen.findByRole('group', { name: 'Inspection deadline' });
    expect(screen.queryByRole('group', { name: 'Closing' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add date' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save key dates' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(row('Inspection deadline').getByRole('checkbox', { name: 'Done' })).toBeDisabled();
    expect(row('Inspection deadline').getByRole('combobox', { name: 'Kind' })).toBeDisabled();
  });
});
