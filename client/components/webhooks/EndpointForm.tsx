import { MultiSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { createWebhookInput, WEBHOOK_EVENTS, type WebhookEndpoint } from '../../../shared/schemas/webhooks';
import { serverMessageOf } from '../../api/errors';
import { useTRPC } from '../../trpc';
import { DialogActions } from '../DialogActions';

/** The dialog open: adding an endpoint, or changing one. */
export type Editing = { mode: 'add' } | { mode: 'edit'; endpoint: WebhookEndpoint };

/** An endpoint's URL, events and description: the add and the edit dialog. */
export function EndpointForm({
  editing,
  onCancel,
  onSaved,
}: {
  editing: Editing;
  onCancel: () => void;
  /** With the secret of a new endpoint; nothing after an edit. */
  onSaved: (secret?: string) => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.webhooks.create.mutationOptions());
  const update = useMutation(trpc.webhooks.update.mutationOptions());
  const initial = editing.mode === 'edit' ? editing.endpoint : undefined;
  const [url, setUrl] = useState(initial?.url ?? '');
  const [events, setEvents] = useState<string[]>(initial?.events ?? []);
  const [description, setDescription] = useState(initial?.description ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const pending = create.isPending || update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createWebhookInput.safeParse({ url, events, description });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    const onError = (failure: unknown) => setErrors({ url: serverMessageOf(failure) });
    if (initial) update.mutate({ id: initial._id, ...parsed.data }, { onSuccess: () => onSaved(), onError });
    else create.mutate(parsed.data, { onSuccess: (created) => onSaved(created.secret), onError });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="URL"
          required
          data-autofocus
          placeholder="https://crm.example.com/hooks/portal"
          value={url}
          onChange={(event) => setUrl(event.currentTarget.value)}
          error={errors.url}
          maxLength={2000}
        />
        <MultiSelect
          label="Events"
          required
          data={[...WEBHOOK_EVENTS]}
          value={events}
          onChange={setEvents}
          error={errors.events}
          searchable
          clearable
          comboboxProps={{ withinPortal: true }}
        />
        <Textarea
          label="Description"
          value={description}
          onChange={(event) => setDescription(event.currentTarget.value)}
          error={errors.description}
          maxLength={500}
          rows={2}
        />
        <DialogActions pending={pending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
