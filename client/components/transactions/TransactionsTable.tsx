import { Anchor, Badge, Button, Group, Progress, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { PAGE_SIZE } from '../../../shared/constants';
import type { TransactionSummary, TransactionsPage } from '../../../shared/schemas/transactions';
import { formatDateTime } from '../../dates';
import { ListTable } from '../ListTable';
import { Pager } from '../Pager';
import { COMPLIANCE_COLOR, COMPLIANCE_LABEL, progressText } from './compliance';
import { deadlineText, shortDay, today } from './key-dates';

/** The columns, the third naming whose file it is ('User', or 'Agent' on a coordinator's list). */
const columnsNaming = (owner: string) =>
  ['Address', 'Date created', owner, 'City', 'Progress', 'Status', 'Dates', 'Action'] as const;

type TransactionsTableProps = {
  /** The list's query or the search's: its page shows, undefined until the first answer. */
  query: {
    data: TransactionsPage | undefined;
    isPending: boolean;
    isPlaceholderData: boolean;
    isError: boolean;
  };
  page: number;
  onPageChange: (page: number) => void;
  /** The address of a row's page: its street address and its Edit are links there. */
  hrefOf: (transaction: TransactionSummary) => string;
  /** The buttons of the Action column beside Edit. */
  renderActions?: (transaction: TransactionSummary) => ReactNode;
  /** What an empty list says: why it is empty, for whoever looks at it. */
  empty?: string;
  /** The header of the column naming whose transaction it is. */
  ownerColumn?: string;
};

/**
 * The transactions table with the pager below it, for /home and the admin list. A row opens
 * through real links (its address and Edit), so a middle-click, Ctrl+click or "Copy link" work
 * as on any page.
 */
export function TransactionsTable({
  query,
  page,
  onPageChange,
  hrefOf,
  renderActions,
  empty = 'No transactions found.',
  ownerColumn = 'User',
}: TransactionsTableProps) {
  const { data } = query;
  return (
    <Stack gap="md">
      <ListTable
        columns={columnsNaming(ownerColumn)}
        minWidth={1000}
        rows={data?.transactions}
        // The rows on screen are not those of the page asked for (a retry keeps its failure row).
        loading={query.isPending || query.isPlaceholderData}
        failure={query.isError || !data ? 'Transactions could not be loaded.' : null}
        empty={empty}
        dimmedMessages
        renderRow={(transaction) => (
          <Table.Tr key={transaction._id}>
            <Table.Td>
              <Anchor component={Link} href={hrefOf(transaction)} size="sm" c="inherit" underline="always">
                {transaction.streetAddress}
              </Anchor>
            </Table.Td>
            <Table.Td>{formatDateTime(transaction.createdAt)}</Table.Td>
            <Table.Td>
              {transaction.user.firstName} {transaction.user.lastName}
            </Table.Td>
            <Table.Td>{transaction.city}</Table.Td>
            <Table.Td>
              <ProgressCell transaction={transaction} />
            </Table.Td>
            <Table.Td>
              <Badge
                color={COMPLIANCE_COLOR[transaction.status]}
                variant="light"
                tt="none"
                data-testid="transaction-status"
              >
                {COMPLIANCE_LABEL[transaction.status]}
              </Badge>
            </Table.Td>
            <Table.Td>
              <DatesCell transaction={transaction} />
            </Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <Button component={Link} href={hrefOf(transaction)} size="xs" variant="light">
                  Edit
                </Button>
                {renderActions?.(transaction)}
              </Group>
            </Table.Td>
          </Table.Tr>
        )}
      />
      <Pager page={page} pageSize={PAGE_SIZE} total={data?.totalTransactions} onChange={onPageChange} />
    </Stack>
  );
}

/** The required documents accepted or waived: a bar, "5/8" and the percent. */
function ProgressCell({ transaction }: { transaction: TransactionSummary }) {
  const { progress } = transaction;
  const text = progressText(progress);
  return (
    <Group gap="xs" wrap="nowrap">
      <Progress
        value={progress.percent}
        w={64}
        color={transaction.compliant ? 'green' : 'blue'}
        aria-label={`Required documents accepted: ${text}`}
      />
      <Text size="xs" style={{ whiteSpace: 'nowrap' }}>
        {text} · {progress.percent}%
      </Text>
    </Group>
  );
}

/**
 * The closing day, the overdue date (red) and the next deadline, one line each.
 * The next deadline is left out when it is the closing itself.
 */
function DatesCell({ transaction }: { transaction: TransactionSummary }) {
  const { closingDate, nextDeadline, overdue } = transaction;
  const reference = today();
  const nextIsClosing = nextDeadline?.kind === 'closing' && nextDeadline.date === closingDate;
  if (!closingDate && !nextDeadline && !overdue) {
    return (
      <Text size="xs" c="dimmed">
        No dates
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      {closingDate && (
        <Text size="xs" style={{ whiteSpace: 'nowrap' }} data-testid="closing-date">
          Closing {shortDay(closingDate, reference)}
        </Text>
      )}
      {overdue && (
        <Text size="xs" c="red.9" fw={600} data-testid="overdue-date">
          Overdue: {deadlineText(overdue, reference)}
        </Text>
      )}
      {nextDeadline && !nextIsClosing && (
        <Text size="xs" data-testid="next-deadline">
          {deadlineText(nextDeadline, reference)}
        </Text>
      )}
    </Stack>
  );
}
