import { Badge, Button, Checkbox, Container, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import { PAGE_SIZE } from '../../shared/constants';
import type { ReviewQueueItem } from '../../shared/schemas/compliance';
import { serverMessageOf } from '../api/errors';
import { ExportButton, exportPath } from '../components/ExportButton';
import { isListLoading, ListTable } from '../components/ListTable';
import { Pager } from '../components/Pager';
import { addressOf, ReviewPanel } from '../components/review/ReviewPanel';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { paths } from '../paths';
import { useTRPC } from '../trpc';

const COLUMNS = ['Document', 'Transaction', 'Agent', 'Type', 'Waiting', 'Actions'];
const LOAD_ERROR_TOAST_ID = 'review-queue-load-error';
const LOAD_ERROR_TEXT = 'The review queue could not be loaded.';
export const EMPTY_QUEUE = 'Nothing is waiting for review.';

/** How long an item has waited, in its largest whole unit: 'waiting 2 days'. */
export function waitingText(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `waiting ${count} ${name}${count === 1 ? '' : 's'}`;
  }
  return 'waiting less than a minute';
}

export const bulkAcceptedToast = (count: number) =>
  count === 1 ? '1 document accepted' : `${count} documents accepted`;

type Selection = { transactionId: string; formId: string; version: number };
/**
 * Where review mode stands: an index on the page (or the page's last item once it loads), and
 * the item on screen, pinned once its page has arrived. Only the reviewer moves the pin (open,
 * J/K, a decision): a refetch (a live event, another reviewer's decision) finds the pinned item
 * again and moves the index to it, so the dialog keeps its item and what was typed into it.
 */
type Reviewing = { index: number | 'last'; item: ReviewQueueItem | null };

const itemKey = (item: ReviewQueueItem) => `${item.kind}:${item.form._id}`;

/**
 * The pin after the list changed: the same item wherever it now stands. Its fresh copy replaces
 * the pinned one only while it is the same version (the dialog remounts for a new version); an
 * item no longer in the list stays on screen, and deciding it gets the server's answer.
 */
function repin(reviewing: Reviewing, items: readonly ReviewQueueItem[]): Reviewing {
  const { item } = reviewing;
  if (!item) return reviewing;
  const index = items.findIndex((candidate) => itemKey(candidate) === itemKey(item));
  const fresh = items[index];
  if (!fresh) return reviewing;
  const kept = fresh.form.version === item.form.version ? fresh : item;
  return index === reviewing.index && kept === item ? reviewing : { index, item: kept };
}

/** The compliance desk's queue (issue 18, /admin/review): every upload and waiver to decide. */
export function ReviewQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [type, setType] = useState<string | null>(null);
  const [agentId, setAgentId] = useState<string | null>(null);
  const [selected, setSelected] = useState<Record<string, Selection>>({});
  const [reviewing, setReviewing] = useState<Reviewing | null>(null);
  const latest = useRef(reviewing);
  latest.current = reviewing;

  const list = useQuery({
    ...trpc.reviewQueue.list.queryOptions({
      page,
      limit: PAGE_SIZE,
      ...(type ? { type } : {}),
      ...(agentId ? { agentId } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, LOAD_ERROR_TEXT, list.error, list.refetch);

  const items = list.data?.items;
  const totalPages = list.data?.totalPages ?? 1;
  const totalItems = list.data?.totalItems ?? 0;
  const settled = items !== undefined && !list.isPlaceholderData;

  // A move onto another page pins its first (or, going back, its last) item once it has arrived;
  // a refetch of the page finds the pinned item again.
  useEffect(() => {
    if (!settled || !reviewing) return;
    if (reviewing.item) {
      const moved = repin(reviewing, items);
      if (moved !== reviewing) setReviewing(moved);
      return;
    }
    const index = reviewing.index === 'last' ? Math.max(0, items.length - 1) : reviewing.index;
    const item = items[index] ?? null;
    if (item || index !== reviewing.index) setReviewing({ index, item });
  }, [settled, items, reviewing]);

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

  // Review mode.
  const index = typeof reviewing?.index === 'number' ? reviewing.index : null;
  const current = reviewing?.item ?? null;
  // Once the item on screen has left the page (decided elsewhere), its place holds the next one.
  const placed = index === null ? undefined : items?.[index];
  const inPlace = placed !== undefined && current !== null && itemKey(placed) === itemKey(current);
  const following = index === null ? null : inPlace ? index + 1 : index;
  const hasNext =
    following !== null && items !== undefined && (following < items.length || page < totalPages);
  const hasPrevious = index !== null && (index > 0 || page > 1);
  /** Review the item at `at` on the page shown, or (null) the one the next page brings. */
  const reviewAt = (at: number | 'last', on: readonly ReviewQueueItem[] | null) =>
    setReviewing({ index: at, item: on && typeof at === 'number' ? (on[at] ?? null) : null });
  const next = () => {
    if (following === null || !items) return;
    if (following < items.length) reviewAt(following, items);
    else if (page < totalPages) {
      setPage(page + 1);
      reviewAt(0, null);
    }
  };
  const previous = () => {
    if (index === null || !items) return;
    if (index > 0) reviewAt(index - 1, items);
    else if (page > 1) {
      setPage(page - 1);
      reviewAt('last', null);
    }
  };

  /** After a decision the item leaves the queue: the next one takes its place. */
  const decided = async () => {
    // Where the decided item stood when the decision came back: a live refetch may have moved it.
    const at = latest.current?.index;
    if (typeof at !== 'number') return;
    const done = latest.current?.item?.form._id;
    if (done && done in selected) setSelected(({ [done]: _decided, ...rest }) => rest);
    const [fresh] = await Promise.all([
      list.refetch(),
      queryClient.invalidateQueries(trpc.adminTransactions.get.pathFilter()),
    ]);
    const answer = fresh.data;
    if (!answer || answer.totalItems === 0) {
      setReviewing(null);
      if (page !== 1) setPage(1);
      return;
    }
    if (answer.items.length > at) reviewAt(at, answer.items);
    else if (page < answer.totalPages) {
      setPage(page + 1);
      reviewAt(0, null);
    } else if (answer.items.length > 0) reviewAt(0, answer.items);
    else {
      setPage(1);
      reviewAt(0, null);
    }
  };

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap">
          <Title order={1}>Review Queue</Title>
          <Group gap="xs" wrap="wrap">
            <ExportButton
              path={exportPath('/api/admin/review-queue.csv', { type, agentId })}
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
          <Filters
            type={type}
            agentId={agentId}
            onType={(value) => refilter(() => setType(value))}
            onAgent={(value) => refilter(() => setAgentId(value))}
          />
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
              onReview={() => setReviewing({ index: items?.indexOf(item) ?? 0, item })}
            />
          )}
        />
        <Pager page={page} pageSize={PAGE_SIZE} total={list.data?.totalItems} onChange={setPage} />
      </Stack>
      <ReviewPanel
        opened={reviewing !== null}
        item={current}
        position={(page - 1) * PAGE_SIZE + (index ?? 0) + 1}
        total={totalItems}
        hasNext={hasNext}
        hasPrevious={hasPrevious}
        onNext={next}
        onPrevious={previous}
        onClose={() => setReviewing(null)}
        onDecided={decided}
      />
    </Container>
  );
}

type FiltersProps = {
  type: string | null;
  agentId: string | null;
  onType: (value: string | null) => void;
  onAgent: (value: string | null) => void;
};

/** Type (the templates' types) and Agent (searched among the users), both sent to the queue. */
function Filters({ type, agentId, onType, onAgent }: FiltersProps) {
  const trpc = useTRPC();
  const templates = useQuery(trpc.templates.all.queryOptions());
  const types = useMemo(
    () => [...new Set((templates.data ?? []).map((template) => template.type))].sort(),
    [templates.data],
  );

  const [search, setSearch] = useState('');
  const [chosenAgent, setChosenAgent] = useState<{ value: string; label: string } | null>(null);
  const [debounced] = useDebouncedValue(search, 250);
  // Once an agent is chosen the box shows their name: that is not a new search.
  const term = chosenAgent && debounced === chosenAgent.label ? '' : debounced.trim();
  const users = useQuery({
    ...trpc.users.list.queryOptions({ page: 1, limit: 100, ...(term ? { query: term } : {}) }),
    placeholderData: keepPreviousData,
  });
  const agents = useMemo(() => {
    const options = (users.data?.users ?? [])
      .filter((user) => user.role === 'user')
      .map((user) => ({ value: user._id, label: `${user.firstName} ${user.lastName}` }));
    if (chosenAgent && !options.some((option) => option.value === chosenAgent.value))
      options.unshift(chosenAgent);
    return options;
  }, [users.data, chosenAgent]);

  return (
    <Group gap="sm" wrap="wrap" align="flex-end">
      <Select label="Type" placeholder="All types" data={types} value={type} onChange={onType} clearable />
      <Select
        label="Agent"
        placeholder="All agents"
        data={agents}
        value={agentId}
        searchable
        clearable
        searchValue={search}
        onSearchChange={setSearch}
        nothingFoundMessage="No agent found"
        onChange={(value, option) => {
          setChosenAgent(value && option ? { value, label: option.label } : null);
          onAgent(value);
        }}
      />
    </Group>
  );
}

type QueueRowProps = {
  item: ReviewQueueItem;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onReview: () => void;
};

function QueueRow({ item, selected, onSelect, onReview }: QueueRowProps) {
  const { transaction, form, kind } = item;
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.key === 'Enter' && event.target === event.currentTarget) {
      event.preventDefault();
      onReview();
    }
  };
  return (
    <Table.Tr tabIndex={0} onKeyDown={onKeyDown} aria-label={`${form.label}, ${addressOf(transaction)}`}>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {kind === 'document' && (
            <Checkbox
              aria-label={`Select ${form.label} (${transaction.streetAddress})`}
              checked={selected}
              onChange={(event) => onSelect(event.currentTarget.checked)}
            />
          )}
          <Text size="sm" fw={500}>
            {form.label}
          </Text>
          {kind === 'waiver' && (
            <Badge color="grape" variant="light" tt="none">
              Waiver
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>{addressOf(transaction)}</Table.Td>
      <Table.Td>
        {transaction.user.firstName} {transaction.user.lastName}
      </Table.Td>
      <Table.Td>{transaction.type}</Table.Td>
      <Table.Td>{waitingText(item.waitingSeconds)}</Table.Td>
      <Table.Td>
        <Button size="xs" variant="light" onClick={onReview}>
          Review
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
