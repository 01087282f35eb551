import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toasts } from '../../shared/messages';
import type { FactsInput } from '../../shared/schemas/facts';
import type { Transaction as TransactionAnswer, TransactionForm } from '../../shared/schemas/transactions';
import { serverMessageOf } from '../api/errors';
import { getUserId } from '../auth/session';
import { CdaSection } from '../components/commission/CdaSection';
import { CommissionCard } from '../components/commission/CommissionCard';
import { ArchiveCard } from '../components/transactions/ArchiveCard';
import { ClosedBanner } from '../components/transactions/Closing';
import { FactsCard } from '../components/transactions/FactsCard';
import { FormsChecklist } from '../components/transactions/FormsChecklist';
import { KeyDatesEditor } from '../components/transactions/KeyDatesEditor';
import { RetentionNote } from '../components/transactions/Retention';
import { TransactionDetailLayout } from '../components/transactions/TransactionDetailLayout';
import {
  UpdateTransactionForm,
  type UpdateTransactionValues,
} from '../components/transactions/UpdateTransactionForm';
import { useTransactionDetail, useTransactionId } from '../components/transactions/useTransactionDetail';
import { notifyError, notifySuccess } from '../notify';
import { paths } from '../paths';
import { useTRPC } from '../trpc';

/** A user's transaction detail (/home/transactions/:id). */
export function Transaction() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useTransactionId();
  const userId = getUserId();

  const query = useQuery(trpc.transactions.get.queryOptions(userId ? { id, userId } : skipToken));
  const update = useMutation(trpc.transactions.update.mutationOptions());
  const detail = useTransactionDetail({
    query,
    update,
    back: { href: paths.home, label: 'Back to transactions' },
  });

  // Its own mutation: a facts save neither leaves the page nor busies the address form's button.
  const updateFacts = useMutation(trpc.transactions.update.mutationOptions());
  const addComment = useMutation(trpc.transactions.addComment.mutationOptions());
  // The transaction, and the list rows whose progress and badge a file or a waiver changes.
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.transactions.get.pathFilter()),
      queryClient.invalidateQueries(trpc.transactions.list.pathFilter()),
      queryClient.invalidateQueries(trpc.transactions.search.pathFilter()),
    ]);

  const postComment = async (form: TransactionForm, text: string) => {
    try {
      await addComment.mutateAsync({ id, formId: form._id, text });
    } catch (error) {
      notifyError(serverMessageOf(error));
      return false;
    }
    notifySuccess(toasts.commentAdded);
    await reload();
    return true;
  };

  // The agent may change the address only; the admin's flags stay as they are.
  const save = ({ streetAddress, city, state, zip }: UpdateTransactionValues) => {
    if (userId) detail.save({ id, userId, streetAddress, city, state, zip });
  };

  /** The update names the address as loaded (the body requires it) and the facts that changed. */
  const saveFacts = async (transaction: TransactionAnswer, facts: FactsInput) => {
    const { streetAddress, city, state, zip } = transaction;
    const saved = await updateFacts.mutateAsync({
      id,
      userId: userId ?? '',
      streetAddress,
      city,
      state,
      zip,
      facts,
    });
    // The answer holds the checklist as the new facts make it.
    queryClient.setQueryData(trpc.transactions.get.queryKey({ id, userId: userId ?? '' }), saved);
    void reload();
    return saved;
  };

  /** The commission's save answers with the transaction: shown at once, the lists refreshed. */
  const savedCommission = (saved: TransactionAnswer) => {
    queryClient.setQueryData(trpc.transactions.get.queryKey({ id, userId: userId ?? '' }), saved);
    return reload();
  };

  return (
    <TransactionDetailLayout {...detail.layout}>
      {(transaction) => (
        <>
          <ClosedBanner transaction={transaction} />
          <RetentionNote transaction={transaction} />
          <KeyDatesEditor transactionId={transaction._id} closed={transaction.closedAt !== null} />
          <FactsCard transaction={transaction} onSave={(facts) => saveFacts(transaction, facts)} />
          <CommissionCard transaction={transaction} onSaved={(saved) => void savedCommission(saved)}>
            <CdaSection transaction={transaction} />
          </CommissionCard>
          <FormsChecklist transaction={transaction} onComment={postComment} onFileStored={reload} />
          <UpdateTransactionForm
            key={transaction._id}
            transaction={transaction}
            submitting={detail.saving}
            disabled={transaction.closedAt !== null}
            onSubmit={save}
          />
          {/* Last: it changes when the seal lands, and nothing below it moves then. */}
          <ArchiveCard transaction={transaction} />
        </>
      )}
    </TransactionDetailLayout>
  );
}
