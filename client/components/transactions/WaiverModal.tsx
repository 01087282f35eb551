import { useMutation } from '@tanstack/react-query';
import { complianceMessages } from '../../../shared/messages';
import type { TransactionForm } from '../../../shared/schemas/transactions';
import { serverMessageOf } from '../../api/errors';
import { notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { ReasonModal } from '../ReasonModal';

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

  const submit = async (reason: string) => {
    try {
      await request.mutateAsync({ id: transactionId, formId: form._id, reason });
    } catch (failure) {
      return serverMessageOf(failure);
    }
    notifySuccess('Waiver requested');
    onClose();
    await onRequested();
    return undefined;
  };

  return (
    <ReasonModal
      opened={opened}
      title={`Request a waiver: ${form.label}`}
      placeholder="Not applicable: built after 1978"
      submitLabel="Request waiver"
      requiredMessage={complianceMessages.waiverReasonRequired}
      pending={request.isPending}
      onClose={onClose}
      onSubmit={submit}
    />
  );
}
