import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PAGE_SIZE, TEMPLATE_PREVIEW_DOCUMENTS } from '../../shared/constants';
import { toasts, ui } from '../../shared/messages';
import type { ApiIssue } from '../../shared/schemas/common';
import type { Template, TemplateInput } from '../../shared/schemas/templates';
import { answeredMessageOr, issuesOf, serverMessageOf } from '../api/errors';
import { confirmDelete } from '../components/confirm-delete';
import { ListPage } from '../components/ListPage';
import { isListLoading, ListTable } from '../components/ListTable';
import { useIsOwner } from '../components/offices/scope';
import { Pager } from '../components/Pager';
import { TemplateDocumentsModal } from '../components/TemplateDocumentsModal';
import { TemplateFormModal } from '../components/TemplateFormModal';
import { documentsOf, type TemplateDocument } from '../components/template-rules/documents';
import { useListSearch } from '../components/useListSearch';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { useTRPC } from '../trpc';

const COLUMNS = ['Type', 'Role', 'Documents', 'Actions'];
const LOAD_ERROR_TOAST_ID = 'templates-load-error';
const LOAD_ERROR_TEXT = 'The templates could not be loaded.';

/** The list or the search, one page of it, in one shape. */
function useTemplatesPage(term: string, page: number) {
  const trpc = useTRPC();
  // Both share the keep-previous behaviour so the pager keeps its numbers between pages.
  const list = useQuery({
    ...trpc.templates.list.queryOptions(term ? skipToken : { page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const search = useQuery({
    ...trpc.templates.search.queryOptions(term ? { query: term, page, limit: PAGE_SIZE } : skipToken),
    placeholderData: keepPreviousData,
  });
  const current = term ? search : list;
  return {
    rows: term ? search.data?.forms : list.data?.data,
    total: term ? search.data?.total : list.data?.totalItems,
    loading: isListLoading(current),
    error: current.error,
    refetch: current.refetch,
  };
}

type Editing = { mode: 'add' } | { mode: 'update'; template: Template };

/** The required documents per transaction type and role, for admins. */
export function Templates() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isOwner = useIsOwner();

  // A search starts at page 1; an empty one reloads the plain list.
  const { page, setPage, term, search } = useListSearch();
  const { rows, total, loading, error, refetch } = useTemplatesPage(term, page);

  // A failed load says so and offers a retry instead of failing silently.
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, LOAD_ERROR_TEXT, error, refetch);

  const [documentsOpened, documentsModal] = useDisclosure(false);
  const [shownDocuments, setShownDocuments] = useState<TemplateDocument[]>([]);
  const [formOpened, formModal] = useDisclosure(false);
  // Kept after closing, so the dialog's title and fields stay put while it animates out.
  const [editing, setEditing] = useState<Editing>({ mode: 'add' });
  // What the server refused of a conditional document: shown on its field, the dialog left open.
  const [refused, setRefused] = useState<ApiIssue[] | undefined>(undefined);

  const refreshTemplates = () => queryClient.invalidateQueries({ queryKey: trpc.templates.pathKey() });

  const create = useMutation(trpc.templates.create.mutationOptions());
  const update = useMutation(trpc.templates.update.mutationOptions());
  const remove = useMutation(trpc.templates.delete.mutationOptions());

  const submitTemplate = (input: TemplateInput) => {
    setRefused(undefined);
    // A refused conditional document keeps the dialog open, its message on the field it names;
    // any other outcome closes the dialog and a toast tells it.
    const keptOpen = (failure: unknown) => {
      const issues = issuesOf(failure).filter((issue) => issue.path.startsWith('conditionalForms'));
      if (issues.length) setRefused(issues);
      return issues.length > 0;
    };
    const settled = (failure: unknown) => {
      if (!failure || !keptOpen(failure)) formModal.close();
      void refreshTemplates();
    };
    if (editing.mode === 'add') {
      create.mutate(input, {
        onSuccess: () => notifySuccess(toasts.documentAdded),
        onError: (failure) => notifyError(serverMessageOf(failure)),
        onSettled: (_data, failure) => settled(failure),
      });
    } else {
      update.mutate(
        { id: editing.template._id, ...input },
        {
          onSuccess: () => notifySuccess(toasts.documentUpdated),
          onError: (failure) => notifyError(answeredMessageOr(failure, toasts.somethingWentWrong)),
          onSettled: (_data, failure) => settled(failure),
        },
      );
    }
  };

  const confirmRemove = (template: Template) =>
    confirmDelete(
      'Delete template',
      <>
        Delete the checklist of {template.type} / {template.role}? New transactions of this type and role will
        have no required documents.
      </>,
      () =>
        remove.mutate(
          { id: template._id },
          {
            onSuccess: () => {
              notifySuccess(toasts.templateDeleted);
              // The last row of a later page is gone: show the page before it.
              if (rows?.length === 1 && page > 1) setPage(page - 1);
            },
            onError: (failure) => notifyError(serverMessageOf(failure)),
            onSettled: () => void refreshTemplates(),
          },
        ),
    );

  const openAdd = () => {
    setRefused(undefined);
    setEditing({ mode: 'add' });
    formModal.open();
  };
  const openUpdate = (template: Template) => {
    setRefused(undefined);
    setEditing({ mode: 'update', template });
    formModal.open();
  };
  const openDocuments = (template: Template) => {
    setShownDocuments(documentsOf(template));
    documentsModal.open();
  };

  return (
    <>
      <ListPage
        title="Transactions Forms"
        action={isOwner && <Button onClick={openAdd}>Add Transactions Forms</Button>}
        emptyAction={isOwner && <Button onClick={openAdd}>Add the first checklist</Button>}
        onSearch={search}
      >
        <ListTable
          columns={COLUMNS}
          minWidth={640}
          rows={rows}
          loading={loading}
          failure={error ? LOAD_ERROR_TEXT : null}
          empty={term ? `No templates match "${term}".` : 'No templates yet.'}
          renderRow={(template) => (
            <TemplateRow
              key={template._id}
              template={template}
              onSeeMore={() => openDocuments(template)}
              onUpdate={() => openUpdate(template)}
              onDelete={() => confirmRemove(template)}
            />
          )}
        />
        <Pager page={page} pageSize={PAGE_SIZE} total={total} onChange={setPage} />
      </ListPage>

      <TemplateDocumentsModal
        opened={documentsOpened}
        documents={shownDocuments}
        onClose={documentsModal.close}
      />
      <TemplateFormModal
        opened={formOpened}
        title={editing.mode === 'add' ? 'Add Transactions Forms' : 'Update Transactions Forms'}
        initial={editing.mode === 'update' ? editing.template : undefined}
        submitting={create.isPending || update.isPending}
        issues={refused}
        onSubmit={submitTemplate}
        onClose={formModal.close}
      />
    </>
  );
}

type TemplateRowProps = {
  template: Template;
  onSeeMore: () => void;
  onUpdate: () => void;
  onDelete: () => void;
};

function TemplateRow({ template, onSeeMore, onUpdate, onDelete }: TemplateRowProps) {
  // The required documents first, then the optional and the conditional ones, marked so.
  const documents = documentsOf(template);
  const preview = documents.slice(0, TEMPLATE_PREVIEW_DOCUMENTS);
  return (
    <Table.Tr>
      <Table.Td>{template.type}</Table.Td>
      <Table.Td>{template.role}</Table.Td>
      <Table.Td>
        <Stack gap={4} align="flex-start">
          {preview.map(({ name, rule }, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: names may repeat; the preview is static
            <div key={index}>
              <Text size="sm">{name}</Text>
              {rule && (
                <Text size="xs" c="dimmed">
                  {rule}
                </Text>
              )}
            </div>
          ))}
          {documents.length > TEMPLATE_PREVIEW_DOCUMENTS && (
            <Button variant="subtle" size="compact-xs" px={0} onClick={onSeeMore}>
              {ui.seeMore}
            </Button>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="light" onClick={onUpdate}>
            Update
          </Button>
          <Button size="xs" variant="light" color="red" onClick={onDelete}>
            Delete
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
