import { Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { PAGE_SIZE } from '../../../shared/constants';
import { ui } from '../../../shared/messages';
import type { TransactionSummary, TransactionsPage } from '../../../shared/schemas/transactions';
import { formatDateTime } from '../../dates';
import { Pager } from '../Pager';

const COLUMNS = ['Address', 'Date created', 'User', 'City', 'Action'] as const;

type TransactionsTableProps = {
  /** The page shown; undefined until the first answer. */
  data: TransactionsPage | undefined;
  /** True while the rows on screen are not those of the page asked for. */
  loading: boolean;
  failed: boolean;
  page: number;
  onPageChange: (page: number) => void;
  /** The buttons of the Action column. */
  renderActions: (transaction: TransactionSummary) => ReactNode;
};

function MessageRow({ children }: { children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={COLUMNS.length}>
        <Text ta="center" c="dimmed" size="sm">
          {children}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** The transactions table of spec section 2 with the pager below it, for /home and the admin list. */
export function TransactionsTable({
  data,
  loading,
  failed,
  page,
  onPageChange,
  renderActions,
}: TransactionsTableProps) {
  let body: ReactNode;
  if (loading) body = <MessageRow>{ui.loading}</MessageRow>;
  else if (failed || !data) body = <MessageRow>Transactions could not be loaded.</MessageRow>;
  else if (data.transactions.length === 0) body = <MessageRow>No transactions found.</MessageRow>;
  else {
    body = data.transactions.map((transaction) => (
      <Table.Tr key={transaction._id}>
        <Table.Td>{transaction.streetAddress}</Table.Td>
        <Table.Td>{formatDateTime(transaction.createdAt)}</Table.Td>
        <Table.Td>
          {transaction.user.firstName} {transaction.user.lastName}
        </Table.Td>
        <Table.Td>{transaction.city}</Table.Td>
        <Table.Td>{renderActions(transaction)}</Table.Td>
      </Table.Tr>
    ));
  }

  return (
    <Stack gap="md">
      <Table.ScrollContainer minWidth={640}>
        <Table striped highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              {COLUMNS.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody aria-busy={loading}>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Pager page={page} pageSize={PAGE_SIZE} total={data?.totalTransactions ?? 0} onChange={onPageChange} />
    </Stack>
  );
}
