import { Badge, Button, Container, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { WebhookEndpoint } from '../../shared/schemas/webhooks';
import { serverMessageOf } from '../api/errors';
import { confirmDelete } from '../components/confirm-delete';
import { FormModal } from '../components/FormModal';
import { ListTable } from '../components/ListTable';
import { confirmRotateSecret } from '../components/webhooks/confirm-rotate';
import { Deliveries } from '../components/webhooks/Deliveries';
import { type Editing, EndpointForm } from '../components/webhooks/EndpointForm';
import { SecretModal, type ShownSecret } from '../components/webhooks/SecretModal';
import { webhookToasts } from '../components/webhooks/toasts';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { useTRPC } from '../trpc';

// On a phone the six buttons of a row wrap (each keeps its width: miw) rather than shrink to "De".
const COLUMNS = ['URL', 'Events', 'Status', 'Actions'];
const LOAD_ERROR_TOAST_ID = 'webhooks-load-error';
const LOAD_ERROR_TEXT = 'The webhooks could not be loaded.';

/**
 * Webhooks (/admin/webhooks): the endpoints the portal sends events to, each with its
 * signing secret (shown once, when it is added or rotated), a test ping, and its deliveries with a Retry.
 */
export function Webhooks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.webhooks.list.queryOptions());
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, LOAD_ERROR_TEXT, list.error, list.refetch);
  const refresh = () => queryClient.invalidateQueries(trpc.webhooks.pathFilter());

  const [editing, setEditing] = useState<Editing | null>(null);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [watchingId, setWatchingId] = useState<string | null>(null);
  // The row as listed now: its Retry buttons follow the endpoint's state.
  const watching = list.data?.find((endpoint) => endpoint._id === watchingId) ?? null;
  const [busy, setBusy] = useState<string | null>(null);
  const update = useMutation(trpc.webhooks.update.mutationOptions());
  const remove = useMutation(trpc.webhooks.delete.mutationOptions());
  const test = useMutation(trpc.webhooks.test.mutationOptions());
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions());

  const settle = {
    onError: (failure: unknown) => notifyError(serverMessageOf(failure)),
    onSettled: async () => {
      await refresh();
      setBusy(null);
    },
  };
  const setActive = (endpoint: WebhookEndpoint) => {
    setBusy(endpoint._id);
    update.mutate(
      { id: endpoint._id, active: !endpoint.active },
      { ...settle, onSuccess: () => notifySuccess(webhookToasts.saved) },
    );
  };
  const sendTest = (endpoint: WebhookEndpoint) => {
    setBusy(endpoint._id);
    setWatchingId(endpoint._id);
    test.mutate({ id: endpoint._id }, { ...settle, onSuccess: () => notifySuccess(webhookToasts.testSent) });
  };
  const askRotate = (endpoint: WebhookEndpoint) =>
    confirmRotateSecret(endpoint.url, () => {
      setBusy(endpoint._id);
      rotate.mutate(
        { id: endpoint._id },
        {
          ...settle,
          onSuccess: (rotated) => setSecret({ value: rotated.secret, intro: webhookToasts.rotated }),
        },
      );
    });
  const askDelete = (endpoint: WebhookEndpoint) =>
    confirmDelete('Delete webhook', `Delete the webhook to ${endpoint.url} and its deliveries?`, () => {
      setBusy(endpoint._id);
      remove.mutate(
        { id: endpoint._id },
        {
          ...settle,
          onSuccess: () => {
            notifySuccess(webhookToasts.deleted);
            if (watchingId === endpoint._id) setWatchingId(null);
          },
        },
      );
    });

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap">
          <Title order={1}>Webhooks</Title>
          <Button onClick={() => setEditing({ mode: 'add' })}>Add webhook</Button>
        </Group>
        <Text size="sm" c="dimmed">
          The portal posts each chosen event to your URL, signed per Standard Webhooks, and retries for about
          18 hours when it fails.
        </Text>
        <ListTable
          columns={COLUMNS}
          minWidth={760}
          rows={list.data}
          loading={list.isPending || (list.isError && list.isFetching)}
          failure={list.error ? LOAD_ERROR_TEXT : null}
          empty="No webhooks yet."
          renderRow={(endpoint) => (
            <Table.Tr key={endpoint._id}>
              <Table.Td style={{ wordBreak: 'break-all' }}>
                {endpoint.url}
                {endpoint.description && (
                  <Text size="xs" c="dimmed">
                    {endpoint.description}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{endpoint.events.join(', ')}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={endpoint.active ? 'green' : 'gray'} tt="none">
                  {endpoint.active ? 'Active' : 'Deactivated'}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Group gap="xs">
                  <Button
                    size="xs"
                    miw="fit-content"
                    variant="default"
                    aria-label={`Deliveries to ${endpoint.url}`}
                    onClick={() => setWatchingId(endpoint._id)}
                  >
                    Deliveries
                  </Button>
                  <Button
                    size="xs"
                    miw="fit-content"
                    variant="default"
                    aria-label={`Send test to ${endpoint.url}`}
                    disabled={!endpoint.active || (busy !== null && busy !== endpoint._id)}
                    onClick={() => sendTest(endpoint)}
                  >
                    Send test
                  </Button>
                  <Button
                    size="xs"
                    miw="fit-content"
                    variant="default"
                    aria-label={`Edit ${endpoint.url}`}
                    onClick={() => setEditing({ mode: 'edit', endpoint })}
                  >
                    Edit
                  </Button>
                  <Button
                    size="xs"
                    miw="fit-content"
                    variant="default"
                    aria-label={`Rotate secret of ${endpoint.url}`}
                    loading={busy === endpoint._id && rotate.isPending}
                    disabled={busy !== null && busy !== endpoint._id}
                    onClick={() => askRotate(endpoint)}
                  >
                    Rotate secret
                  </Button>
                  <Button
                    size="xs"
                    miw="fit-content"
                    variant="default"
                    aria-label={`${endpoint.active ? 'Deactivate' : 'Activate'} ${endpoint.url}`}
                    loading={busy === endpoint._id && update.isPending}
                    disabled={busy !== null && busy !== endpoint._id}
                    onClick={() => setActive(endpoint)}
                  >
                    {endpoint.active ? 'Deactivate' : 'Activate'}
                  </Button>
                  <Button
                    size="xs"
                    miw="fit-content"
                    variant="light"
                    color="red"
                    aria-label={`Delete ${endpoint.url}`}
                    disabled={busy !== null}
                    onClick={() => askDelete(endpoint)}
                  >
                    Delete
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          )}
        />
        {watching && <Deliveries key={watching._id} endpoint={watching} />}
      </Stack>
      <FormModal
        opened={editing !== null}
        title={editing?.mode === 'edit' ? 'Edit webhook' : 'Add webhook'}
        onClose={() => setEditing(null)}
      >
        {editing && (
          <EndpointForm
            editing={editing}
            onCancel={() => setEditing(null)}
            onSaved={(created) => {
              setEditing(null);
              if (created) setSecret({ value: created, intro: webhookToasts.created });
              else notifySuccess(webhookToasts.saved);
              void refresh();
            }}
          />
        )}
      </FormModal>
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
    </Container>
  );
}
