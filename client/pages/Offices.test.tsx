import { notifications } from '@mantine/notifications';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { officeMessages } from '../../shared/messages';
import type { OfficesAnswer } from '../../shared/schemas/offices';
import { setSession } from '../auth/session';
import { NORTH_ID, northAdminProfile, testOffices, wideAdminProfile } from '../test-utils/offices';
import { renderWithProviders } from '../test-utils/render';
import { fakeAccessToken } from '../test-utils/tokens';
import { type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { TEST_USER_ID } from '../test-utils/users';
import { Offices } from './Offices';

const toast = (text: string) =>
  screen.findByText(text, {
    selector: '.mantine-Notification-description, .mantine-Notification-description *',
  });

const rowOf = (name: string) => {
  const row = screen.getByRole('cell', { name }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return within(row);
};

/** The offices the server keeps: create and update change what the page reads again. */
function renderOffices(handlers: Record<string, StubHandler> = {}) {
  let offices: OfficesAnswer = testOffices();
  const stub = stubTrpcClient({
    'settings.getUser': () => wideAdminProfile(),
    'offices.list': () => offices,
    'offices.create': (input) => {
      const made = { ...(input as { name: string; reviewTargetHours: number; retentionYears: number }) };
      const office = {
        _id: 'c0000000-0000-4000-8000-000000000009',
        createdAt: '2026-12-01T00:00:00.000Z',
        ...made,
      };
      offices = [...offices, { ...office, agentCount: 0 }];
      return office;
    },
    'offices.update': (input) => {
      const { id, ...change } = input as { id: string };
      offices = offices.map((office) => (office._id === id ? { ...office, ...change } : office));
      return offices.find((office) => office._id === id);
    },
    ...handlers,
  });
  const view = renderWithProviders(<Offices />, { path: '/admin/offices', trpcClient: stub.client });
  return { ...view, stub };
}

// Each dialog is compiled on first use: on a loaded two-core machine that outlasts the default wait.
configure({ asyncUtilTimeout: 5_000 });

beforeEach(() => {
  setSession({
    accessToken: fakeAccessToken({ sub: TEST_USER_ID, role: 'admin' }),
    refreshToken: 'stored-refresh',
    userId: TEST_USER_ID,
  });
});
afterEach(() => notifications.clean());

describe('Offices page', { timeout: 30_000 }, () => {
  it('lists each office with its review target, retention and agents, with Edit and Delete for a brokerage-wide admin', async () => {
    renderOffices();
    expect(screen.getByRole('heading', { level: 1, name: 'Offices' })).toBeVisible();
    await screen.findByRole('cell', { name: 'South' });
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Name',
      'Review target',
      'Retention',
      'Agents',
      'Actions',
    ]);
    expect(rowOf('South').getByRole('cell', { name: '8 hours' })).toBeVisible();
    expect(rowOf('South').getByRole('cell', { name: '10 years' })).toBeVisible();
    expect(rowOf('North').getByRole('cell', { name: '3' })).toBeVisible();
    expect(rowOf('North').getByRole('button', { name: 'Edit North' })).toBeVisible();
    expect(rowOf('North').getByRole('button', { name: 'Delete North' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Add office' })).toBeVisible();
  });

  it('shows an office admin its office read-only: no Add, Edit or Delete', async () => {
    renderOffices({
      'settings.getUser': () => northAdminProfile(),
      'offices.list': () => testOffices().filter((office) => office._id === NORTH_ID),
    });
    await screen.findByRole('cell', { name: 'North' });
    expect(screen.queryByRole('cell', { name: 'South' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).not.toContain('Actions');
    expect(screen.queryByRole('button', { name: /Add office|Edit|Delete/ })).not.toBeInTheDocument();
  });

  it('adds an office with the default targets, toasts and shows it; an empty name sends nothing', async () => {
    const { user, stub } = renderOffices();
    await screen.findByRole('cell', { name: 'North' });
    await user.click(screen.getByRole('button', { name: 'Add office' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add office' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText(officeMessages.nameRequired)).toBeVisible();
    expect(stub.callsTo('offices.create')).toEqual([]);

    await user.type(dialog.getByRole('textbox', { name: /^Name/ }), '  East  ');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await toast(officeMessages.created)).toBeVisible();
    expect(stub.callsTo('offices.create')).toEqual([
      { name: 'East', reviewTargetHours: 24, retentionYears: 7 },
    ]);
    expect(await screen.findByRole('cell', { name: 'East' })).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows a name another office has as the name field's error, and keeps the dialog open", async () => {
    const { user } = renderOffices({
      'offices.create': () => {
        throw trpcError(409, officeMessages.nameTaken);
      },
    });
    await screen.findByRole('cell', { name: 'North' });
    await user.click(screen.getByRole('button', { name: 'Add office' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add office' }));
    await user.type(dialog.getByRole('textbox', { name: /^Name/ }), 'north');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText(officeMessages.nameTaken)).toBeVisible();
    expect(dialog.getByRole('textbox', { name: /^Name/ })).toHaveAttribute('aria-invalid', 'true');
  });

  it('edits an office from its current values', async () => {
    const { user, stub } = renderOffices();
    await screen.findByRole('cell', { name: 'South' });
    await user.click(rowOf('South').getByRole('button', { name: 'Edit South' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit office' }));
    expect(dialog.getByRole('textbox', { name: /^Name/ })).toHaveValue('South');
    const target = dialog.getByRole('textbox', { name: /^Review target/ });
    expect(target).toHaveValue('8');
    await user.clear(target);
    await user.type(target, '12');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await toast(officeMessages.updated)).toBeVisible();
    expect(stub.callsTo('offices.update')).toEqual([
      { id: testOffices()[1]?._id, name: 'South', reviewTargetHours: 12, retentionYears: 10 },
    ]);
    expect(await screen.findByRole('cell', { name: '12 hours' })).toBeVisible();
  });

  it('deletes after a confirmation, and toasts why an office with users stays', async () => {
    let refuse = true;
    const { user, stub } = renderOffices({
      'offices.delete': () => {
        if (refuse) throw trpcError(409, officeMessages.stillHasUsers);
        return { message: officeMessages.deleted };
      },
    });
    await screen.findByRole('cell', { name: 'North' });
    await user.click(rowOf('North').getByRole('button', { name: 'Delete North' }));
    let confirm = within(await screen.findByRole('dialog', { name: 'Delete office' }));
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    expect(await toast(officeMessages.stillHasUsers)).toBeVisible();

    refuse = false;
    await user.click(rowOf('North').getByRole('button', { name: 'Delete North' }));
    confirm = within(await screen.findByRole('dialog', { name: 'Delete office' }));
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    expect(await toast(officeMessages.deleted)).toBeVisible();
    expect(stub.callsTo('offices.delete')).toEqual([{ id: NORTH_ID }, { id: NORTH_ID }]);
  });
});
