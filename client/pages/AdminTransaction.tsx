import { Group } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toasts } from '../../shared/messages';
import type { FactsInput } from '../../shared/schemas/facts';
import type { Transaction, TransactionForm } from '../../shared/schemas/transactions';
import { serverMessageOf } from '../api/errors';
import { CdaSection } from '../components/commission/CdaSection';
import { CommissionCard } from '../components/commission/CommissionCard';
import { ArchiveCard } from '../components/transactions/ArchiveCard';
import { CloseControls, ClosedBanner } from '../components/transactions/Closing';
import { FactsCard } from '../components/transactions/FactsCard';
import { type Decision, FormsChecklist } from '../components/transactions/FormsChecklist';
import { KeyDatesEditor } from '../components/transactions/KeyDatesEditor';
import { LegalHoldSwitch, RetentionNote } from '../components/transactions/Retention';
import { TransactionDetailLayout } from '../components/transactions/TransactionDetailLayout';
import { TransactionHistory } from '../components/transactions/TransactionHistory';
import { UpdateTransactionForm } from '../components/transactions/UpdateTransactionForm';
import { useTransactionDetail, useTransactionId } from '../components/transactions/useTransactionDetail';
import { notifyError, notifySuccess } from '../notify';
import { paths } from '../paths';
import { useTRPC } from '../trpc';

/** An admin's view of one transaction (/adminTransactions/transactions/:id). */
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

  // Its own mutation: a facts save neither leaves the page nor busies the address form's button.
  const updateFacts = useMutation(trpc.adminTransactions.update.mutationOptions());
  const review = useMutation(trpc.adminTransactions.review.mutationOptions());
  const close = useMutation(trpc.adminTransactions.close.mutationOptions());
  const reopen = useMutation(trpc.adminTransactions.reopen.mutationOptions());

  // The transaction and its history change together; the agent's cached copy changes as well.
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.adminTransactions.get.pathFilter()),
      queryClient.invalidateQueries(trpc.adminTransactions.history.pathFilter()),
      queryClient.invalidateQueries(trpc.transactions.get.pathFilter()),
      queryClient.invalidateQueries(trpc.adminTransactions.list.pathFilter()),
      queryClient.invalidateQueries(trpc.adminTransactions.search.pathFilter()),
    ]);

  /** Close or reopen: the server refuses a file that is not compliant (409, its words in the toast). */
  const setClosed = async (closing: boolean) => {
    try {
      await (closing ? close : reopen).mutateAsync({ id });
    } catch (error) {
      notifyError(toasts.updateFailed, serverMessageOf(error));
      return;
    }
    notifySuccess(closing ? 'Transaction closed' : 'Transaction reopened');
    await reload();
  };

  /** A decision, a comment, or both: one review call (the server records them together). */
  const sendReview = async (
    form: TransactionForm,
    status: Decision | undefined,
    text: string,
    reasons: string[] = [],
  ) => {
    try {
      await review.mutateAsync({
        id,
        formId: form._id,
        // A decision names the file it was made on: a newer one makes it a 409, not a wrong verdict.
        ...(status ? { status, version: form.version } : {}),
        ...(text ? { text } : {}),
        ...(reasons.length ? { reasons } : {}),
      });
    } catch (error) {
      // The server's words: 'There is no file to review', 'This transaction is closed', ...
      notifyError(toasts.updateFailed, serverMessageOf(error));
      return false;
    }
    notifySuccess(status ? toasts.reviewSaved : toasts.commentAdded);
    await reload();
    return true;
  };

  /** The update names the address as loaded (the body requires it) and the facts that changed. */
  const saveFacts = async (transaction: Transaction, facts: FactsInput) => {
    const { streetAddress, city, state, zip } = transaction;
    const saved = await updateFacts.mutateAsync({ id, streetAddress, city, state, zip, facts });
    // The answer holds the checklist as the new facts make it; the history records the change.
    queryClient.setQueryData(trpc.adminTransactions.get.queryKey({ id }), saved);
    void reload();
    return saved;
  };

  /** The commission's save answers with the transaction; the history records the change. */
  const savedCommission = (saved: Transaction) => {
    queryClient.setQueryData(trpc.adminTransactions.get.queryKey({ id }), saved);
    return reload();
  };

  /** A hold placed or released answers with the transaction; the history records the change. */
  const savedHold = (saved: Transaction) => {
    queryClient.setQueryData(trpc.adminTransactions.get.queryKey({ id }), saved);
    return reload();
  };

  return (
    <TransactionDetailLayout {...detail.layout}>
      {(transaction) => (
        <>
          <ClosedBanner transaction={transaction} />
          <RetentionNote transaction={transaction} />
          <Group gap="lg" wrap="wrap">
            <CloseControls
              transaction={transaction}
              busy={close.isPending || reopen.isPending}
              onClose={() => void setClosed(true)}
              onReopen={() => void setClosed(false)}
            />
            <LegalHoldSwitch transaction={transaction} onChanged={(saved) => void savedHold(saved)} />
          </Group>
          <KeyDatesEditor transactionId={transaction._id} closed={transaction.closedAt !== null} />
          <FactsCard transaction={transaction} onSave={(facts) => saveFacts(transaction, facts)} />
          <CommissionCard transaction={transaction} onSaved={(saved) => void savedCommission(saved)}>
            <CdaSection transaction={transaction} admin />
          </CommissionCard>
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
          {/* Last: it changes when the seal lands, and nothing below it moves then. */}
          <ArchiveCard transaction={transaction} />
        </>
      )}
    </TransactionDetailLayout>
  );
}
