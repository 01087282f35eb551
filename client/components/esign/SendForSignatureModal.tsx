import { Alert, Button, Checkbox, Group, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TransactionForm } from '../../../shared/schemas/transactions';
import { serverMessageOf } from '../../api/errors';
import { PHONE_QUERY } from '../../breakpoints';
import { notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { FormModal } from '../FormModal';
import { FieldPlacement } from './FieldPlacement';
import { SignersEditor } from './SignersEditor';
import { useSignatureDraft } from './useSignatureDraft';

type SendForSignatureModalProps = {
  transactionId: string;
  /** The item whose current PDF is sent; it has a file (the button shows only then). */
  form: TransactionForm & { url: string };
  onClose: () => void;
};

/**
 * "Send for signature" on a checklist item: the subject and message the signers are mailed, who
 * signs (in order or all at once), and where each signs, placed over the item's current PDF. The
 * server checks it all (a signer without a signature field, a field past the last page) and its
 * message shows here. Loaded on demand, with pdf.js.
 */
export default function SendForSignatureModal({ transactionId, form, onClose }: SendForSignatureModalProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const send = useMutation(trpc.signatures.create.mutationOptions());
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const draft = useSignatureDraft();
  const [subject, setSubject] = useState(`Please sign: ${form.label}`);
  const [message, setMessage] = useState('');
  const [ordered, setOrdered] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setError(null);
    const { signers, fields } = draft.request();
    try {
      await send.mutateAsync({
        id: transactionId,
        formId: form._id,
        subject,
        message: message.trim() || undefined,
        signers,
        ordered,
        fields,
      });
    } catch (failure) {
      setError(serverMessageOf(failure));
      return;
    }
    notifySuccess(
      signers.length === 1
        ? 'Sent for signature to 1 signer'
        : `Sent for signature to ${signers.length} signers`,
    );
    await queryClient.invalidateQueries(trpc.signatures.list.queryFilter({ id: transactionId }));
    onClose();
  };

  return (
    <FormModal
      opened
      onClose={onClose}
      title={`Send for signature: ${form.label}`}
      size="xl"
      fullScreen={phone}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <TextInput
            label="Subject"
            required
            value={subject}
            onChange={(event) => setSubject(event.currentTarget.value)}
          />
          <Textarea
            label="Message to the signers"
            rows={2}
            value={message}
            onChange={(event) => setMessage(event.currentTarget.value)}
          />
          <Title order={3} size="h5">
            Signers
          </Title>
          <SignersEditor
            signers={draft.signers}
            fieldCounts={draft.fieldCounts}
            onChange={draft.changeSigner}
            onAdd={draft.addSigner}
            onRemove={draft.removeSigner}
          />
          <Checkbox
            label="Sign in order: each signer is mailed once the one before has signed"
            checked={ordered}
            onChange={(event) => setOrdered(event.currentTarget.checked)}
          />
          <Title order={3} size="h5">
            Fields
          </Title>
          <FieldPlacement draft={draft} url={form.url} label={form.label} />
          {error && (
            <Alert color="red" role="alert" title="Not sent">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={send.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={send.isPending}>
              Send for signature
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
