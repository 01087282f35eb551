import { notifications } from '@mantine/notifications';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commissionMessages } from '../../shared/commission-messages';
import { officeMessages } from '../../shared/messages';
import type { PublicUser } from '../../shared/schemas/users';
import { setSession } from '../auth/session';
import { OFFICE_DIALOG_TITLE } from '../components/users/UserOfficeModal';
import { NORTH_ID, northAdminProfile, SOUTH_ID, testOffices, wideAdminProfile } from '../test-utils/offices';
import { renderWithProviders } from '../test-utils/render';
import { fakeAccessToken } from '../test-utils/tokens';
import { type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { TEST_USER_ID, testProfile } from '../test-utils/users';
import { Users, userToasts } from './Users';

const dana = testProfile({
  _id: 'b0000000-0000-4000-8000-000000000002',
  firstName: 'Dana',
  lastName: 'Agent',
  email: 'dana@example.com',
  officeId: NORTH_ID,
});
const sam = testProfile({
  _id: 'b0000000-0000-4000-8000-000000000003',
  firstName: 'Sam',
  lastName: 'Sands',
  email: 'sam@example.com',
  officeId: SOUTH_ID,
});
const tara = testProfile({
  _id: 'b0000000-0000-4000-8000-000000000004',
  firstName: 'Tara',
  lastName: 'Tate',
  email: 'tara@example.com',
  coordinatesFor: [dana._id],
  isCoordinator: true,
});
const gone = testProfile({
  _id: 'b0000000-0000-4000-8000-000000000005',
  firstName: 'Gil',
  lastName: 'Gone',
  email: 'gil@example.com',
  isAdminApproved: false,
  status: 'deactivated',
});
const adam = testProfile({
  _id: 'b0000000-0000-4000-8000-000000000006',
  firstName: 'Adam',
  lastName: 'Admin',
  email: 'adam@example.com',
  role: 'admin',
});

const PLANS = [
  {
    _id: 'c0000000-0000-4000-8000-000000000001',
    name: 'Standard 70/30',
    agentSplit: 70,
    capCents: 1_600_000,
    transactionFeeCents: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
  },
  {
    _id: 'c0000000-0000-4000-8000-000000000002',
    name: 'Top producer',
    agentSplit: 90,
    capCents: null,
    transactionFeeCents: 50_000,
    createdAt: '2026-01-01T00:00:00.000Z',
  },
];

const listAnswer = (users: PublicUser[]) => ({ users, totalUsers: users.length, totalPages: 1 });

function renderUsers(handlers: Record<string, StubHandler> = {}) {
  const stub = stubTrpcClient({
    'settings.getUser': () => wideAdminProfile(),
    'offices.list': () => testOffices(),
    'users.list': () => listAnswer([dana, sam, tara, gone, adam]),
    'commission.listPlans': () => PLANS,
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
/** The multi-select's own input (its list of options carries the same label). */
const coordinatesField = (labelled: HTMLElement[]) => {
  const input = labelled.find((element) => element.tagName === 'INPUT');
  if (!input) throw new Error('no Coordinates for input');
  return input;
};
const optionNames = (select: HTMLElement) =>
  [...(select as HTMLSelectElement).options].map((option) => option.textContent);

async function openOfficeDialog(user: ReturnType<typeof renderUsers>['user'], email: string) {
  await screen.findByRole('cell', { name: email });
  await waitFor(() =>
    expect(rowOf(email).getByRole('cell', { name: /North|South|No office/ })).toBeVisible(),
  );
  await user.click(rowOf(email).getByRole('button', { name: 'Edit office & coordination' }));
  return within(await screen.findByRole('dialog', { name: OFFICE_DIALOG_TITLE }));
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

describe('Users page: offices and coordinators', { timeout: 30_000 }, () => {
  it("names each user's office and marks coordinators", async () => {
    renderUsers();
    await screen.findByRole('cell', { name: 'dana@example.com' });
    expect(await screen.findByRole('cell', { name: 'North' })).toBeVisible();
    expect(rowOf('sam@example.com').getByRole('cell', { name: 'South' })).toBeVisible();
    expect(rowOf('tara@example.com').getByRole('cell', { name: 'No office' })).toBeVisible();
    expect(rowOf('tara@example.com').getByText('Coordinator')).toBeVisible();
    expect(rowOf('dana@example.com').queryByText('Coordinator')).not.toBeInTheDocument();
  });

  it("sets an agent's commission plan, clears it, and shows an unknown plan on the field", async () => {
    const planned = { ...dana, commissionPlanId: PLANS[0]?._id ?? null };
    let refuse = false;
    const { user, stub } = renderUsers({
      'users.list': () => listAnswer([planned, sam]),
      'users.update': (input) => {
        if (refuse) throw trpcError(400, commissionMessages.unknownPlan);
        return { ...planned, ...(input as object) };
      },
    });
    let dialog = await openOfficeDialog(user, 'dana@example.com');
    const plan = dialog.getByRole('combobox', { name: 'Commission plan' });
    await waitFor(() => expect(optionNames(plan)).toEqual(['No plan', 'Standard 70/30', 'Top producer']));
    expect(plan).toHaveValue(PLANS[0]?._id);
    await user.selectOptions(plan, 'Top producer');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await toast(userToasts.officeSaved)).toBeVisible();
    expect(stub.callsTo('users.update').at(-1)).toMatchObject({
      id: dana._id,
      commissionPlanId: PLANS[1]?._id,
    });

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    dialog = await openOfficeDialog(user, 'dana@example.com');
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Commission plan' }), 'No plan');
    refuse = true;
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(stub.callsTo('users.update').at(-1)).toMatchObject({ id: dana._id, commissionPlanId: null });
    expect(await dialog.findByText(commissionMessages.unknownPlan)).toBeVisible();
    expect(dialog.getByRole('combobox', { name: 'Commission plan' })).toHaveAccessibleDescription(
      expect.stringContaining(commissionMessages.unknownPlan),
    );
  });

  it('moves a user to an office and sets the active agents it coordinates for', async () => {
    const { user, stub } = renderUsers({ 'users.update': (input) => ({ ...tara, ...(input as object) }) });
    const dialog = await openOfficeDialog(user, 'tara@example.com');
    const office = dialog.getByRole('combobox', { name: 'Office' });
    expect(optionNames(office)).toEqual(['No office', 'North', 'South']);
    expect(office).toHaveValue('');
    await user.selectOptions(office, 'South');

    // Dana is chosen already; the others offered are active agents, never the user, an admin or
    // a deactivated account.
    expect(dialog.getAllByText('Dana Agent')[0]).toBeVisible();
    await user.click(coordinatesField(dialog.getAllByLabelText('Coordinates for')));
    const offered = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(offered).toEqual(expect.arrayContaining(['Sam Sands']));
    expect(offered).not.toContain('Tara Tate');
    expect(offered).not.toContain('Adam Admin');
    expect(offered).not.toContain('Gil Gone');
    await user.click(screen.getByRole('option', { name: 'Sam Sands' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    expect(await toast(userToasts.officeSaved)).toBeVisible();
    expect(stub.callsTo('users.update')).toEqual([
      { id: tara._id, officeId: SOUTH_ID, coordinatesFor: [dana._id, sam._id], commissionPlanId: null },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(stub.callsTo('users.list').length).toBeGreaterThanOrEqual(3));
  });

  it("shows the server's refusal on the field it is about, and keeps the dialog open", async () => {
    const { user } = renderUsers({
      'users.update': () => {
        throw trpcError(400, officeMessages.onlyActiveAgentsCoordinated);
      },
    });
    const dialog = await openOfficeDialog(user, 'tara@example.com');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText(officeMessages.onlyActiveAgentsCoordinated)).toBeVisible();
    expect(screen.getByRole('dialog', { name: OFFICE_DIALOG_TITLE })).toBeVisible();
  });

  it('offers an admin no coordination, and sends none', async () => {
    const { user, stub } = renderUsers({ 'users.update': () => adam });
    const dialog = await openOfficeDialog(user, 'adam@example.com');
    expect(dialog.queryAllByLabelText('Coordinates for')).toEqual([]);
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Office' }), 'North');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(stub.callsTo('users.update')).toEqual([{ id: adam._id, officeId: NORTH_ID }]));
  });

  it('lets an office admin choose its own office only', async () => {
    const { user } = renderUsers({
      'settings.getUser': () => northAdminProfile(),
      'offices.list': () => testOffices().filter((office) => office._id === NORTH_ID),
      'users.list': () => listAnswer([dana]),
    });
    const dialog = await openOfficeDialog(user, 'dana@example.com');
    expect(optionNames(dialog.getByRole('combobox', { name: 'Office' }))).toEqual(['North']);
  });

  it('adds a user in the office chosen in the Add user dialog', async () => {
    const { user, stub } = renderUsers({ 'users.create': () => dana });
    await screen.findByRole('cell', { name: 'North' });
    await user.click(screen.getByRole('button', { name: 'Add user' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add user' }));
    const office = dialog.getByRole('combobox', { name: 'Office' });
    expect(optionNames(office)).toEqual(['No office', 'North', 'South']);
    await user.type(dialog.getByRole('textbox', { name: /^First name/ }), 'Nell');
    await user.type(dialog.getByRole('textbox', { name: /^Last name/ }), 'North');
    await user.type(dialog.getByRole('textbox', { name: /^Email/ }), 'nell@example.com');
    await user.type(dialog.getByRole('textbox', { name: /^Phone number/ }), '123-456-7890');
    await user.type(dialog.getByRole('textbox', { name: /^Company/ }), 'Acme Realty');
    await user.type(dialog.getByLabelText(/^Password/), 'secret-pass');
    await user.selectOptions(dialog.getByRole('combobox', { name: /^Role/ }), 'user');
    await user.selectOptions(office, 'North');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(stub.callsTo('users.create')).toEqual([
        {
          firstName: 'Nell',
          lastName: 'North',
          email: 'nell@example.com',
          phoneNumber: '123-456-7890',
          company: 'Acme Realty',
          password: 'secret-pass',
          role: 'user',
          officeId: NORTH_ID,
        },
      ]),
    );
  });
});
