import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toasts } from '../../shared/messages';
import type { TransactionForm } from '../../shared/schemas/transactions';
import { type Decision, FormsChecklist } from '../components/transactions/FormsChecklist';
import { TransactionDetailLayout } from '../components/transactions/TransactionDetailLayout';
import { TransactionHistory } from '../components/transactions/TransactionHistory';
import { UpdateTransactionForm } from '../components/transactions/UpdateTransactionForm';
import { useTransactionDetail, useTransactionId } from '../components/transactions/useTransactionDetail';
import { notifyError, notifySuccess } from '../notify';
import { paths } from '../paths';
import { useTRPC } from '../trpc';

/** An admin's view of one transaction (spec section 2, /adminTransactions/transactions/:id). */
export function AdminTransaction() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useTransactionId();

  const query = useQuery(trpc.adminTransactions.get.queryOptions({ id }));
  const update = useMutation(trpc.adminTransactions.update.mutationOptions());
  const detail = useTransactionDetail({
    query,
    update,
    back: { href: paths.adminTransactions, label: 'Back to admin transactions' },
  });
  // Asked only once the transaction is known to exist, so a missing one makes one failing call.
  const history = useQuery(trpc.adminTransactions.history.queryOptions({ id }, { enabled: query.isSuccess }));

  const review = useMutation(trpc.adminTransactions.review.mutationOptions());

  // The transaction and its history change together; the agent's cached copy changes as well.
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.adminTransactions.get.pathFilter()),
      queryClient.invalidateQueries(trpc.adminTransactions.history.pathFilter()),
      queryClient.invalidateQueries(trpc.transactions.get.pathFilter()),
    ]);

  /** A decision, a comment, or both: one review call (the server records them together). */
  const sendReview = async (form: TransactionForm, status: Decision | undefined, text: string) => {
    try {
      await review.mutateAsync({
        id,
        formId: form._id,
        ...(status ? { status } : {}),
        ...(text ? { text } : {}),
      });
    } catch {
      notifyError(toasts.updateFailed);
      return false;
    }
    notifySuccess(status ? toasts.reviewSaved : toasts.commentAdded);
    await reload();
    return true;
  };

  return (
    <TransactionDetailLayout {...detail.layout}>
      {(transaction) => (
        <>
          <FormsChecklist
            transaction={transaction}
            onComment={(form, text) => sendReview(form, undefined, text)}
            onReview={sendReview}
            onFileStored={reload}
          />
          <UpdateTransactionForm
            key={transaction._id}
            transaction={transaction}
            withFlags
            submitting={detail.saving}
            onSubmit={(values) => detail.save({ id, ...values })}
          />
          <TransactionHistory entries={history.data} failed={history.isError} />
        </>
      )}
    </TransactionDetailLayout>
  );
}
