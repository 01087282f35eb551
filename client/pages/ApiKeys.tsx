import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Container,
  CopyButton,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { integrationMessages } from '../../shared/messages';
import {
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  type ApiKeyAnswer,
  type ApiKeyScope,
  type CreatedApiKeyAnswer,
  MAX_KEY_NAME,
} from '../../shared/schemas/api-keys';
import { serverMessageOf } from '../api/errors';
import { DialogActions } from '../components/DialogActions';
import { FormModal } from '../components/FormModal';
import { ListTable } from '../components/ListTable';
import { formatDateTime } from '../dates';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { useTRPC } from '../trpc';

const COLUMNS = ['Name', 'Scopes', 'Created', 'Expires', 'Last used', 'Status', 'Actions'];
const LOAD_ERROR_TOAST_ID = 'api-keys-load-error';
const LOAD_ERROR_TEXT = 'The API keys could not be loaded.';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Expiry choices: a date picker buys nothing here, and "never" must be a deliberate choice. */
const EXPIRIES = [
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 1 year' },
  { value: 'never', label: 'Never' },
];

type KeyState = 'Active' | 'Revoked' | 'Expired';
function stateOf(key: ApiKeyAnswer, now: number): KeyState {
  if (key.revokedAt) return 'Revoked';
  if (key.expiresAt && new Date(key.expiresAt).getTime() <= now) return 'Expired';
  return 'Active';
}
const STATE_COLOR: Record<KeyState, string> = { Active: 'green', Revoked: 'gray', Expired: 'orange' };

/**
 * API keys for integrators (/admin/api-keys): made here with their scopes and expiry,
 * shown once with a copy button, then listed with their last use; revoking one stops it at once.
 * A key acts with the rights of the admin who made it.
 */
export function ApiKeys() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.apiKeys.list.queryOptions());
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, LOAD_ERROR_TEXT, list.error, list.refetch);
  const refresh = () => queryClient.invalidateQueries(trpc.apiKeys.list.pathFilter());

  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKeyAnswer | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyAnswer | null>(null);
  const revoke = useMutation(trpc.apiKeys.revoke.mutationOptions());
  const now = Date.now();

  const confirmRevoke = (event: FormEvent) => {
    event.preventDefault();
    if (!revoking) return;
    revoke.mutate(
      { id: revoking._id },
      {
        onSuccess: () => {
          notifySuccess(integrationMessages.keyRevokedToast);
          setRevoking(null);
        },
        onError: (failure) => notifyError(serverMessageOf(failure)),
        onSettled: () => void refresh(),
      },
    );
  };

  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap">
          <Title order={1}>API Keys</Title>
          <Button onClick={() => setCreating(true)}>Create API key</Button>
        </Group>
        <Text size="sm" c="dimmed">
          Integrations call the REST API (/api/docs) with <Code>Authorization: Bearer bpk_...</Code>. A key
          acts with the rights of the admin who created it, limited to its scopes.
        </Text>
        <ListTable
          columns={COLUMNS}
          minWidth={900}
          rows={list.data?.items}
          loading={list.isPending || (list.isError && list.isFetching)}
          failure={list.error ? LOAD_ERROR_TEXT : null}
          empty="No API keys yet."
          renderRow={(key) => {
            const state = stateOf(key, now);
            return (
              <Table.Tr key={key._id}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {key.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    by {key.createdBy.name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {key.scopes.map((scope) => (
                      <Badge key={scope} variant="outline" tt="none" size="sm">
                        {scope}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>{formatDateTime(key.createdAt)}</Table.Td>
                <Table.Td>{key.expiresAt ? formatDateTime(key.expiresAt) : 'Never'}</Table.Td>
                <Table.Td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Never used'}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={STATE_COLOR[state]} tt="none">
                    {state}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {state !== 'Revoked' && (
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      aria-label={`Revoke ${key.name}`}
                      onClick={() => setRevoking(key)}
                    >
                      Revoke
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          }}
        />
      </Stack>

      <FormModal
        opened={creating || created !== null}
        title={created ? 'Copy your new API key' : 'Create API key'}
        onClose={() => {
          setCreating(false);
          setCreated(null);
        }}
      >
        {created ? (
          <ShownOnce
            created={created}
            onDone={() => {
              setCreated(null);
              setCreating(false);
            }}
          />
        ) : (
          <CreateKeyForm
            onCancel={() => setCreating(false)}
            onCreated={(answer) => {
              setCreated(answer);
              void refresh();
            }}
          />
        )}
      </FormModal>

      <FormModal opened={revoking !== null} title="Revoke API key" onClose={() => setRevoking(null)}>
        <form onSubmit={confirmRevoke} noValidate>
          <Stack gap="md">
            <Text size="sm">
              Revoke “{revoking?.name}”? Every integration using it stops working at once. This cannot be
              undone.
            </Text>
            <DialogActions
              pending={revoke.isPending}
              onCancel={() => setRevoking(null)}
              submitLabel="Revoke key"
            />
          </Stack>
        </form>
      </FormModal>
    </Container>
  );
}

function CreateKeyForm({
  onCancel,
  onCreated,
}: {
  onCancel: () => void;
  onCreated: (answer: CreatedApiKeyAnswer) => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.apiKeys.create.mutationOptions());
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['transactions:read']);
  const [expiry, setExpiry] = useState('90');
  const [errors, setErrors] = useState<{ name?: string; scopes?: string; form?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      ...(name.trim() ? {} : { name: integrationMessages.keyNameRequired }),
      ...(scopes.length ? {} : { scopes: integrationMessages.scopesRequired }),
    };
    setErrors(found);
    if (found.name || found.scopes) return;
    const expiresAt =
      expiry === 'never' ? null : new Date(Date.now() + Number(expiry) * DAY_MS).toISOString();
    create.mutate(
      { name: name.trim(), scopes, expiresAt },
      { onSuccess: onCreated, onError: (failure) => setErrors({ form: serverMessageOf(failure) }) },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          description="Who uses it, e.g. “QuickBooks sync”"
          required
          data-autofocus
          value={name}
          maxLength={MAX_KEY_NAME}
          onChange={(event) => setName(event.currentTarget.value)}
          error={errors.name}
        />
        <Checkbox.Group
          label="Scopes"
          required
          value={scopes}
          onChange={(value) => setScopes(value as ApiKeyScope[])}
          error={errors.scopes}
        >
          <Stack gap={6} mt={6}>
            {API_KEY_SCOPES.map((scope) => (
              <Checkbox key={scope} value={scope} label={scope} description={API_KEY_SCOPE_LABELS[scope]} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Select
          label="Expires"
          data={EXPIRIES}
          value={expiry}
          allowDeselect={false}
          onChange={(value) => setExpiry(value ?? '90')}
        />
        {errors.form && (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        )}
        <DialogActions pending={create.isPending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}

function ShownOnce({ created, onDone }: { created: CreatedApiKeyAnswer; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Alert color="yellow" title="Shown only this once">
        Copy this key now and keep it in your integration's secret store. The portal keeps only a hash of it:
        if it is lost, revoke it and create another.
      </Alert>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label={`API key “${created.name}”`}
          value={created.key}
          readOnly
          style={{ flex: 1 }}
          styles={{ input: { fontFamily: 'monospace' } }}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton value={created.key}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'filled' : 'default'}
              color={copied ? 'teal' : undefined}
              onClick={copy}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
