import { useDisclosure } from '@mantine/hooks';
import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PAGE_SIZE } from '../../shared/constants';
import { alerts, toasts } from '../../shared/messages';
import type { LibraryItem } from '../../shared/schemas/libraries';
import { serverMessageOf } from '../api/errors';
import { useIsOwner } from '../auth/useIsOwner';
import { confirmLibraryDelete, isLibraryLoading, LibraryTable } from '../components/LibraryTable';
import { LibraryTutorialModal, type LibraryTutorialValues } from '../components/LibraryTutorialModal';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { useTRPC } from '../trpc';

const LOAD_ERROR_TOAST_ID = 'tutorials-load-error';
const LOAD_ERROR_TEXT = 'The tutorials could not be loaded.';

/** The list or the search, one page of it, in one shape. */
function useTutorialsPage(query: string, page: number) {
  const trpc = useTRPC();
  const list = useQuery({
    ...trpc.libraries.tutorials.list.queryOptions(query ? skipToken : { page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const search = useQuery({
    ...trpc.libraries.tutorials.search.queryOptions(query ? { query, page, limit: PAGE_SIZE } : skipToken),
    placeholderData: keepPreviousData,
  });
  const current = query ? search : list;
  return {
    rows: current.data?.tutorials,
    total: current.data?.total ?? 0,
    loading: isLibraryLoading(current),
    error: current.error,
    refetch: current.refetch,
  };
}

/** The spec has no wording for this one (section 8); it follows its sibling toasts. */
const TUTORIAL_UPDATED = 'Tutorial updated successfully';

type Editing = { mode: 'add' } | { mode: 'update'; item: LibraryItem };

/** The tutorials library (spec section 2, /tutorials): links to tutorials, maintained by the owner. */
export function Tutorials() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isOwner = useIsOwner();

  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const { rows, total, loading, error, refetch } = useTutorialsPage(query, page);

  // DESIGN.md 9.4: a failed load says so and offers a retry instead of failing silently.
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, LOAD_ERROR_TEXT, error, refetch);

  const [opened, modal] = useDisclosure(false);
  // Kept after closing, so the dialog's title and fields stay put while it animates out.
  const [editing, setEditing] = useState<Editing>({ mode: 'add' });

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.libraries.tutorials.pathKey() });

  const create = useMutation(trpc.libraries.tutorials.create.mutationOptions());
  const update = useMutation(trpc.libraries.tutorials.update.mutationOptions());
  const remove = useMutation(trpc.libraries.tutorials.delete.mutationOptions());

  const submit = (input: LibraryTutorialValues) => {
    const options = {
      onSuccess: () => {
        notifySuccess(editing.mode === 'add' ? toasts.tutorialAdded : TUTORIAL_UPDATED);
        modal.close();
      },
      // Spec section 8: an alert; the dialog stays open with what was entered.
      onError: () => window.alert(alerts.tutorialSubmitError),
      onSettled: () => void refresh(),
    };
    if (editing.mode === 'add') create.mutate(input, options);
    else update.mutate({ id: editing.item._id, ...input }, options);
  };

  const confirmDelete = (item: LibraryItem) =>
    confirmLibraryDelete('tutorial', item, () =>
      remove.mutate(
        { id: item._id },
        {
          onSuccess: () => {
            notifySuccess(toasts.tutorialDeleted);
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
        title="Tutorials"
        addLabel="Add Tutorials"
        isOwner={isOwner}
        rows={rows}
        total={total}
        loading={loading}
        loadError={error ? LOAD_ERROR_TEXT : null}
        query={query}
        page={page}
        emptyText="No tutorials yet."
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
      <LibraryTutorialModal
        opened={opened}
        title={editing.mode === 'add' ? 'Add Tutorials' : 'Update Tutorials'}
        initial={editing.mode === 'update' ? editing.item : undefined}
        submitting={create.isPending || update.isPending}
        onSubmit={submit}
        onClose={modal.close}
      />
    </>
  );
}
