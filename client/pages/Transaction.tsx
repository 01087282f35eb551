import { Stack, Title } from '@mantine/core';
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useParams } from 'wouter';
import { alerts, toasts } from '../../shared/messages';
import type { TransactionForm } from '../../shared/schemas/transactions';
import { serverMessageOf } from '../api/errors';
import { getUserId } from '../auth/session';
import { FormsChecklist } from '../components/transactions/FormsChecklist';
import { isMissing, TransactionDetailLayout } from '../components/transactions/TransactionDetailLayout';
import {
  UpdateTransactionForm,
  type UpdateTransactionValues,
} from '../components/transactions/UpdateTransactionForm';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { decodeParam, paths } from '../paths';
import { useTRPC } from '../trpc';

/** A user's transaction detail (spec section 2, /home/transactions/:id). */
export function Transaction() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const id = decodeParam(useParams<{ id: string }>().id);
  const userId = getUserId();

  const query = useQuery(trpc.transactions.get.queryOptions(userId ? { id, userId } : skipToken));
  const missing = isMissing(query.error);
  useLoadFailureToast(
    'transaction',
    'Could not load the transaction',
    missing ? null : query.error,
    query.refetch,
  );

  const addComment = useMutation(trpc.transactions.addComment.mutationOptions());
  const update = useMutation(trpc.transactions.update.mutationOptions());

  const reload = () => queryClient.invalidateQueries(trpc.transactions.get.pathFilter());

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

  const save = (values: UpdateTransactionValues) => {
    if (!userId) return;
    const { streetAddress, city, state, zip } = values;
    update.mutate(
      { id, userId, streetAddress, city, state, zip },
      {
        onSuccess: async () => {
          notifySuccess(toasts.transactionUpdated);
          navigate(paths.home);
          await Promise.all([
            queryClient.invalidateQueries(trpc.transactions.pathFilter()),
            queryClient.invalidateQueries(trpc.adminTransactions.pathFilter()),
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
      back={{ href: paths.home, label: 'Back to transactions' }}
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
              onComment={postComment}
              onFileStored={reload}
            />
          </Stack>
          <UpdateTransactionForm
            key={transaction._id}
            transaction={transaction}
            submitting={update.isPending}
            onSubmit={save}
          />
        </>
      )}
    </TransactionDetailLayout>
  );
}
