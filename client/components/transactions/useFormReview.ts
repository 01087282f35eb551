import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { complianceMessages, toasts, validation } from '../../../shared/messages';
import type { TransactionForm } from '../../../shared/schemas/transactions';
import { serverMessageOf } from '../../api/errors';
import { notifyError, notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';

export type Decision = 'accepted' | 'rejected';

/** What a checklist item does with a comment, a review or a stored change: the page's part. */
export type FormCallbacks = {
  /** Posts a non-empty comment; resolves true when posted, which clears the box. */
  onComment: (form: TransactionForm, text: string) => Promise<boolean>;
  /**
   * Given on the admin page: each item with a file gets Accept and Reject, sending the comment
   * box's text (possibly empty) and, with a rejection, its reasons along. It also turns an empty
   * comment into a warning, where the agent's page just ignores it.
   */
  onReview?: (form: TransactionForm, status: Decision, text: string, reasons: string[]) => Promise<boolean>;
  /** Called once a file, a waiver or its decision is stored, so the page reloads what changed. */
  onFileStored: () => unknown;
};

type Busy = 'comment' | Decision | 'waiver' | null;

/**
 * One checklist item's comment box and what is sent from it: a comment, an admin's Accept or
 * Reject (with reasons), or the decision on a requested waiver. One thing is sent at a time, and
 * the box clears once it is stored.
 */
export function useFormReview(transactionId: string, form: TransactionForm, callbacks: FormCallbacks) {
  const { onComment, onReview, onFileStored } = callbacks;
  const trpc = useTRPC();
  const decideWaiver = useMutation(trpc.adminTransactions.decideWaiver.mutationOptions());
  const [text, setText] = useState('');
  const [reasons, setReasons] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  // A checklist runs to a dozen documents: each comment box opens on demand ('Add a comment', or
  // Reject on the admin page) instead of every card carrying an empty one. A box with text in it
  // never closes by itself.
  const [composing, setComposing] = useState(false);
  // Reject opens the reasons and the box; a second Reject sends the rejection.
  const [rejecting, setRejecting] = useState(false);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (composing || rejecting) boxRef.current?.focus();
  }, [composing, rejecting]);

  const clear = () => {
    setText('');
    setReasons([]);
    setComposing(false);
    setRejecting(false);
    setError(null);
  };

  const run = async (kind: Exclude<Busy, null>, action: () => Promise<boolean>) => {
    setBusy(kind);
    try {
      if (await action()) clear();
    } finally {
      setBusy(null);
    }
  };

  const postComment = () => {
    const trimmed = text.trim();
    if (!trimmed) {
      // The reviewer is told; the agent's empty comment is ignored, as there is nothing to send.
      if (onReview) setError(validation.commentRequired);
      return;
    }
    void run('comment', () => onComment(form, trimmed));
  };

  const accept = () => {
    if (!onReview) return;
    setError(null);
    void run('accepted', () => onReview(form, 'accepted', text.trim(), []));
  };

  const reject = () => {
    if (!onReview) return;
    const trimmed = text.trim();
    if (!rejecting && !trimmed) {
      setRejecting(true);
      return;
    }
    setRejecting(true);
    if (!trimmed && reasons.length === 0) {
      setError(complianceMessages.rejectionNeedsReason);
      return;
    }
    setError(null);
    void run('rejected', () => onReview(form, 'rejected', trimmed, reasons));
  };

  const decideOnWaiver = (approve: boolean) => {
    const note = text.trim();
    void run('waiver', async () => {
      try {
        await decideWaiver.mutateAsync({
          id: transactionId,
          formId: form._id,
          approve,
          ...(note ? { text: note } : {}),
        });
      } catch (failure) {
        notifyError(toasts.updateFailed, serverMessageOf(failure));
        return false;
      }
      notifySuccess(approve ? 'Waiver approved' : 'Waiver denied');
      await onFileStored();
      return true;
    });
  };

  return {
    text,
    edit: (value: string) => {
      setText(value);
      setError(null);
    },
    reasons,
    setReasons,
    error,
    busy,
    locked: busy !== null,
    boxOpen: composing || rejecting || text !== '',
    rejecting,
    boxRef,
    compose: () => setComposing(true),
    clear,
    postComment,
    accept,
    reject,
    decideOnWaiver,
  };
}

export type FormReview = ReturnType<typeof useFormReview>;
