import { useMutation } from '@tanstack/react-query';
import { esignMessages } from '../../../shared/esign-messages';
import type { SignatureRequest } from '../../../shared/schemas/esign';
import { serverMessageOf } from '../../api/errors';
import { notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { ReasonModal } from '../ReasonModal';

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

  const submit = async (reason: string) => {
    try {
      await voidRequest.mutateAsync({ id: transactionId, reqId: request._id, reason });
    } catch (failure) {
      return serverMessageOf(failure);
    }
    notifySuccess('Signature request voided');
    onClose();
    await onVoided();
    return undefined;
  };

  return (
    <ReasonModal
      opened
      title={`Void: ${request.subject}`}
      description="The signers' links stop working."
      submitLabel="Void the request"
      submitColor="red"
      requiredMessage={esignMessages.reasonRequired}
      pending={voidRequest.isPending}
      onClose={onClose}
      onSubmit={submit}
    />
  );
}
