import { Button, Checkbox, Container, Group, Stack, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { PAGE_SIZE } from '../../shared/constants';
import type { ReviewQueueItem } from '../../shared/schemas/compliance';
import { serverMessageOf } from '../api/errors';
import { ExportButton, exportPath } from '../components/ExportButton';
import { isListLoading, ListTable } from '../components/ListTable';
import {
  OfficeFilter,
  officeInput,
  useOfficeFilterChoices,
  useOfficeParam,
} from '../components/offices/scope';
import { Pager } from '../components/Pager';
import { QueueFilters } from '../components/review/QueueFilters';
import { QueueRow } from '../components/review/QueueRow';
import { ReviewPanel } from '../components/review/ReviewPanel';
import { useReviewMode } from '../components/review/useReviewMode';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { paths } from '../paths';
import { useTRPC } from '../trpc';

const COLUMNS = ['Document', 'Transaction', 'Agent', 'Type', 'Waiting', 'Actions'];
const LOAD_ERROR_TOAST_ID = 'review-queue-load-error';
const LOAD_ERROR_TEXT = 'The review queue could not be loaded.';
export const EMPTY_QUEUE = 'Nothing is waiting for review.';

export const bulkAcceptedToast = (count: number) =>
  count === 1 ? '1 document accepted' : `${count} documents accepted`;

type Selection = { transactionId: string; formId: string; version: number };

/** The compliance desk's queue (/admin/review): every upload and waiver to decide. */
export function ReviewQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [type, setType] = useState<string | null>(null);
  const [agentId, setAgentId] = useState<string | null>(null);
  const [selected, setSelected] = useState<Record<string, Selection>>({});
  // A brokerage-wide admin's office filter, in the address; '' is every office.
  const offices = useOfficeFilterChoices();
  const [officeId, setOfficeId] = useOfficeParam();

  const list = useQuery({
    ...trpc.reviewQueue.list.queryOptions({
      page,
      limit: PAGE_SIZE,
      ...(type ? { type } : {}),
      ...(agentId ? { agentId } : {}),
      ...officeInput(officeId),
    }),
    placeholderData: keepPreviousData,
  });
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, LOAD_ERROR_TEXT, list.error, list.refetch);

  const items = list.data?.items;
  const totalPages = list.data?.totalPages ?? 1;
  const totalItems = list.data?.totalItems ?? 0;
  const settled = items !== undefined && !list.isPlaceholderData;

  const review = useReviewMode({
    items,
    settled,
    page,
    totalPages,
    pageSize: PAGE_SIZE,
    setPage,
    refetch: async () => {
      const [fresh] = await Promise.all([
        list.refetch(),
        queryClient.invalidateQueries(trpc.adminTransactions.get.pathFilter()),
      ]);
      return fresh.data;
    },
    // A decided document is no longer there to accept in bulk.
    onLeave: ({ form }) => {
      if (form._id in selected) setSelected(({ [form._id]: _decided, ...rest }) => rest);
    },
  });

  const refilter = (apply: () => void) => {
    apply();
    setPage(1);
    setSelected({});
  };

  const bulkAccept = useMutation(trpc.reviewQueue.bulkAccept.mutationOptions());
  const chosen = Object.values(selected);
  const acceptSelected = () => {
    bulkAccept.mutate(
      { items: chosen },
      {
        onSuccess: ({ reviewed }) => {
          notifySuccess(bulkAcceptedToast(reviewed));
          setSelected({});
        },
        onError: (failure) => notifyError(serverMessageOf(failure)),
        onSettled: () => refresh(),
      },
    );
  };

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.reviewQueue.list.pathFilter()),
      queryClient.invalidateQueries(trpc.adminTransactions.get.pathFilter()),
      queryClient.invalidateQueries(trpc.transactions.versions.pathFilter()),
    ]);

  const toggle = (item: ReviewQueueItem, on: boolean) =>
    setSelected((current) => {
      const next = { ...current };
      if (on)
        next[item.form._id] = {
          transactionId: item.transaction._id,
          formId: item.form._id,
          version: item.form.version,
        };
      else delete next[item.form._id];
      return next;
    });

  // Waivers are decided one at a time: only documents can be selected.
  const documents = settled ? items.filter((item) => item.kind === 'document') : [];
  const allChosen = documents.length > 0 && documents.every((item) => item.form._id in selected);

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap">
          <Title order={1}>Review Queue</Title>
          <Group gap="xs" wrap="wrap">
            <ExportButton
              path={exportPath('/api/admin/review-queue.csv', { type, agentId, ...officeInput(officeId) })}
              filename="review-queue.csv"
            />
            <Button component={Link} href={paths.rejectionReasons} variant="default">
              Rejection reasons
            </Button>
            <Button disabled={chosen.length === 0} loading={bulkAccept.isPending} onClick={acceptSelected}>
              Accept selected ({chosen.length})
            </Button>
          </Group>
        </Group>
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Group gap="sm" wrap="wrap" align="flex-end">
            <QueueFilters
              type={type}
              agentId={agentId}
              onType={(value) => refilter(() => setType(value))}
              onAgent={(value) => refilter(() => setAgentId(value))}
            />
            <OfficeFilter
              offices={offices}
              value={officeId}
              onChange={(value) => refilter(() => setOfficeId(value))}
            />
          </Group>
          {documents.length > 0 && (
            <Checkbox
              label="Select all documents on this page"
              checked={allChosen}
              indeterminate={!allChosen && documents.some((item) => item.form._id in selected)}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                for (const item of documents) toggle(item, on);
              }}
            />
          )}
        </Group>
        <ListTable
          columns={COLUMNS}
          minWidth={900}
          rows={items}
          loading={isListLoading(list)}
          failure={list.error ? LOAD_ERROR_TEXT : null}
          empty={EMPTY_QUEUE}
          renderRow={(item) => (
            <QueueRow
              key={`${item.kind}:${item.form._id}`}
              item={item}
              selected={item.form._id in selected}
              onSelect={(on) => toggle(item, on)}
              onReview={() => review.open(item)}
            />
          )}
        />
        <Pager page={page} pageSize={PAGE_SIZE} total={list.data?.totalItems} onChange={setPage} />
      </Stack>
      <ReviewPanel
        opened={review.opened}
        item={review.item}
        position={review.position}
        total={totalItems}
        hasNext={review.hasNext}
        hasPrevious={review.hasPrevious}
        onNext={review.next}
        onPrevious={review.previous}
        onClose={review.close}
        onDecided={review.decided}
      />
    </Container>
  );
}
