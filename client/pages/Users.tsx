import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { openConfirmModal } from '@mantine/modals';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PAGE_SIZE } from '../../shared/constants';
import type { AccountStatus, PublicUser } from '../../shared/schemas/users';
import { serverMessageOf } from '../api/errors';
import { ExportButton, exportPath } from '../components/ExportButton';
import { ListPage } from '../components/ListPage';
import { isListLoading, ListTable } from '../components/ListTable';
import { NO_OFFICE, useOffices } from '../components/offices/scope';
import { Pager } from '../components/Pager';
import { UsersAddUserModal } from '../components/UsersAddUserModal';
import { useListSearch } from '../components/useListSearch';
import { UserOfficeModal } from '../components/users/UserOfficeModal';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { useTRPC } from '../trpc';

/**
 * The Offices page arrives with this one: an admin who places users in offices goes between the
 * two, and a chunk of its own would lengthen the list of chunks every first visit downloads.
 */
export { Offices } from './Offices';

const COLUMNS = ['First name', 'Last name', 'Email', 'Phone', 'Role', 'Office', 'Status', 'Actions'];

/**
 * The account's standing in words: "Activate" alone could not tell a registration
 * that still waits for its e-mail or an approval from an account an admin deactivated.
 */
export const statusBadges: Record<AccountStatus, { label: string; color: string }> = {
  emailUnverified: { label: 'E-mail not verified', color: 'gray' },
  awaitingApproval: { label: 'Awaiting approval', color: 'yellow' },
  active: { label: 'Active', color: 'green' },
  deactivated: { label: 'Deactivated', color: 'red' },
};

/** Deactivation signs the user out everywhere: it waits for a confirmation (activation does not). */
function confirmDeactivate(user: PublicUser, onConfirm: () => void): void {
  openConfirmModal({
    title: 'Deactivate user',
    children: (
      <Text size="sm">
        Deactivate {user.firstName} {user.lastName} ({user.email})? They are signed out at once and cannot
        sign in until an admin activates the account again.
      </Text>
    ),
    labels: { confirm: 'Deactivate', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
const LOAD_ERROR_TOAST_ID = 'users-load-error';
const LOAD_ERROR_TEXT = 'The users could not be loaded.';

export const userToasts = {
  added: 'User added successfully',
  officeSaved: 'Office and coordination saved',
  activated: 'User activated successfully',
  deactivated: 'User deactivated successfully',
} as const;

/** User administration for admins (/users). */
export function Users() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();

  // A search starts at page 1; an empty one reloads the plain list.
  const { page, setPage, term, search } = useListSearch();
  const list = useQuery({
    ...trpc.users.list.queryOptions({ page, limit: PAGE_SIZE, ...(term ? { query: term } : {}) }),
    placeholderData: keepPreviousData,
  });

  // A failed load says so and offers a retry.
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, LOAD_ERROR_TEXT, list.error, list.refetch);

  const [addOpened, addModal] = useDisclosure(false);
  const [placing, setPlacing] = useState<PublicUser | null>(null);
  // The office column names each user's office; the answer lists the offices the viewer reads.
  const offices = useOffices();
  const officeNames = new Map((offices.data ?? []).map((office) => [office._id, office.name]));
  const refreshUsers = () => queryClient.invalidateQueries(trpc.users.list.pathFilter());

  const activate = useMutation(trpc.users.activate.mutationOptions());
  const deactivate = useMutation(trpc.users.deactivate.mutationOptions());
  const [toggling, setToggling] = useState<string | null>(null);

  const toggle = (user: PublicUser) => {
    if (user.isAdminApproved) confirmDeactivate(user, () => setActive(user));
    else setActive(user);
  };

  const setActive = (user: PublicUser) => {
    const mutation = user.isAdminApproved ? deactivate : activate;
    const done = user.isAdminApproved ? userToasts.deactivated : userToasts.activated;
    setToggling(user._id);
    mutation.mutate(
      { id: user._id },
      {
        onSuccess: () => notifySuccess(done),
        onError: (failure) => notifyError(serverMessageOf(failure)),
        onSettled: async () => {
          await refreshUsers();
          setToggling(null);
        },
      },
    );
  };

  const placed = () => {
    setPlacing(null);
    notifySuccess(userToasts.officeSaved);
    void refreshUsers();
  };

  const added = () => {
    addModal.close();
    notifySuccess(userToasts.added);
    setPage(1);
    void refreshUsers();
  };

  return (
    <>
      <ListPage
        title="Users"
        action={
          <Group gap="xs">
            <ExportButton path={exportPath('/api/users.csv', { query: term })} filename="users.csv" />
            <Button onClick={addModal.open}>Add user</Button>
          </Group>
        }
        onSearch={search}
      >
        <ListTable
          columns={COLUMNS}
          minWidth={1100}
          rows={list.data?.users}
          loading={isListLoading(list)}
          failure={list.error ? LOAD_ERROR_TEXT : null}
          empty={term ? `No users match "${term}".` : 'No users yet.'}
          renderRow={(user) => (
            <UserRow
              key={user._id}
              user={user}
              officeName={user.officeId ? (officeNames.get(user.officeId) ?? '') : ''}
              busy={toggling === user._id}
              disabled={toggling !== null}
              onToggle={() => toggle(user)}
              onPlace={() => setPlacing(user)}
            />
          )}
        />
        <Pager page={page} pageSize={PAGE_SIZE} total={list.data?.totalUsers} onChange={setPage} />
      </ListPage>

      <UsersAddUserModal opened={addOpened} onClose={addModal.close} onCreated={added} />
      <UserOfficeModal user={placing} onClose={() => setPlacing(null)} onSaved={placed} />
    </>
  );
}

type UserRowProps = {
  user: PublicUser;
  /** The name of the user's office, '' for none. */
  officeName: string;
  busy: boolean;
  disabled: boolean;
  onToggle: () => void;
  onPlace: () => void;
};

function UserRow({ user, officeName, busy, disabled, onToggle, onPlace }: UserRowProps) {
  return (
    <Table.Tr>
      <Table.Td>{user.firstName}</Table.Td>
      <Table.Td>{user.lastName}</Table.Td>
      <Table.Td>{user.email}</Table.Td>
      <Table.Td>{user.phoneNumber}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={user.role === 'admin' ? 'grape' : 'blue'}>
          {user.role}
        </Badge>
        {user.isCoordinator && (
          <Badge variant="light" color="indigo" tt="none" ml="xs">
            Coordinator
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        {officeName || (
          <Text span size="sm" c="dimmed">
            {NO_OFFICE}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={statusBadges[user.status].color}>
          {statusBadges[user.status].label}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="wrap">
          {/* The owner account has no toggle: no one may deactivate it. */}
          {!user.isOwner && (
            <Button
              size="xs"
              variant="light"
              color={user.isAdminApproved ? 'red' : 'green'}
              loading={busy}
              disabled={disabled && !busy}
              onClick={onToggle}
            >
              {user.isAdminApproved ? 'Deactivate' : 'Activate'}
            </Button>
          )}
          {/* The owner is brokerage-wide whatever its office says: there is nothing to place. */}
          {!user.isOwner && (
            <Button size="xs" variant="default" onClick={onPlace}>
              Edit office & coordination
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
