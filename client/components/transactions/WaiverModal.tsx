import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { complianceMessages, toasts } from '../../../shared/messages';
import type { TransactionForm } from '../../../shared/schemas/transactions';
import { serverMessageOf } from '../../api/errors';
import { notifyError, notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';

type WaiverModalProps = {
  opened: boolean;
  transactionId: string;
  form: TransactionForm;
  onClose: () => void;
  onRequested: () => unknown;
};

/** 'Request waiver': why this required document does not apply, for the compliance desk to decide. */
export function WaiverModal({ opened, transactionId, form, onClose, onRequested }: WaiverModalProps) {
  const trpc = useTRPC();
  const request = useMutation(trpc.transactions.requestWaiver.mutationOptions());
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };

  const submit = async () => {
    const trimmed = reason.trim();
    if (!trimmed) {
      setError(complianceMessages.waiverReasonRequired);
      return;
    }
    try {
      await request.mutateAsync({ id: transactionId, formId: form._id, reason: trimmed });
    } catch (failure) {
      notifyError(toasts.updateFailed, serverMessageOf(failure));
      return;
    }
    notifySuccess('Waiver requested');
    close();
    await onRequested();
  };

  return (
    <Modal opened={opened} onClose={close} title={`Request a waiver: ${form.label}`}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Textarea
            label="Reason"
            placeholder="Not applicable: built after 1978"
            rows={3}
            value={reason}
            error={error}
            data-autofocus
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setError(null);
            }}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={request.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={request.isPending}>
              Request waiver
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
