import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PASSKEY_NAME_MAX, passkeyMessages } from '../../../shared/passkey-messages';
import type { PasskeyAnswer, RegisterVerifyInput } from '../../../shared/schemas/passkeys';
import { serverMessageOf } from '../../api/errors';
import { formatDateTime } from '../../dates';
import { notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { confirmDelete } from '../confirm-delete';
import { FormModal } from '../FormModal';
import { passkeyBrowser, passkeyFailureOf, prompted } from './passkey-browser';

/**
 * The "Passkeys" section of /settings: add one (the browser's prompt makes it, the name is the
 * user's), and list, rename and remove them. Removing the last one asks for the password.
 */
export function Passkeys() {
  const trpc = useTRPC();
  const list = useQuery(trpc.passkeys.list.queryOptions());
  const items = list.data?.items ?? [];
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="passkeys-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="passkeys-heading">
          Passkeys
        </Title>
        <Text size="sm" c="dimmed">
          Sign in with your fingerprint, face or device PIN instead of your password.
        </Text>
        {list.error && <Text>Your passkeys could not be loaded.</Text>}
        {items.length > 0 && (
          <Stack
            gap="xs"
            component="ul"
            aria-label="Your passkeys"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {items.map((passkey) => (
              <PasskeyRow key={passkey._id} passkey={passkey} last={items.length === 1} />
            ))}
          </Stack>
        )}
        <AddPasskey />
      </Stack>
    </Paper>
  );
}

function useRefreshList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.passkeys.list.queryKey() });
}

function AddPasskey() {
  const trpc = useTRPC();
  const refresh = useRefreshList();
  const options = useMutation(trpc.passkeys.registerOptions.mutationOptions());
  const verify = useMutation(trpc.passkeys.registerVerify.mutationOptions());
  const [name, setName] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function add() {
    setFailure(null);
    setPending(true);
    try {
      const browser = await passkeyBrowser();
      const optionsJSON = (await options.mutateAsync()) as Parameters<
        typeof browser.startRegistration
      >[0]['optionsJSON'];
      const response = await prompted(browser.startRegistration({ optionsJSON }));
      const trimmed = name.trim();
      await verify.mutateAsync({
        response: response as RegisterVerifyInput['response'],
        ...(trimmed ? { name: trimmed } : {}),
      });
      setName('');
      await refresh();
      notifySuccess(passkeyMessages.added);
    } catch (error) {
      setFailure(passkeyFailureOf(error, serverMessageOf));
    } finally {
      setPending(false);
    }
  }

  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="Passkey name"
          description="So you can tell your passkeys apart, e.g. Work laptop"
          maxLength={PASSKEY_NAME_MAX}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          style={{ flex: '1 1 14rem' }}
        />
        <Button onClick={add} loading={pending}>
          Add a passkey
        </Button>
      </Group>
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
    </Stack>
  );
}

function PasskeyRow({ passkey, last }: { passkey: PasskeyAnswer; last: boolean }) {
  const trpc = useTRPC();
  const refresh = useRefreshList();
  const remove = useMutation(trpc.passkeys.remove.mutationOptions());
  const [renaming, setRenaming] = useState(false);
  const [askingPassword, setAskingPassword] = useState(false);

  const removeNow = () =>
    remove.mutate(
      { id: passkey._id },
      {
        onSuccess: async () => {
          await refresh();
          notifySuccess(passkeyMessages.removed);
        },
      },
    );

  return (
    <li>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <div>
          <Text fw={500}>{passkey.name}</Text>
          <Text size="sm" c="dimmed">
            Added {formatDateTime(passkey.createdAt)}
            {' · '}
            {passkey.lastUsedAt ? `Last used ${formatDateTime(passkey.lastUsedAt)}` : 'Never used'}
          </Text>
        </div>
        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            onClick={() => setRenaming(true)}
            aria-label={`Rename ${passkey.name}`}
          >
            Rename
          </Button>
          <Button
            variant="light"
            color="red"
            size="xs"
            aria-label={`Remove ${passkey.name}`}
            loading={remove.isPending}
            onClick={() =>
              last
                ? setAskingPassword(true)
                : confirmDelete('Remove passkey', `Remove the passkey "${passkey.name}"?`, removeNow)
            }
          >
            Remove
          </Button>
        </Group>
      </Group>
      {remove.error && (
        <Text c="red" size="sm" role="alert">
          {serverMessageOf(remove.error)}
        </Text>
      )}
      <FormModal opened={renaming} title="Rename passkey" onClose={() => setRenaming(false)}>
        <RenameForm passkey={passkey} onDone={() => setRenaming(false)} />
      </FormModal>
      <FormModal
        opened={askingPassword}
        title="Remove your last passkey"
        onClose={() => setAskingPassword(false)}
      >
        <RemoveLastForm passkey={passkey} onDone={() => setAskingPassword(false)} />
      </FormModal>
    </li>
  );
}

function RenameForm({ passkey, onDone }: { passkey: PasskeyAnswer; onDone: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefreshList();
  const rename = useMutation(trpc.passkeys.rename.mutationOptions());
  const [name, setName] = useState(passkey.name);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        rename.mutate(
          { id: passkey._id, name },
          {
            onSuccess: async () => {
              await refresh();
              notifySuccess(passkeyMessages.renamed);
              onDone();
            },
          },
        );
      }}
    >
      <Stack gap="md">
        <TextInput
          label="Name"
          data-autofocus
          maxLength={PASSKEY_NAME_MAX}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={rename.error ? serverMessageOf(rename.error) : undefined}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={rename.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RemoveLastForm({ passkey, onDone }: { passkey: PasskeyAnswer; onDone: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefreshList();
  const remove = useMutation(trpc.passkeys.remove.mutationOptions());
  const [password, setPassword] = useState('');
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        remove.mutate(
          { id: passkey._id, password },
          {
            onSuccess: async () => {
              await refresh();
              notifySuccess(passkeyMessages.removed);
              onDone();
            },
          },
        );
      }}
    >
      <Stack gap="md">
        <Text size="sm">
          "{passkey.name}" is your last passkey: afterwards you sign in without one. Enter your password to
          remove it.
        </Text>
        <PasswordInput
          label="Password"
          data-autofocus
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={remove.error ? serverMessageOf(remove.error) : undefined}
        />
        <Group justify="flex-end">
          <Button type="submit" color="red" loading={remove.isPending}>
            Remove passkey
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
