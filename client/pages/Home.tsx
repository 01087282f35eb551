import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { keepPreviousData, skipToken, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { PAGE_SIZE } from '../../shared/constants';
import { getUserId } from '../auth/session';
import { ListPage } from '../components/ListPage';
import { AttentionStrip } from '../components/transactions/AttentionStrip';
import { CreateTransactionDialog } from '../components/transactions/CreateTransactionDialog';
import { TransactionsTable } from '../components/transactions/TransactionsTable';
import { useListSearch } from '../components/useListSearch';
import { useLoadFailureToast } from '../notify';
import { routeTo } from '../paths';
import { useTRPC } from '../trpc';

/** The user's transactions list (spec section 2, /home). */
export function Home() {
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const userId = getUserId();
  const { page, setPage, term, search } = useListSearch();
  const [creating, setCreating] = useState(false);

  // One of the two runs at a time: an empty term is the plain list, never an empty search.
  // The previous page stays as a placeholder so the pager keeps its count while the next loads.
  const listed = useQuery(
    trpc.transactions.list.queryOptions(userId && !term ? { userId, page, limit: PAGE_SIZE } : skipToken, {
      placeholderData: keepPreviousData,
    }),
  );
  const found = useQuery(
    trpc.transactions.search.queryOptions(
      userId && term ? { userId, term, page, limit: PAGE_SIZE } : skipToken,
      { placeholderData: keepPreviousData },
    ),
  );
  const query = term ? found : listed;
  useLoadFailureToast('transactions-list', 'Could not load transactions', query.error, query.refetch);

  return (
    <>
      <ListPage
        title="Transactions"
        action={
          <Button leftSection={<IconPlus size={18} aria-hidden="true" />} onClick={() => setCreating(true)}>
            Add Transaction
          </Button>
        }
        emptyAction={<Button onClick={() => setCreating(true)}>Create your first transaction</Button>}
        intro={<AttentionStrip />}
        onSearch={search}
      >
        <TransactionsTable
          query={query}
          page={page}
          onPageChange={setPage}
          renderActions={(transaction) => (
            <Button size="xs" variant="light" onClick={() => navigate(routeTo.transaction(transaction._id))}>
              Edit
            </Button>
          )}
        />
      </ListPage>
      <CreateTransactionDialog opened={creating} onClose={() => setCreating(false)} />
    </>
  );
}
