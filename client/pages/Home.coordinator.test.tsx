import { notifications } from '@mantine/notifications';
import { configure, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PublicUser } from '../../shared/schemas/users';
import { renderWithProviders } from '../test-utils/render';
import { page, signInAs, summary, USER_ID, uuid } from '../test-utils/transactions';
import { type StubHandler, stubTrpcClient } from '../test-utils/trpc-stub';
import { testProfile } from '../test-utils/users';
import { Home } from './Home';

configure({ asyncUtilTimeout: 5_000 });

const DANA_ID = uuid(501);
const coordinator = testProfile({
  _id: USER_ID,
  firstName: 'Tara',
  lastName: 'Tate',
  coordinatesFor: [DANA_ID],
  isCoordinator: true,
});
const dana = testProfile({ _id: DANA_ID, firstName: 'Dana', lastName: 'North' });

/** settings.getUser answers each profile by its id, as the server does for a coordinator's agents. */
function profiles(...users: PublicUser[]): StubHandler {
  return (input) => users.find((user) => user._id === (input as { userId: string }).userId);
}

function renderHome(handlers: Record<string, StubHandler> = {}) {
  const stub = stubTrpcClient({
    'settings.getUser': profiles(coordinator, dana),
    'transactions.list': () =>
      page([summary(1), summary(2, { user: { _id: DANA_ID, firstName: 'Dana', lastName: 'North' } })]),
    ...handlers,
  });
  const view = renderWithProviders(<Home />, { path: '/home', trpcClient: stub.client });
  return { ...view, stub };
}

beforeEach(() => signInAs('user'));
afterEach(() => notifications.clean());

describe("A coordinator's home", { timeout: 30_000 }, () => {
  it("names each file's agent and filters by agent: itself or one it coordinates for", async () => {
    const { user, stub } = renderHome();
    await screen.findByText('2 Main Street');
    const filter = await screen.findByRole('combobox', { name: 'Agent' });
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toContain('Agent');
    expect(screen.getByRole('cell', { name: 'Dana North' })).toBeVisible();

    await user.click(filter);
    const offered = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(offered).toEqual(['Tara Tate (you)', 'Dana North']);
    await user.click(screen.getByRole('option', { name: 'Dana North' }));
    await waitFor(() =>
      expect(stub.callsTo('transactions.list')).toContainEqual({
        userId: USER_ID,
        page: 1,
        limit: 10,
        agentId: DANA_ID,
      }),
    );
  });

  it('shows an agent who coordinates for no one its plain list', async () => {
    const { stub } = renderHome({ 'settings.getUser': profiles(testProfile({ _id: USER_ID })) });
    await screen.findByText('1 Main Street');
    await waitFor(() => expect(stub.callsTo('settings.getUser')).toHaveLength(1));
    expect(screen.queryByRole('combobox', { name: 'Agent' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toContain('User');
    expect(stub.callsTo('transactions.list')).toEqual([{ userId: USER_ID, page: 1, limit: 10 }]);
  });
});
