import { useDisclosure } from '@mantine/hooks';
import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PAGE_SIZE } from '../../shared/constants';
import { toasts } from '../../shared/messages';
import type { LibraryItem } from '../../shared/schemas/libraries';
import { serverMessageOf } from '../api/errors';
import { useIsOwner } from '../auth/useIsOwner';
import { LibraryFormModal, type LibraryFormValues } from '../components/LibraryFormModal';
import { confirmLibraryDelete, isLibraryLoading, LibraryTable } from '../components/LibraryTable';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { useTRPC } from '../trpc';

const LOAD_ERROR_TOAST_ID = 'forms-load-error';
const LOAD_ERROR_TEXT = 'The forms could not be loaded.';

/** The list or the search, one page of it, in one shape. */
function useFormsPage(query: string, page: number) {
  const trpc = useTRPC();
  const list = useQuery({
    ...trpc.libraries.forms.list.queryOptions(query ? skipToken : { page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const search = useQuery({
    ...trpc.libraries.forms.search.queryOptions(query ? { query, page, limit: PAGE_SIZE } : skipToken),
    placeholderData: keepPreviousData,
  });
  const current = query ? search : list;
  return {
    rows: current.data?.forms,
    total: current.data?.total ?? 0,
    loading: isLibraryLoading(current),
    error: current.error,
    refetch: current.refetch,
  };
}

type Editing = { mode: 'add' } | { mode: 'update'; item: LibraryItem };

/** The forms library (spec section 2, /forms): downloadable forms, maintained by the owner. */
export function Forms() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isOwner = useIsOwner();

  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const { rows, total, loading, error, refetch } = useFormsPage(query, page);

  // DESIGN.md 9.4: a failed load says so and offers a retry instead of failing silently.
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, LOAD_ERROR_TEXT, error, refetch);

  const [opened, modal] = useDisclosure(false);
  // Kept after closing, so the dialog's title and fields stay put while it animates out.
  const [editing, setEditing] = useState<Editing>({ mode: 'add' });

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.libraries.forms.pathKey() });

  const create = useMutation(trpc.libraries.forms.create.mutationOptions());
  const update = useMutation(trpc.libraries.forms.update.mutationOptions());
  const remove = useMutation(trpc.libraries.forms.delete.mutationOptions());

  const submit = (input: LibraryFormValues) => {
    const options = {
      onSuccess: () => {
        notifySuccess(editing.mode === 'add' ? toasts.formAdded : toasts.formUpdated);
        modal.close();
      },
      // The dialog stays open with what was entered, so the owner can try again.
      onError: (failure: unknown) => notifyError(serverMessageOf(failure)),
      onSettled: () => void refresh(),
    };
    if (editing.mode === 'add') create.mutate(input, options);
    else update.mutate({ id: editing.item._id, ...input }, options);
  };

  const confirmDelete = (item: LibraryItem) =>
    confirmLibraryDelete('form', item, () =>
      remove.mutate(
        { id: item._id },
        {
          onSuccess: () => {
            notifySuccess(toasts.formDeleted);
            // The last row of a later page is gone: show the page before it.
            if (rows?.length === 1 && page > 1) setPage(page - 1);
          },
          onError: (failure) => notifyError(serverMessageOf(failure)),
          onSettled: () => void refresh(),
        },
      ),
    );

  return (
    <>
      <LibraryTable
        title="Forms"
        addLabel="Add Forms"
        isOwner={isOwner}
        rows={rows}
        total={total}
        loading={loading}
        loadError={error ? LOAD_ERROR_TEXT : null}
        query={query}
        page={page}
        emptyText="No forms yet."
        onPageChange={setPage}
        onSearch={(term) => {
          // Spec section 4: a search starts at page 1; an empty one reloads the plain list.
          setQuery(term);
          setPage(1);
        }}
        onAdd={() => {
          setEditing({ mode: 'add' });
          modal.open();
        }}
        onUpdate={(item) => {
          setEditing({ mode: 'update', item });
          modal.open();
        }}
        onDelete={confirmDelete}
      />
      <LibraryFormModal
        opened={opened}
        title={editing.mode === 'add' ? 'Add Forms' : 'Update Forms'}
        initial={editing.mode === 'update' ? editing.item : undefined}
        submitting={create.isPending || update.isPending}
        onSubmit={submit}
        onClose={modal.close}
      />
    </>
  );
}
