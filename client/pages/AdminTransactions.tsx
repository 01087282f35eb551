import { Button, Group, NativeSelect, Stack } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { PAGE_SIZE } from '../../shared/constants';
import { toasts } from '../../shared/messages';
import {
  COMPLIANCE_STATUSES,
  type ComplianceStatus,
  type TransactionSummary,
} from '../../shared/schemas/transactions';
import { serverMessageOf } from '../api/errors';
import { confirmDelete } from '../components/confirm-delete';
import { ExportButton, exportPath } from '../components/ExportButton';
import { ListPage } from '../components/ListPage';
import {
  OfficeFilter,
  officeInput,
  useOfficeFilterChoices,
  useOfficeParam,
} from '../components/offices/scope';
import { COMPLIANCE_LABEL } from '../components/transactions/compliance';
import { TransactionsTable } from '../components/transactions/TransactionsTable';
import { useListSearch } from '../components/useListSearch';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { routeTo } from '../paths';
import { useTRPC } from '../trpc';

const STATUS_OPTIONS = [
  { value: '', label: 'All' },
  ...COMPLIANCE_STATUSES.map((value) => ({ value, label: COMPLIANCE_LABEL[value] })),
];

/** Every user's transactions, for admins (/adminTransactions). */
export function AdminTransactions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { page, setPage, term, search } = useListSearch();
  // The compliance filter: '' is every transaction.
  const [status, setStatus] = useState<ComplianceStatus | ''>('');
  // A brokerage-wide admin's office filter, in the address; '' is every office.
  const offices = useOfficeFilterChoices();
  const [officeId, setOfficeId] = useOfficeParam();
  const statusFilter = { ...(status ? { status } : {}), ...officeInput(officeId) };
  const filterBy = (value: string) => {
    setStatus(value as ComplianceStatus | '');
    setPage(1);
  };
  const filterByOffice = (value: string) => {
    setOfficeId(value);
    setPage(1);
  };

  // As on /home: an empty term is the plain list; the previous page holds the pager steady.
  const listed = useQuery(
    trpc.adminTransactions.list.queryOptions(
      { page, limit: PAGE_SIZE, ...statusFilter },
      { enabled: !term, placeholderData: keepPreviousData },
    ),
  );
  const found = useQuery(
    trpc.adminTransactions.search.queryOptions(
      { term, page, limit: PAGE_SIZE, ...statusFilter },
      { enabled: Boolean(term), placeholderData: keepPreviousData },
    ),
  );
  const query = term ? found : listed;
  useLoadFailureToast('admin-transactions-list', 'Could not load transactions', query.error, query.refetch);

  // Deleting the last row of the last page would leave an empty page: step back to the new last.
  const totalPages = query.data?.totalPages;
  useEffect(() => {
    if (totalPages !== undefined && !query.isPlaceholderData && page > Math.max(1, totalPages)) {
      setPage(Math.max(1, totalPages));
    }
  }, [totalPages, page, setPage, query.isPlaceholderData]);

  const remove = useMutation(
    trpc.adminTransactions.delete.mutationOptions({
      onSuccess: async () => {
        notifySuccess(toasts.transactionDeleted);
        await Promise.all([
          queryClient.invalidateQueries(trpc.adminTransactions.pathFilter()),
          queryClient.invalidateQueries(trpc.transactions.pathFilter()),
        ]);
      },
      onError: (error) => notifyError(serverMessageOf(error)),
    }),
  );

  const confirmRemove = (transaction: TransactionSummary) =>
    confirmDelete(
      'Delete transaction',
      <>
        Delete the transaction at {transaction.streetAddress}, {transaction.city}?
      </>,
      () => remove.mutate({ id: transaction._id }),
    );

  return (
    <ListPage
      title="Admin Transactions"
      action={
        <ExportButton
          path={exportPath('/api/admin/transactions.csv', { status, query: term, ...officeInput(officeId) })}
          filename="transactions.csv"
        />
      }
      onSearch={search}
    >
      <Stack gap="md">
        <Group gap="sm" wrap="wrap" align="flex-end">
          <NativeSelect
            label="Status"
            w={{ base: '100%', xs: 240 }}
            value={status}
            onChange={(event) => filterBy(event.currentTarget.value)}
            data={STATUS_OPTIONS}
          />
          <OfficeFilter offices={offices} value={officeId} onChange={filterByOffice} />
        </Group>
        <TransactionsTable
          query={query}
          page={page}
          onPageChange={setPage}
          hrefOf={(transaction) => routeTo.adminTransaction(transaction._id)}
          renderActions={(transaction) => (
            <Button
              size="xs"
              variant="light"
              color="red"
              disabled={remove.isPending && remove.variables?.id === transaction._id}
              onClick={() => confirmRemove(transaction)}
            >
              Delete
            </Button>
          )}
        />
      </Stack>
    </ListPage>
  );
}
