import { Stack, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useParams } from 'wouter';
import { alerts, toasts } from '../../shared/messages';
import type { TransactionForm } from '../../shared/schemas/transactions';
import { type Decision, FormsChecklist } from '../components/transactions/FormsChecklist';
import { isMissing, TransactionDetailLayout } from '../components/transactions/TransactionDetailLayout';
import { TransactionHistory } from '../components/transactions/TransactionHistory';
import {
  UpdateTransactionForm,
  type UpdateTransactionValues,
} from '../components/transactions/UpdateTransactionForm';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { decodeParam, paths } from '../paths';
import { useTRPC } from '../trpc';

/** An admin's view of one transaction (spec section 2, /adminTransactions/transactions/:id). */
export function AdminTransaction() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const id = decodeParam(useParams<{ id: string }>().id);

  const query = useQuery(trpc.adminTransactions.get.queryOptions({ id }));
  const missing = isMissing(query.error);
  useLoadFailureToast(
    'transaction',
    'Could not load the transaction',
    missing ? null : query.error,
    query.refetch,
  );
  // Asked only once the transaction is known to exist, so a missing one makes one failing call.
  const history = useQuery(trpc.adminTransactions.history.queryOptions({ id }, { enabled: query.isSuccess }));

  const review = useMutation(trpc.adminTransactions.review.mutationOptions());
  const update = useMutation(trpc.adminTransactions.update.mutationOptions());

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

  const save = (values: UpdateTransactionValues) => {
    update.mutate(
      { id, ...values },
      {
        onSuccess: async () => {
          notifySuccess(toasts.transactionUpdated);
          navigate(paths.adminTransactions);
          await Promise.all([
            queryClient.invalidateQueries(trpc.adminTransactions.pathFilter()),
            queryClient.invalidateQueries(trpc.transactions.pathFilter()),
          ]);
        },
        onError: () => window.alert(alerts.transactionUpdateFailed),
      },
    );
  };

  return (
    <TransactionDetailLayout
      transaction={query.data}
      missing={missing}
      failed={query.isError}
      back={{ href: paths.adminTransactions, label: 'Back to admin transactions' }}
    >
      {(transaction) => (
        <>
          <Stack gap="sm">
            <Title order={2} size="h3">
              Documents
            </Title>
            <FormsChecklist
              transactionId={transaction._id}
              forms={transaction.forms}
              onComment={(form, text) => sendReview(form, undefined, text)}
              onReview={sendReview}
              onFileStored={reload}
            />
          </Stack>
          <UpdateTransactionForm
            key={transaction._id}
            transaction={transaction}
            withFlags
            submitting={update.isPending}
            onSubmit={save}
          />
          <TransactionHistory entries={history.data} failed={history.isError} />
        </>
      )}
    </TransactionDetailLayout>
  );
}
