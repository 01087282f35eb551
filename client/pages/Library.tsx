import { Anchor, Button, Group, Table } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  keepPreviousData,
  type SkipToken,
  skipToken,
  type UseQueryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { TRPCClientErrorLike } from '@trpc/client';
import type { TRPCQueryKeyWithoutPrefix } from '@trpc/tanstack-react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type { AppRouter } from '../../server/trpc/router';
import { PAGE_SIZE } from '../../shared/constants';
import { alerts, toasts } from '../../shared/messages';
import type { formsPage, LibraryItem, tutorialsPage } from '../../shared/schemas/libraries';
import { serverMessageOf } from '../api/errors';
import { confirmDelete } from '../components/confirm-delete';
import {
  LibraryItemModal,
  type LibraryItemValues,
  type LibraryLinkField,
} from '../components/LibraryItemModal';
import { ListPage } from '../components/ListPage';
import { isListLoading, ListTable } from '../components/ListTable';
import { useIsOwner } from '../components/offices/scope';
import { Pager } from '../components/Pager';
import { useListSearch } from '../components/useListSearch';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { useTRPC } from '../trpc';

type Trpc = ReturnType<typeof useTRPC>;
type PageInput = { page: number; limit: number };
type SearchInput = PageInput & { query: string };
type PageQueryOptions<TPage> = UseQueryOptions<
  TPage,
  TRPCClientErrorLike<AppRouter>,
  TPage,
  TRPCQueryKeyWithoutPrefix
>;

/** What sets the forms library and the tutorials library apart. */
type LibraryKind<TPage> = {
  /** Its procedures, under `trpc.libraries`. */
  router: 'forms' | 'tutorials';
  /**
   * Its list and search, and the rows of their pages. The two routers name the rows differently
   * (`forms`, `tutorials`), so TypeScript cannot call their queries through a union of the two.
   */
  listOptions: (trpc: Trpc, input: PageInput | SkipToken) => PageQueryOptions<TPage>;
  searchOptions: (trpc: Trpc, input: SearchInput | SkipToken) => PageQueryOptions<TPage>;
  rowsOf: (page: TPage) => LibraryItem[];
  linkField: LibraryLinkField;
  title: string;
  /** The Add button's label, which is also the add dialog's title. */
  addLabel: string;
  updateTitle: string;
  emptyText: string;
  loadError: { toastId: string; text: string };
  /** The item as the delete confirmation's title names it. */
  itemName: string;
  toasts: { added: string; updated: string; deleted: string };
  /** Says why a save failed; the dialog stays open with what was entered, for another try. */
  reportSaveFailure: (failure: unknown) => void;
};

type FormsPage = z.infer<typeof formsPage>;
type TutorialsPage = z.infer<typeof tutorialsPage>;

const FORMS_LIBRARY: LibraryKind<FormsPage> = {
  router: 'forms',
  listOptions: (trpc, input) => trpc.libraries.forms.list.queryOptions(input),
  searchOptions: (trpc, input) => trpc.libraries.forms.search.queryOptions(input),
  rowsOf: (page) => page.forms,
  linkField: 'file',
  title: 'Forms',
  addLabel: 'Add Forms',
  updateTitle: 'Update Forms',
  emptyText: 'No forms yet.',
  loadError: { toastId: 'forms-load-error', text: 'The forms could not be loaded.' },
  itemName: 'form',
  toasts: { added: toasts.formAdded, updated: toasts.formUpdated, deleted: toasts.formDeleted },
  reportSaveFailure: (failure) => notifyError(serverMessageOf(failure)),
};

const TUTORIALS_LIBRARY: LibraryKind<TutorialsPage> = {
  router: 'tutorials',
  listOptions: (trpc, input) => trpc.libraries.tutorials.list.queryOptions(input),
  searchOptions: (trpc, input) => trpc.libraries.tutorials.search.queryOptions(input),
  rowsOf: (page) => page.tutorials,
  linkField: 'url',
  title: 'Tutorials',
  addLabel: 'Add Tutorials',
  updateTitle: 'Update Tutorials',
  emptyText: 'No tutorials yet.',
  loadError: { toastId: 'tutorials-load-error', text: 'The tutorials could not be loaded.' },
  itemName: 'tutorial',
  // The product has no wording for the update; it follows its sibling toasts.
  toasts: {
    added: toasts.tutorialAdded,
    updated: 'Tutorial updated successfully',
    deleted: toasts.tutorialDeleted,
  },
  // A failed save of a tutorial is an alert, not a toast.
  reportSaveFailure: () => window.alert(alerts.tutorialSubmitError),
};

/** The forms library (/forms): downloadable forms, maintained by the owner. */
export function Forms() {
  return <Library kind={FORMS_LIBRARY} />;
}

/** The tutorials library (/tutorials): links to tutorials, maintained by the owner. */
export function Tutorials() {
  return <Library kind={TUTORIALS_LIBRARY} />;
}

/** The list or the search, one page of it, in one shape. */
function useLibraryPage<TPage extends { total: number }>(
  kind: LibraryKind<TPage>,
  term: string,
  page: number,
) {
  const trpc = useTRPC();
  // Both keep the previous page on screen so the pager keeps its numbers between pages.
  const list = useQuery({
    ...kind.listOptions(trpc, term ? skipToken : { page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const search = useQuery({
    ...kind.searchOptions(trpc, term ? { query: term, page, limit: PAGE_SIZE } : skipToken),
    placeholderData: keepPreviousData,
  });
  const current = term ? search : list;
  return {
    rows: current.data && kind.rowsOf(current.data),
    total: current.data?.total,
    loading: isListLoading(current),
    error: current.error,
    refetch: current.refetch,
  };
}

type Editing = { mode: 'add' } | { mode: 'update'; item: LibraryItem };

/**
 * A library: a table of names and 'Open' links paged by 10, with a quick search;
 * the owner also adds, updates and deletes.
 */
function Library<TPage extends { total: number }>({ kind }: { kind: LibraryKind<TPage> }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isOwner = useIsOwner();

  // A search starts at page 1; an empty one reloads the plain list.
  const { page, setPage, term, search } = useListSearch();
  const { rows, total, loading, error, refetch } = useLibraryPage(kind, term, page);

  // A failed load says so and offers a retry instead of failing silently.
  useLoadFailureToast(kind.loadError.toastId, kind.loadError.text, error, refetch);

  const [opened, modal] = useDisclosure(false);
  // Kept after closing, so the dialog's title and fields stay put while it animates out.
  const [editing, setEditing] = useState<Editing>({ mode: 'add' });
  const openDialog = (next: Editing) => {
    setEditing(next);
    modal.open();
  };

  const procedures = trpc.libraries[kind.router];
  const refresh = () => queryClient.invalidateQueries({ queryKey: procedures.pathKey() });

  const create = useMutation(procedures.create.mutationOptions());
  const update = useMutation(procedures.update.mutationOptions());
  const remove = useMutation(procedures.delete.mutationOptions());

  const submit = (input: LibraryItemValues) => {
    const options = {
      onSuccess: () => {
        notifySuccess(editing.mode === 'add' ? kind.toasts.added : kind.toasts.updated);
        modal.close();
      },
      onError: kind.reportSaveFailure,
      onSettled: () => void refresh(),
    };
    if (editing.mode === 'add') create.mutate(input, options);
    else update.mutate({ id: editing.item._id, ...input }, options);
  };

  const confirmRemove = (item: LibraryItem) =>
    confirmDelete(`Delete ${kind.itemName}`, `Delete "${item.name}"? This cannot be undone.`, () =>
      remove.mutate(
        { id: item._id },
        {
          onSuccess: () => {
            notifySuccess(kind.toasts.deleted);
            // The last row of a later page is gone: show the page before it.
            if (rows?.length === 1 && page > 1) setPage(page - 1);
          },
          onError: (failure) => notifyError(serverMessageOf(failure)),
          onSettled: () => void refresh(),
        },
      ),
    );

  const columns = isOwner ? ['Name', 'Link', 'Actions'] : ['Name', 'Link'];

  return (
    <>
      <ListPage
        title={kind.title}
        action={isOwner && <Button onClick={() => openDialog({ mode: 'add' })}>{kind.addLabel}</Button>}
        emptyAction={
          isOwner && (
            <Button onClick={() => openDialog({ mode: 'add' })}>Add the first {kind.itemName}</Button>
          )
        }
        onSearch={search}
      >
        <ListTable
          columns={columns}
          minWidth={480}
          rows={rows}
          loading={loading}
          failure={error ? kind.loadError.text : null}
          empty={term ? `No results for "${term}".` : kind.emptyText}
          renderRow={(item) => (
            <Table.Tr key={item._id}>
              <Table.Td>{item.name}</Table.Td>
              <Table.Td>
                {/* Named by the item: a screen reader's list of links is not twenty 'Open's. */}
                <Anchor
                  href={item.link}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`Open ${item.name}`}
                >
                  Open
                </Anchor>
              </Table.Td>
              {isOwner && (
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="light" onClick={() => openDialog({ mode: 'update', item })}>
                      Update
                    </Button>
                    <Button size="xs" variant="light" color="red" onClick={() => confirmRemove(item)}>
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          )}
        />
        <Pager page={page} pageSize={PAGE_SIZE} total={total} onChange={setPage} />
      </ListPage>
      <LibraryItemModal
        linkField={kind.linkField}
        opened={opened}
        title={editing.mode === 'add' ? kind.addLabel : kind.updateTitle}
        initial={editing.mode === 'update' ? editing.item : undefined}
        submitting={create.isPending || update.isPending}
        onSubmit={submit}
        onClose={modal.close}
      />
    </>
  );
}
