import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { complianceMessages } from '../../../shared/messages';
import type { ReviewQueueItem } from '../../../shared/schemas/compliance';
import { serverMessageOf } from '../../api/errors';
import { notifyError, notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';

export const reviewToasts = {
  accepted: 'Document accepted',
  rejected: 'Document rejected',
  approved: 'Waiver approved',
  denied: 'Waiver denied',
} as const;

type DecisionOptions = {
  item: ReviewQueueItem;
  /** A decision was stored: refresh the queue and move on. */
  onDecided: () => Promise<void> | void;
};

/**
 * The decision on one item: the reasons and comment being written, whether the reviewer is
 * rejecting (denying: R, a reason chosen, or a Reject with nothing said yet), and the calls.
 */
export function useDecision({ item, onDecided }: DecisionOptions) {
  const trpc = useTRPC();
  const review = useMutation(trpc.adminTransactions.review.mutationOptions());
  const decideWaiver = useMutation(trpc.adminTransactions.decideWaiver.mutationOptions());
  const [reasons, setReasons] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  // Two keys in one frame (Enter pressed twice) must not send two decisions.
  const inFlight = useRef(false);
  const commentBox = useRef<HTMLTextAreaElement>(null);
  const { transaction, form } = item;
  const isWaiver = item.kind === 'waiver';

  /** What the reviewer types next is the rejection's text; the reasons are a Tab away. */
  const startRejecting = () => {
    setRejecting(true);
    commentBox.current?.focus();
  };
  const cancelRejecting = () => {
    setRejecting(false);
    setError(null);
  };
  const chooseReasons = (codes: string[]) => {
    setReasons(codes);
    if (codes.length > 0) setRejecting(true);
  };

  const decide = async (positive: boolean) => {
    if (inFlight.current) return;
    const comment = text.trim();
    if (!isWaiver && !positive && reasons.length === 0 && !comment) {
      setError(complianceMessages.rejectionNeedsReason);
      startRejecting();
      return;
    }
    inFlight.current = true;
    setError(null);
    setBusy(true);
    try {
      if (isWaiver) {
        await decideWaiver.mutateAsync({
          id: transaction._id,
          formId: form._id,
          approve: positive,
          ...(comment ? { text: comment } : {}),
        });
      } else {
        await review.mutateAsync({
          id: transaction._id,
          formId: form._id,
          status: positive ? 'accepted' : 'rejected',
          version: form.version,
          ...(comment ? { text: comment } : {}),
          ...(!positive && reasons.length ? { reasons } : {}),
        });
      }
    } catch (failure) {
      inFlight.current = false;
      setBusy(false);
      setError(serverMessageOf(failure));
      notifyError(serverMessageOf(failure));
      return;
    }
    notifySuccess(
      isWaiver
        ? positive
          ? reviewToasts.approved
          : reviewToasts.denied
        : positive
          ? reviewToasts.accepted
          : reviewToasts.rejected,
    );
    await onDecided();
  };

  return {
    isWaiver,
    reasons,
    chooseReasons,
    text,
    setText,
    error,
    busy,
    rejecting,
    commentBox,
    decide,
    startRejecting,
    cancelRejecting,
  };
}

export type Decision = ReturnType<typeof useDecision>;
