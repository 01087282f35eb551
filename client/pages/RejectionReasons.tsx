import { Anchor, Badge, Button, Container, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { complianceMessages } from '../../shared/messages';
import type { RejectionReason } from '../../shared/schemas/compliance';
import { serverMessageOf } from '../api/errors';
import { DialogActions } from '../components/DialogActions';
import { FormModal } from '../components/FormModal';
import { ListTable } from '../components/ListTable';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { paths } from '../paths';
import { useTRPC } from '../trpc';

const COLUMNS = ['Label', 'Code', 'Status', 'Actions'];
const LOAD_ERROR_TOAST_ID = 'rejection-reasons-load-error';
const LOAD_ERROR_TEXT = 'The rejection reasons could not be loaded.';

export const reasonToasts = {
  added: 'Reason added',
  renamed: 'Reason renamed',
  retired: 'Reason retired',
  restored: 'Reason restored',
} as const;

/** The dialog open: adding a reason, or renaming one. */
type Editing = { mode: 'add' } | { mode: 'rename'; reason: RejectionReason };

/**
 * The reasons a rejection can give (/admin/rejection-reasons). A reason is never
 * deleted, since past decisions quote it: it is retired (no longer offered) and can be restored.
 */
export function RejectionReasons() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.rejectionReasons.list.queryOptions());
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, LOAD_ERROR_TEXT, list.error, list.refetch);
  const refresh = () => queryClient.invalidateQueries(trpc.rejectionReasons.list.pathFilter());

  const [editing, setEditing] = useState<Editing | null>(null);
  const update = useMutation(trpc.rejectionReasons.update.mutationOptions());
  const [toggling, setToggling] = useState<string | null>(null);

  const setActive = (reason: RejectionReason) => {
    setToggling(reason.code);
    update.mutate(
      { code: reason.code, active: !reason.active },
      {
        onSuccess: () => notifySuccess(reason.active ? reasonToasts.retired : reasonToasts.restored),
        onError: (failure) => notifyError(serverMessageOf(failure)),
        onSettled: async () => {
          await refresh();
          setToggling(null);
        },
      },
    );
  };

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Anchor component={Link} href={paths.reviewQueue} size="sm">
          Back to the review queue
        </Anchor>
        <Group justify="space-between" wrap="wrap">
          <Title order={1}>Rejection Reasons</Title>
          <Button onClick={() => setEditing({ mode: 'add' })}>Add reason</Button>
        </Group>
        <ListTable
          columns={COLUMNS}
          minWidth={640}
          rows={list.data}
          loading={list.isPending || (list.isError && list.isFetching)}
          failure={list.error ? LOAD_ERROR_TEXT : null}
          empty="No rejection reasons yet."
          renderRow={(reason) => (
            <Table.Tr key={reason.code}>
              <Table.Td>{reason.label}</Table.Td>
              <Table.Td>
                <code>{reason.code}</code>
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color={reason.active ? 'green' : 'gray'} tt="none">
                  {reason.active ? 'Active' : 'Retired'}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`Rename ${reason.label}`}
                    onClick={() => setEditing({ mode: 'rename', reason })}
                  >
                    Rename
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color={reason.active ? 'red' : 'green'}
                    aria-label={`${reason.active ? 'Retire' : 'Restore'} ${reason.label}`}
                    loading={toggling === reason.code}
                    disabled={toggling !== null && toggling !== reason.code}
                    onClick={() => setActive(reason)}
                  >
                    {reason.active ? 'Retire' : 'Restore'}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          )}
        />
      </Stack>
      <FormModal
        opened={editing !== null}
        title={editing?.mode === 'rename' ? 'Rename reason' : 'Add reason'}
        onClose={() => setEditing(null)}
      >
        {editing && (
          <LabelForm
            editing={editing}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              notifySuccess(editing.mode === 'add' ? reasonToasts.added : reasonToasts.renamed);
              setEditing(null);
              void refresh();
            }}
          />
        )}
      </FormModal>
    </Container>
  );
}

function LabelForm({
  editing,
  onCancel,
  onSaved,
}: {
  editing: Editing;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.rejectionReasons.create.mutationOptions());
  const update = useMutation(trpc.rejectionReasons.update.mutationOptions());
  const [label, setLabel] = useState(editing.mode === 'rename' ? editing.reason.label : '');
  const [error, setError] = useState<string | null>(null);
  const pending = create.isPending || update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = label.trim();
    if (!text) {
      setError(complianceMessages.reasonLabelRequired);
      return;
    }
    setError(null);
    const options = { onSuccess: onSaved, onError: (failure: unknown) => setError(serverMessageOf(failure)) };
    if (editing.mode === 'add') create.mutate({ label: text }, options);
    else update.mutate({ code: editing.reason.code, label: text }, options);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Label"
          required
          data-autofocus
          value={label}
          onChange={(event) => setLabel(event.currentTarget.value)}
          error={error}
          maxLength={100}
        />
        <DialogActions pending={pending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
