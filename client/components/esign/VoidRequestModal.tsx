import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { esignMessages } from '../../../shared/esign-messages';
import type { SignatureRequest } from '../../../shared/schemas/esign';
import { serverMessageOf } from '../../api/errors';
import { notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';

type VoidRequestModalProps = {
  transactionId: string;
  request: SignatureRequest;
  onClose: () => void;
  onVoided: () => unknown;
};

/** Voiding a request out for signature, with the reason: its links stop working. */
export function VoidRequestModal({ transactionId, request, onClose, onVoided }: VoidRequestModalProps) {
  const trpc = useTRPC();
  const voidRequest = useMutation(trpc.signatures.void.mutationOptions());
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    if (!reason.trim()) {
      setError(esignMessages.reasonRequired);
      return;
    }
    try {
      await voidRequest.mutateAsync({ id: transactionId, reqId: request._id, reason: reason.trim() });
    } catch (failure) {
      setError(serverMessageOf(failure));
      return;
    }
    notifySuccess('Signature request voided');
    onClose();
    await onVoided();
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={`Void: ${request.subject}`}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
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
            description="The signers' links stop working."
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
            <Button variant="default" onClick={onClose} disabled={voidRequest.isPending}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={voidRequest.isPending}>
              Void the request
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
