import { Button, Stack, Table, Text } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import { ui } from '../../shared/messages';
import { useListPage } from './ListPage';
import classes from './ListTable.module.css';

type QueryState = { isPending: boolean; isPlaceholderData: boolean; isError: boolean; isFetching: boolean };

/** A first load, a page change, or a retry after a failure: the rows on screen are not the answer. */
export function isListLoading(query: QueryState): boolean {
  return query.isPending || query.isPlaceholderData || (query.isError && query.isFetching);
}

/** The header of a last column that holds each row's buttons, as the pages name it. */
const ACTION_COLUMNS = new Set(['Action', 'Actions']);

/** The card layout labels this many columns; ListTable.module.css has one rule per column. */
export const MAX_LABELLED_COLUMNS = 8;

/**
 * The column headers as CSS strings, one custom property per column, which the phone layout
 * shows before each cell (`--list-label-2` for the second column, ...).
 */
function labelVariables(columns: readonly string[]): CSSProperties {
  return Object.fromEntries(
    columns.slice(0, MAX_LABELLED_COLUMNS).map((column, index) => [
      `--list-label-${index + 1}`,
      // JSON's string escapes (\" and \\) are CSS's too.
      JSON.stringify(column),
    ]),
  ) as CSSProperties;
}

type ListTableProps<Row> = {
  /**
   * The headers. On a phone each row becomes a card: the first column is its title, the others
   * are labelled with their header, and a last 'Action' or 'Actions' column holds its buttons.
   */
  columns: readonly string[];
  /** Below this width a wide screen scrolls the table sideways; a phone shows cards instead. */
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
  /** The table's accessible name, where a page holds several (the dashboard's). */
  label?: string;
};

/**
 * The table of every list page: a header row, then the rows, or one row saying why there are
 * none. Below the `sm` breakpoint the same rows are laid out as cards (ListTable.module.css), so
 * nothing scrolls sideways and every row's buttons are in reach.
 */
export function ListTable<Row>({
  columns,
  minWidth,
  rows,
  renderRow,
  loading,
  failure,
  empty,
  dimmedMessages = false,
  label,
}: ListTableProps<Row>) {
  const message = loading ? ui.loading : (failure ?? (rows?.length ? null : empty));
  const isEmpty = message === empty && !loading && failure === null;
  const withActions = ACTION_COLUMNS.has(columns.at(-1) ?? '');
  return (
    <Table.ScrollContainer
      minWidth={0}
      classNames={{ scrollContainerInner: classes.inner }}
      style={{ '--list-min-width': `${minWidth}px` } as CSSProperties}
    >
      <Table
        striped
        highlightOnHover
        verticalSpacing="sm"
        className={classes.table}
        style={labelVariables(columns)}
        data-with-actions={withActions || undefined}
        aria-label={label}
      >
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
            <Table.Tr className={classes.messageRow}>
              <Table.Td colSpan={columns.length}>
                {isEmpty ? (
                  <EmptyState message={message} dimmed={dimmedMessages} />
                ) : dimmedMessages ? (
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

/**
 * Nothing to show, and a way on: a search that found nothing offers to clear it; the plain list
 * offers the page's first Add, when the viewer may add.
 */
function EmptyState({ message, dimmed }: { message: string; dimmed: boolean }) {
  const { term, clearSearch, emptyAction } = useListPage();
  const next = term ? (
    <Button variant="light" size="xs" onClick={clearSearch}>
      Clear search
    </Button>
  ) : (
    emptyAction
  );
  return (
    <Stack gap="xs" align={dimmed ? 'center' : 'flex-start'} py={next ? 'xs' : 0}>
      <Text size="sm" c={dimmed ? 'dimmed' : undefined} ta={dimmed ? 'center' : undefined}>
        {message}
      </Text>
      {next}
    </Stack>
  );
}
