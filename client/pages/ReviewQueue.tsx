import { Badge, Button, Checkbox, Container, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useMemo, useState } from 'react';
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
/** Where review mode stands on the page: an index, or the page's last item once it loads. */
type Reviewing = { index: number | 'last' };

/** The compliance desk's queue (issue 18, /admin/review): every upload and waiver to decide. */
export function ReviewQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [type, setType] = useState<string | null>(null);
  const [agentId, setAgentId] = useState<string | null>(null);
  const [selected, setSelected] = useState<Record<string, Selection>>({});
  const [reviewing, setReviewing] = useState<Reviewing | null>(null);

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

  // A move back onto the previous page lands on its last item once that page has arrived.
  useEffect(() => {
    if (reviewing?.index === 'last' && settled) setReviewing({ index: Math.max(0, items.length - 1) });
  }, [reviewing, settled, items]);

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
  const current = settled && index !== null ? (items[index] ?? null) : null;
  const hasNext = index !== null && items !== undefined && (index < items.length - 1 || page < totalPages);
  const hasPrevious = index !== null && (index > 0 || page > 1);
  const next = () => {
    if (index === null || !items) return;
    if (index < items.length - 1) setReviewing({ index: index + 1 });
    else if (page < totalPages) {
      setPage(page + 1);
      setReviewing({ index: 0 });
    }
  };
  const previous = () => {
    if (index === null) return;
    if (index > 0) setReviewing({ index: index - 1 });
    else if (page > 1) {
      setPage(page - 1);
      setReviewing({ index: 'last' });
    }
  };

  /** After a decision the item leaves the queue: the next one takes its place. */
  const decided = async () => {
    if (index === null) return;
    const done = current?.form._id;
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
    if (answer.items.length > index) setReviewing({ index });
    else if (page < answer.totalPages) {
      setPage(page + 1);
      setReviewing({ index: 0 });
    } else if (answer.items.length > 0) setReviewing({ index: 0 });
    else {
      setPage(1);
      setReviewing({ index: 0 });
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
              onReview={() => setReviewing({ index: items?.indexOf(item) ?? 0 })}
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
