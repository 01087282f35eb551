import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alerts, validation } from '../../shared/messages';
import type { PublicUser } from '../../shared/schemas/users';
import { setSession } from '../auth/session';
import { renderWithProviders } from '../test-utils/render';
import { fakeAccessToken } from '../test-utils/tokens';
import { deferred, type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { TEST_USER_ID, testProfile } from '../test-utils/users';
import { Users, userToasts } from './Users';

const owner = testProfile({
  firstName: 'Olive',
  lastName: 'Owner',
  email: 'olive@example.com',
  role: 'admin',
  isOwner: true,
});
const active = testProfile({
  _id: 'b0000000-0000-4000-8000-000000000002',
  firstName: 'Dana',
  lastName: 'Agent',
  email: 'dana@example.com',
  phoneNumber: '123-456-7890',
});
const pending = testProfile({
  _id: 'b0000000-0000-4000-8000-000000000003',
  firstName: 'Pat',
  lastName: 'Pending',
  email: 'pat@example.com',
  isAdminApproved: false,
  status: 'awaitingApproval',
});
const unverified = testProfile({
  _id: 'b0000000-0000-4000-8000-000000000004',
  firstName: 'Una',
  lastName: 'Unverified',
  email: 'una@example.com',
  isAdminApproved: false,
  isEmailVerified: false,
  status: 'emailUnverified',
});
const deactivated = testProfile({
  _id: 'b0000000-0000-4000-8000-000000000005',
  firstName: 'Dora',
  lastName: 'Gone',
  email: 'dora@example.com',
  isAdminApproved: false,
  status: 'deactivated',
  deactivatedAt: '2026-11-20T10:00:00.000Z',
});

const listAnswer = (users: PublicUser[], totalUsers = users.length) => ({
  users,
  totalUsers,
  totalPages: Math.max(1, Math.ceil(totalUsers / 10)),
});

function renderUsers(handlers: Record<string, StubHandler> = {}) {
  const stub = stubTrpcClient({
    'users.list': () => listAnswer([owner, active, pending]),
    'settings.getUser': () => owner,
    'offices.list': () => [],
    ...handlers,
  });
  const view = renderWithProviders(<Users />, { path: '/users', trpcClient: stub.client });
  return { ...view, stub };
}

const rowOf = (email: string) => {
  const row = screen.getByRole('cell', { name: email }).closest('tr');
  if (!row) throw new Error(`no row for ${email}`);
  return within(row);
};
const toast = (text: string) =>
  screen.findByText(text, {
    selector: '.mantine-Notification-description, .mantine-Notification-description *',
  });

/** The confirmation every deactivation waits for. */
async function confirmDeactivation(user: ReturnType<typeof renderUsers>['user']) {
  const dialog = within(await screen.findByRole('dialog', { name: 'Deactivate user' }));
  await user.click(dialog.getByRole('button', { name: 'Deactivate' }));
}

async function openAddUser(user: ReturnType<typeof renderUsers>['user']) {
  await user.click(screen.getByRole('button', { name: 'Add user' }));
  return within(await screen.findByRole('dialog', { name: 'Add user' }));
}

type Dialog = Awaited<ReturnType<typeof openAddUser>>;

async function fillValid(user: ReturnType<typeof renderUsers>['user'], dialog: Dialog) {
  await user.type(dialog.getByRole('textbox', { name: /^First name/ }), 'Sam');
  await user.type(dialog.getByRole('textbox', { name: /^Last name/ }), 'Seller');
  await user.type(dialog.getByRole('textbox', { name: /^Email/ }), 'sam@example.com');
  await user.type(dialog.getByRole('textbox', { name: /^Phone number/ }), '123-456-7890');
  await user.type(dialog.getByRole('textbox', { name: /^Company/ }), 'Acme Realty');
  await user.type(dialog.getByLabelText(/^Password/), 'secret-pass');
  await user.selectOptions(dialog.getByRole('combobox', { name: /^Role/ }), 'admin');
}

beforeEach(() => {
  setSession({
    accessToken: fakeAccessToken({ sub: TEST_USER_ID, role: 'admin' }),
    refreshToken: 'stored-refresh',
    userId: TEST_USER_ID,
  });
});

afterEach(() => {
  notifications.clean();
});

describe('Users page', () => {
  it("shows 'Loading...', then the users with their role badge and the right toggle", async () => {
    const answer = deferred();
    const { stub } = renderUsers({ 'users.list': () => answer.promise });
    expect(screen.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'First name',
      'Last name',
      'Email',
      'Phone',
      'Role',
      'Office',
      'Status',
      'Actions',
    ]);
    expect(screen.getByText('Loading...')).toBeVisible();

    answer.resolve(listAnswer([owner, active, pending]));
    expect(await screen.findByRole('cell', { name: 'dana@example.com' })).toBeVisible();
    expect(rowOf('dana@example.com').getByRole('cell', { name: '123-456-7890' })).toBeVisible();
    expect(rowOf('dana@example.com').getByText('user')).toBeVisible();
    expect(rowOf('olive@example.com').getByText('admin')).toBeVisible();
    expect(rowOf('dana@example.com').getByRole('button', { name: 'Deactivate' })).toBeVisible();
    expect(rowOf('pat@example.com').getByRole('button', { name: 'Activate' })).toBeVisible();
    // The owner account has no toggle: no one may deactivate it.
    expect(rowOf('olive@example.com').queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByTestId('pager-summary')).toHaveTextContent('Showing 1 to 3 of 3 results');
    expect(stub.callsTo('users.list')).toEqual([{ page: 1, limit: 10 }]);
  });

  it('deactivates and activates a user, toasts the outcome and reloads the list', async () => {
    const { user, stub } = renderUsers({
      'users.deactivate': () => ({ ...active, isAdminApproved: false }),
      'users.activate': () => ({ ...pending, isAdminApproved: true }),
    });
    await screen.findByRole('cell', { name: 'dana@example.com' });

    await user.click(rowOf('dana@example.com').getByRole('button', { name: 'Deactivate' }));
    await confirmDeactivation(user);
    expect(await toast(userToasts.deactivated)).toBeVisible();
    expect(stub.callsTo('users.deactivate')).toEqual([{ id: active._id }]);
    await waitFor(() => expect(stub.callsTo('users.list')).toHaveLength(2));

    await waitFor(() =>
      expect(rowOf('pat@example.com').getByRole('button', { name: 'Activate' })).toBeEnabled(),
    );
    await user.click(rowOf('pat@example.com').getByRole('button', { name: 'Activate' }));
    // Activation asks nothing.
    expect(screen.queryByRole('dialog', { name: 'Deactivate user' })).not.toBeInTheDocument();
    expect(await toast(userToasts.activated)).toBeVisible();
    expect(stub.callsTo('users.activate')).toEqual([{ id: pending._id }]);
    await waitFor(() => expect(stub.callsTo('users.list')).toHaveLength(3));
  });

  it("toasts the server's message when a toggle is refused", async () => {
    const { user } = renderUsers({
      'users.deactivate': () => {
        throw trpcError(403, 'You cannot deactivate your own account');
      },
    });
    await screen.findByRole('cell', { name: 'dana@example.com' });
    await user.click(rowOf('dana@example.com').getByRole('button', { name: 'Deactivate' }));
    await confirmDeactivation(user);
    expect(await toast('You cannot deactivate your own account')).toBeVisible();
  });

  it('asks before deactivating: Cancel sends nothing', async () => {
    const { user, stub } = renderUsers({ 'users.deactivate': () => ({ ...active, isAdminApproved: false }) });
    await screen.findByRole('cell', { name: 'dana@example.com' });
    await user.click(rowOf('dana@example.com').getByRole('button', { name: 'Deactivate' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Deactivate user' }));
    expect(dialog.getByText(/Deactivate Dana Agent \(dana@example\.com\)\?/)).toBeVisible();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Deactivate user' })).not.toBeInTheDocument(),
    );
    expect(stub.callsTo('users.deactivate')).toEqual([]);
  });

  it('tells an unverified registration, one awaiting approval, an active and a deactivated account apart', async () => {
    renderUsers({ 'users.list': () => listAnswer([owner, active, pending, unverified, deactivated]) });
    await screen.findByRole('cell', { name: 'dora@example.com' });
    expect(rowOf('olive@example.com').getByText('Active')).toBeVisible();
    expect(rowOf('dana@example.com').getByText('Active')).toBeVisible();
    expect(rowOf('pat@example.com').getByText('Awaiting approval')).toBeVisible();
    expect(rowOf('una@example.com').getByText('E-mail not verified')).toBeVisible();
    expect(rowOf('dora@example.com').getByText('Deactivated')).toBeVisible();
    // The product's toggle texts are unchanged.
    expect(rowOf('dora@example.com').getByRole('button', { name: 'Activate' })).toBeVisible();
    expect(rowOf('una@example.com').getByRole('button', { name: 'Activate' })).toBeVisible();
  });

  it('searches with the trimmed term from page 1', async () => {
    const { user, stub } = renderUsers({
      'users.list': (input) =>
        (input as { query?: string }).query ? listAnswer([pending]) : listAnswer([owner, active, pending]),
    });
    await screen.findByRole('cell', { name: 'dana@example.com' });
    await user.type(screen.getByRole('textbox', { name: 'Quick Search' }), '  pat ');
    await user.click(screen.getByRole('button', { name: 'search' }));
    await waitFor(() =>
      expect(screen.queryByRole('cell', { name: 'dana@example.com' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('cell', { name: 'pat@example.com' })).toBeVisible();
    expect(stub.callsTo('users.list').at(-1)).toEqual({ page: 1, limit: 10, query: 'pat' });
  });

  it('shows every Add user message and sends nothing', async () => {
    const { user, stub } = renderUsers();
    await screen.findByRole('cell', { name: 'dana@example.com' });
    const dialog = await openAddUser(user);

    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText(validation.firstNameRequired)).toBeVisible();
    expect(dialog.getByText(validation.lastNameRequired)).toBeVisible();
    expect(dialog.getByText(validation.fieldRequired)).toBeVisible();
    expect(dialog.getByText(validation.phoneRequired)).toBeVisible();
    expect(dialog.getByText('company name is required')).toBeVisible();
    expect(dialog.getByText(validation.passwordRequired)).toBeVisible();
    expect(dialog.getByText(validation.roleRequired)).toBeVisible();

    await user.type(dialog.getByRole('textbox', { name: /^First name/ }), 'S');
    await user.type(dialog.getByRole('textbox', { name: /^Email/ }), 'sam@example');
    await user.type(dialog.getByRole('textbox', { name: /^Phone number/ }), '1234567890');
    await user.type(dialog.getByLabelText(/^Password/), 'short');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText('First name must be at least 2 characters')).toBeVisible();
    expect(dialog.getByText('Invalid email address')).toBeVisible();
    expect(dialog.getByText('Invalid phone number format (e.g., 123-456-7890)')).toBeVisible();
    expect(dialog.getByText(validation.passwordMin)).toBeVisible();

    expect(stub.callsTo('users.create')).toEqual([]);
  });

  it("adds a user: 'Loading...' while sending, then the dialog closes, a toast shows and the list reloads", async () => {
    const answer = deferred();
    const { user, stub } = renderUsers({ 'users.create': () => answer.promise });
    await screen.findByRole('cell', { name: 'dana@example.com' });
    const dialog = await openAddUser(user);
    await fillValid(user, dialog);
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    expect(await dialog.findByRole('button', { name: 'Loading...' })).toBeDisabled();
    expect(stub.callsTo('users.create')).toEqual([
      {
        firstName: 'Sam',
        lastName: 'Seller',
        email: 'sam@example.com',
        phoneNumber: '123-456-7890',
        company: 'Acme Realty',
        password: 'secret-pass',
        role: 'admin',
      },
    ]);
    answer.resolve(testProfile({ _id: 'b0000000-0000-4000-8000-000000000009', firstName: 'Sam' }));

    expect(await toast(userToasts.added)).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(stub.callsTo('users.list')).toHaveLength(2));
  });

  it("shows the server's message inside the dialog when adding fails", async () => {
    const message = 'An account with this email already exists';
    const { user } = renderUsers({
      'users.create': () => {
        throw trpcError(409, message);
      },
    });
    await screen.findByRole('cell', { name: 'dana@example.com' });
    const dialog = await openAddUser(user);
    await fillValid(user, dialog);
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    expect(await dialog.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('dialog', { name: 'Add user' })).toBeVisible();
  });

  it("falls back to 'Failed to add user. Please try again.' without a server message, and a new opening starts clean", async () => {
    const { user } = renderUsers({
      'users.create': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await screen.findByRole('cell', { name: 'dana@example.com' });
    let dialog = await openAddUser(user);
    await fillValid(user, dialog);
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(alerts.addUserFailed);
    expect(dialog.getByText('Failed to add user. Please try again.')).toBeVisible();

    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    dialog = await openAddUser(user);
    expect(dialog.queryByRole('alert')).not.toBeInTheDocument();
    expect(dialog.getByRole('textbox', { name: /^First name/ })).toHaveValue('');
  });
});
