import { type UseMutationResult, type UseQueryResult, useQueryClient } from '@tanstack/react-query';
import { useLocation, useParams } from 'wouter';
import { alerts, toasts } from '../../../shared/messages';
import type { Transaction } from '../../../shared/schemas/transactions';
import { httpStatusOf } from '../../api/errors';
import { notifySuccess, useLoadFailureToast } from '../../notify';
import { decodeParam } from '../../paths';
import { useTRPC } from '../../trpc';

/**
 * A transaction the caller may not see answers 404, never revealing it exists (docs/API.md,
 * "Errors"); a malformed id in a hand-edited URL answers 400. Both mean "nothing here".
 */
function isMissing(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status === 404 || status === 400;
}

/** The id of the transaction in the detail page's path. */
export function useTransactionId(): string {
  return decodeParam(useParams<{ id: string }>().id);
}

type TransactionDetailOptions<TUpdateInput> = {
  /** The page's load of the transaction, through the agent's or the admin's procedure. */
  query: UseQueryResult<Transaction, unknown>;
  /** The page's update procedure. */
  update: UseMutationResult<unknown, unknown, TUpdateInput>;
  /** The list the page came from: the way back, and where a saved update leads. */
  back: { href: string; label: string };
};

/**
 * What the agent's and the admin's detail pages do alike: a transaction that is not there (or not
 * theirs) shows as missing, any other failed load as a toast with a retry; a saved update says so
 * and goes back to the list.
 */
export function useTransactionDetail<TUpdateInput>({
  query,
  update,
  back,
}: TransactionDetailOptions<TUpdateInput>) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();

  const missing = isMissing(query.error);
  useLoadFailureToast(
    'transaction',
    'Could not load the transaction',
    missing ? null : query.error,
    query.refetch,
  );

  const save = (input: TUpdateInput) =>
    update.mutate(input, {
      onSuccess: async () => {
        notifySuccess(toasts.transactionUpdated);
        navigate(back.href);
        // Both lists show the transaction: the agent's and the admin's.
        await Promise.all([
          queryClient.invalidateQueries(trpc.transactions.pathFilter()),
          queryClient.invalidateQueries(trpc.adminTransactions.pathFilter()),
        ]);
      },
      onError: () => window.alert(alerts.transactionUpdateFailed),
    });

  return {
    /** The props of <TransactionDetailLayout>. */
    layout: { transaction: query.data, missing, failed: query.isError, back },
    save,
    saving: update.isPending,
  };
}
