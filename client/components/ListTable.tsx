import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ui } from '../../shared/messages';

type QueryState = { isPending: boolean; isPlaceholderData: boolean; isError: boolean; isFetching: boolean };

/** A first load, a page change, or a retry after a failure: the rows on screen are not the answer. */
export function isListLoading(query: QueryState): boolean {
  return query.isPending || query.isPlaceholderData || (query.isError && query.isFetching);
}

type ListTableProps<Row> = {
  columns: readonly string[];
  /** Below this width the table scrolls sideways rather than squeezing its columns. */
  minWidth: number;
  rows: readonly Row[] | undefined;
  /** One <Table.Tr> per row, with its key. */
  renderRow: (row: Row) => ReactNode;
  /** True while the rows on screen are not those asked for: one 'Loading...' row instead. */
  loading: boolean;
  /** The text of the only row when the load failed, or null. */
  failure: string | null;
  /** The text of the only row when there is nothing to show. */
  empty: string;
  /** The transactions lists show their one-row messages centred and dimmed. */
  dimmedMessages?: boolean;
};

/** The table of every list page: a header row, then the rows, or one row saying why there are none. */
export function ListTable<Row>({
  columns,
  minWidth,
  rows,
  renderRow,
  loading,
  failure,
  empty,
  dimmedMessages = false,
}: ListTableProps<Row>) {
  const message = loading ? ui.loading : (failure ?? (rows?.length ? null : empty));
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column}>{column}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody aria-busy={loading}>
          {message === null ? (
            rows?.map(renderRow)
          ) : (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                {dimmedMessages ? (
                  <Text ta="center" c="dimmed" size="sm">
                    {message}
                  </Text>
                ) : (
                  message
                )}
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
