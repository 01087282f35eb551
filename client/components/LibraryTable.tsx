import { Anchor, Button, Container, Group, Stack, Table, Text, Title } from '@mantine/core';
import { openConfirmModal } from '@mantine/modals';
import { PAGE_SIZE } from '../../shared/constants';
import { ui } from '../../shared/messages';
import type { LibraryItem } from '../../shared/schemas/libraries';
import { Pager } from './Pager';
import { QuickSearch } from './QuickSearch';

/**
 * The layout both libraries share (spec section 2): a heading, the owner's add button, a quick
 * search, a table of name and 'Open' link paged by 10, and the owner's Update and Delete per row.
 * The pages own the data and the dialogs; this component only shows them.
 */

type QueryState = { isPending: boolean; isPlaceholderData: boolean; isError: boolean; isFetching: boolean };

/** A first load, a page change, or a retry after a failure: the rows on screen are not the answer. */
export function isLibraryLoading(query: QueryState): boolean {
  return query.isPending || query.isPlaceholderData || (query.isError && query.isFetching);
}

/** The spec's delete confirmation, before any library item is removed. */
export function confirmLibraryDelete(what: string, item: LibraryItem, onConfirm: () => void): void {
  openConfirmModal({
    title: `Delete ${what}`,
    children: <Text size="sm">Delete "{item.name}"? This cannot be undone.</Text>,
    labels: { confirm: 'Delete', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}

type LibraryTableProps = {
  title: string;
  addLabel: string;
  isOwner: boolean;
  rows: LibraryItem[] | undefined;
  total: number;
  loading: boolean;
  /** The text of the table's only row when the load failed, or null. */
  loadError: string | null;
  /** The search in force (trimmed), for the empty-result text. */
  query: string;
  page: number;
  emptyText: string;
  onPageChange: (page: number) => void;
  /** A new search, already trimmed; an empty one means the plain list. */
  onSearch: (query: string) => void;
  onAdd: () => void;
  onUpdate: (item: LibraryItem) => void;
  onDelete: (item: LibraryItem) => void;
};

export function LibraryTable({
  title,
  addLabel,
  isOwner,
  rows,
  total,
  loading,
  loadError,
  query,
  page,
  emptyText,
  onPageChange,
  onSearch,
  onAdd,
  onUpdate,
  onDelete,
}: LibraryTableProps) {
  const columns = isOwner ? ['Name', 'Link', 'Actions'] : ['Name', 'Link'];

  // Spec sections 4 and 5: the term is trimmed; a search starts at page 1 (the page resets it).
  const runSearch = (text: string) => onSearch(text.trim());

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap">
          <Title order={1}>{title}</Title>
          {isOwner && <Button onClick={onAdd}>{addLabel}</Button>}
        </Group>

        <QuickSearch onSearch={runSearch} />

        <Table.ScrollContainer minWidth={480}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column}>{column}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {loading ? (
                <Table.Tr>
                  <Table.Td colSpan={columns.length}>{ui.loading}</Table.Td>
                </Table.Tr>
              ) : loadError ? (
                <Table.Tr>
                  <Table.Td colSpan={columns.length}>{loadError}</Table.Td>
                </Table.Tr>
              ) : rows?.length ? (
                rows.map((item) => (
                  <Table.Tr key={item._id}>
                    <Table.Td>{item.name}</Table.Td>
                    <Table.Td>
                      <Anchor href={item.link} target="_blank" rel="noopener noreferrer">
                        Open
                      </Anchor>
                    </Table.Td>
                    {isOwner && (
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Button size="xs" variant="light" onClick={() => onUpdate(item)}>
                            Update
                          </Button>
                          <Button size="xs" variant="light" color="red" onClick={() => onDelete(item)}>
                            Delete
                          </Button>
                        </Group>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))
              ) : (
                <Table.Tr>
                  <Table.Td colSpan={columns.length}>
                    {query ? `No results for "${query}".` : emptyText}
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>

        <Pager page={page} pageSize={PAGE_SIZE} total={total} onChange={onPageChange} />
      </Stack>
    </Container>
  );
}
