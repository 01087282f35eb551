import { Badge, Button, Container, Group, Stack, Table, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PAGE_SIZE } from '../../shared/constants';
import { ui } from '../../shared/messages';
import type { PublicUser } from '../../shared/schemas/users';
import { serverMessageOf } from '../api/errors';
import { Pager } from '../components/Pager';
import { QuickSearch } from '../components/QuickSearch';
import { UsersAddUserModal } from '../components/UsersAddUserModal';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { useTRPC } from '../trpc';

const COLUMNS = ['First name', 'Last name', 'Email', 'Phone', 'Role', 'Actions'];
const LOAD_ERROR_TOAST_ID = 'users-load-error';
const LOAD_ERROR_TEXT = 'The users could not be loaded.';

export const userToasts = {
  added: 'User added successfully',
  activated: 'User activated successfully',
  deactivated: 'User deactivated successfully',
} as const;

/** User administration for admins (spec section 2, /users). */
export function Users() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();

  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...trpc.users.list.queryOptions({ page, limit: PAGE_SIZE, ...(query ? { query } : {}) }),
    placeholderData: keepPreviousData,
  });
  const loading = list.isPending || list.isPlaceholderData || (list.isError && list.isFetching);
  const rows = list.data?.users;
  const total = list.data?.totalUsers ?? 0;

  // DESIGN.md 9.4: a failed load says so and offers a retry.
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, LOAD_ERROR_TEXT, list.error, list.refetch);

  const [addOpened, addModal] = useDisclosure(false);
  const refreshUsers = () => queryClient.invalidateQueries(trpc.users.list.pathFilter());

  const activate = useMutation(trpc.users.activate.mutationOptions());
  const deactivate = useMutation(trpc.users.deactivate.mutationOptions());
  const [toggling, setToggling] = useState<string | null>(null);

  const toggle = (user: PublicUser) => {
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

  const runSearch = (text: string) => {
    // Spec section 4: a search starts at page 1; an empty one reloads the plain list.
    setQuery(text.trim());
    setPage(1);
  };

  const added = () => {
    addModal.close();
    notifySuccess(userToasts.added);
    setPage(1);
    void refreshUsers();
  };

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap">
          <Title order={1}>Users</Title>
          <Button onClick={addModal.open}>Add user</Button>
        </Group>

        <QuickSearch onSearch={runSearch} />

        <Table.ScrollContainer minWidth={760}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((column) => (
                  <Table.Th key={column}>{column}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {loading ? (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS.length}>{ui.loading}</Table.Td>
                </Table.Tr>
              ) : list.error ? (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS.length}>{LOAD_ERROR_TEXT}</Table.Td>
                </Table.Tr>
              ) : rows?.length ? (
                rows.map((user) => (
                  <UserRow
                    key={user._id}
                    user={user}
                    busy={toggling === user._id}
                    disabled={toggling !== null}
                    onToggle={() => toggle(user)}
                  />
                ))
              ) : (
                <Table.Tr>
                  <Table.Td colSpan={COLUMNS.length}>
                    {query ? `No users match "${query}".` : 'No users yet.'}
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>

        <Pager page={page} pageSize={PAGE_SIZE} total={total} onChange={setPage} />
      </Stack>

      <UsersAddUserModal opened={addOpened} onClose={addModal.close} onCreated={added} />
    </Container>
  );
}

type UserRowProps = {
  user: PublicUser;
  busy: boolean;
  disabled: boolean;
  onToggle: () => void;
};

function UserRow({ user, busy, disabled, onToggle }: UserRowProps) {
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
      </Table.Td>
      <Table.Td>
        {/* Spec section 4: the owner account has no toggle. */}
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
      </Table.Td>
    </Table.Tr>
  );
}
