import { Button, Container, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { officeMessages } from '../../shared/messages';
import type { Office, OfficesAnswer } from '../../shared/schemas/offices';
import { serverMessageOf } from '../api/errors';
import { confirmDelete } from '../components/confirm-delete';
import { ListTable } from '../components/ListTable';
import { OfficeFormModal } from '../components/offices/OfficeFormModal';
import { isBrokerageWideViewer, useOffices, useViewer } from '../components/offices/scope';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { useTRPC } from '../trpc';

const COLUMNS = ['Name', 'Review target', 'Retention', 'Agents'];
const LOAD_ERROR_TOAST_ID = 'offices-load-error';
export const OFFICES_LOAD_ERROR = 'The offices could not be loaded.';

const hours = (count: number) => (count === 1 ? '1 hour' : `${count} hours`);
const years = (count: number) => (count === 1 ? '1 year' : `${count} years`);

/** The dialog open: adding an office, or editing one. */
type Editing = { mode: 'add' } | { mode: 'edit'; office: Office };

/**
 * The brokerage's offices (/admin/offices). A brokerage-wide admin adds, edits and deletes them;
 * an office admin reads its own office here and changes nothing.
 */
export function Offices() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const viewer = useViewer();
  const manages = isBrokerageWideViewer(viewer);
  const list = useOffices();
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, OFFICES_LOAD_ERROR, list.error, list.refetch);
  const refresh = () => queryClient.invalidateQueries(trpc.offices.list.pathFilter());

  const [editing, setEditing] = useState<Editing | null>(null);
  const remove = useMutation(trpc.offices.delete.mutationOptions());
  const confirmRemove = (office: Office) =>
    confirmDelete('Delete office', <>Delete the office {office.name}?</>, () =>
      remove.mutate(
        { id: office._id },
        {
          onSuccess: ({ message }) => notifySuccess(message || officeMessages.deleted),
          // 'This office still has users' says what to do first.
          onError: (failure) => notifyError(serverMessageOf(failure)),
          onSettled: () => refresh(),
        },
      ),
    );

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap">
          <Title order={1}>Offices</Title>
          {manages && <Button onClick={() => setEditing({ mode: 'add' })}>Add office</Button>}
        </Group>
        {viewer?.role === 'admin' && !manages && (
          <Text size="sm" c="dimmed">
            Your office, as the brokerage set it up. A brokerage-wide admin changes offices.
          </Text>
        )}
        <OfficesTable
          offices={list.data}
          loading={list.isPending || (list.isError && list.isFetching)}
          failed={list.isError}
          manages={manages}
          busyId={remove.isPending ? (remove.variables?.id ?? null) : null}
          onEdit={(office) => setEditing({ mode: 'edit', office })}
          onDelete={confirmRemove}
        />
      </Stack>
      <OfficeFormModal
        opened={editing !== null}
        office={editing?.mode === 'edit' ? editing.office : undefined}
        onClose={() => setEditing(null)}
        onSaved={() => {
          notifySuccess(editing?.mode === 'edit' ? officeMessages.updated : officeMessages.created);
          setEditing(null);
          void refresh();
        }}
      />
    </Container>
  );
}

type OfficesTableProps = {
  offices: OfficesAnswer | undefined;
  loading: boolean;
  failed: boolean;
  /** The viewer may change offices: each row gets Edit and Delete. */
  manages: boolean;
  busyId: string | null;
  onEdit: (office: Office) => void;
  onDelete: (office: Office) => void;
};

function OfficesTable({ offices, loading, failed, manages, busyId, onEdit, onDelete }: OfficesTableProps) {
  return (
    <ListTable
      columns={manages ? [...COLUMNS, 'Actions'] : COLUMNS}
      minWidth={640}
      rows={offices}
      loading={loading}
      failure={failed ? OFFICES_LOAD_ERROR : null}
      empty="No offices yet."
      renderRow={(office) => (
        <Table.Tr key={office._id}>
          <Table.Td>{office.name}</Table.Td>
          <Table.Td>{hours(office.reviewTargetHours)}</Table.Td>
          <Table.Td>{years(office.retentionYears)}</Table.Td>
          <Table.Td>{office.agentCount}</Table.Td>
          {manages && (
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`Edit ${office.name}`}
                  onClick={() => onEdit(office)}
                >
                  Edit
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  aria-label={`Delete ${office.name}`}
                  loading={busyId === office._id}
                  disabled={busyId !== null && busyId !== office._id}
                  onClick={() => onDelete(office)}
                >
                  Delete
                </Button>
              </Group>
            </Table.Td>
          )}
        </Table.Tr>
      )}
    />
  );
}
