import { Button, Group, Select, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { keepPreviousData, skipToken, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { PAGE_SIZE } from '../../shared/constants';
import { storedRole } from '../auth/claims';
import { getUserId } from '../auth/session';
import { ListPage } from '../components/ListPage';
import { useViewer } from '../components/offices/scope';
import { AttentionStrip } from '../components/transactions/AttentionStrip';
import { CreateTransactionDialog } from '../components/transactions/CreateTransactionDialog';
import { TransactionsTable } from '../components/transactions/TransactionsTable';
import { useCoordinatedAgents } from '../components/transactions/useCoordinatedAgents';
import { useListSearch } from '../components/useListSearch';
import { useLoadFailureToast } from '../notify';
import { paths, routeTo } from '../paths';
import { useTRPC } from '../trpc';

/** What /home's own list says when it is empty, by whom it shows and what was asked. */
export const emptyHomeText = {
  agent: 'You have no transactions yet.',
  admin:
    "You have opened no transactions yourself: this list shows your own files. Your agents' files are in Admin Transactions.",
  search: (term: string) => `No transactions match "${term}".`,
};

/** The user's transactions list (/home); for an admin, below what waits for the desk. */
export function Home() {
  const trpc = useTRPC();
  const admin = storedRole() === 'admin';
  const userId = getUserId();
  const { page, setPage, term, search } = useListSearch();
  const [creating, setCreating] = useState(false);
  // A coordinator's list holds its agents' files too: it names whose each is and filters by agent.
  const agents = useCoordinatedAgents(useViewer());
  const coordinates = agents.length > 0;
  const [agentId, setAgentId] = useState<string | null>(null);
  const agentFilter = coordinates && agentId ? { agentId } : {};
  const filterByAgent = (value: string | null) => {
    setAgentId(value);
    setPage(1);
  };

  // One of the two runs at a time: an empty term is the plain list, never an empty search.
  // The previous page stays as a placeholder so the pager keeps its count while the next loads.
  const listed = useQuery(
    trpc.transactions.list.queryOptions(
      userId && !term ? { userId, page, limit: PAGE_SIZE, ...agentFilter } : skipToken,
      {
        placeholderData: keepPreviousData,
      },
    ),
  );
  const found = useQuery(
    trpc.transactions.search.queryOptions(
      userId && term ? { userId, term, page, limit: PAGE_SIZE, ...agentFilter } : skipToken,
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
        emptyAction={
          <Group gap="xs" justify="center">
            <Button onClick={() => setCreating(true)}>Create your first transaction</Button>
            {admin && (
              <Button component={Link} href={paths.adminTransactions} variant="default">
                Open Admin Transactions
              </Button>
            )}
          </Group>
        }
        intro={<AttentionStrip />}
        onSearch={search}
      >
        <Stack gap="md">
          {coordinates && (
            <Select
              label="Agent"
              placeholder="All agents"
              w={{ base: '100%', xs: 280 }}
              data={agents}
              value={agentId}
              onChange={filterByAgent}
              clearable
            />
          )}
          <TransactionsTable
            query={query}
            page={page}
            onPageChange={setPage}
            hrefOf={(transaction) => routeTo.transaction(transaction._id)}
            empty={term ? emptyHomeText.search(term) : admin ? emptyHomeText.admin : emptyHomeText.agent}
            ownerColumn={coordinates ? 'Agent' : 'User'}
          />
        </Stack>
      </ListPage>
      <CreateTransactionDialog opened={creating} onClose={() => setCreating(false)} agents={agents} />
    </>
  );
}
