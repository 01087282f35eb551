import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  WEBHOOK_MAX_ATTEMPTS,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../../shared/schemas/webhooks';
import { serverMessageOf } from '../../api/errors';
import { formatTimeSoon } from '../../dates';
import { notifyError, notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { isListLoading, ListTable } from '../ListTable';
import { Pager } from '../Pager';
import { webhookToasts } from './toasts';

const DELIVERY_COLUMNS = ['Event', 'Status', 'Attempts', 'Response', 'Time', 'Action'];
const DELIVERIES_PAGE_SIZE = 10;
const DELIVERIES_ERROR_TEXT = 'The deliveries could not be loaded.';
const STATUS_COLORS = { pending: 'yellow', succeeded: 'green', failed: 'red' } as const;

/** Pending after a failed attempt: its next one is scheduled. */
const waitsForRetry = (delivery: WebhookDelivery) =>
  delivery.status === 'pending' && delivery.attempts > 0 && delivery.nextAttemptAt !== null;

/**
 * A delivery's state in words: a pending one that has failed before says when it tries again and
 * which attempt that is (the server's schedule: WEBHOOK_MAX_ATTEMPTS in all, more only by a manual
 * retry); one never tried yet is just pending.
 */
export function deliveryStatusText(delivery: WebhookDelivery, now: Date = new Date()): string {
  if (!waitsForRetry(delivery) || !delivery.nextAttemptAt) return delivery.status;
  const next = delivery.attempts + 1;
  const which =
    next <= WEBHOOK_MAX_ATTEMPTS ? `attempt ${next} of ${WEBHOOK_MAX_ATTEMPTS}` : `attempt ${next}`;
  return `Retrying at ${formatTimeSoon(delivery.nextAttemptAt, now)} (${which})`;
}

const timeOf = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

/** An endpoint's deliveries, newest first; looked at again every few seconds while one is pending. */
export function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ id: endpoint._id, page, limit: DELIVERIES_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((item) => item.status === 'pending') ? 2_000 : false,
  });
  const retry = useMutation(trpc.webhooks.retry.mutationOptions());
  const [retrying, setRetrying] = useState<string | null>(null);
  const retryOne = (delivery: WebhookDelivery) => {
    setRetrying(delivery._id);
    retry.mutate(
      { id: endpoint._id, deliveryId: delivery._id },
      {
        onSuccess: () => notifySuccess(webhookToasts.retried),
        onError: (failure) => notifyError(serverMessageOf(failure)),
        onSettled: async () => {
          await queryClient.invalidateQueries(trpc.webhooks.deliveries.pathFilter());
          setRetrying(null);
        },
      },
    );
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h3" style={{ wordBreak: 'break-all' }}>
          Deliveries to {endpoint.url}
        </Title>
        <Button variant="default" size="xs" onClick={() => void list.refetch()} loading={list.isFetching}>
          Refresh
        </Button>
      </Group>
      <ListTable
        columns={DELIVERY_COLUMNS}
        minWidth={760}
        rows={list.data?.items}
        loading={isListLoading(list)}
        failure={list.error ? DELIVERIES_ERROR_TEXT : null}
        empty="No deliveries yet."
        renderRow={(delivery) => (
          <Table.Tr key={delivery._id}>
            <Table.Td>{delivery.event}</Table.Td>
            <Table.Td>
              {waitsForRetry(delivery) ? (
                // Words, not a badge: a sentence wraps on a phone's card.
                <Text size="sm">{deliveryStatusText(delivery)}</Text>
              ) : (
                <Badge variant="light" color={STATUS_COLORS[delivery.status]} tt="none">
                  {delivery.status}
                </Badge>
              )}
            </Table.Td>
            <Table.Td>{delivery.attempts}</Table.Td>
            <Table.Td>{delivery.lastStatusCode ?? delivery.lastError ?? '—'}</Table.Td>
            <Table.Td>{timeOf(delivery.createdAt)}</Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="default"
                aria-label={`Retry ${delivery.event} of ${timeOf(delivery.createdAt)}`}
                loading={retrying === delivery._id}
                disabled={!endpoint.active || (retrying !== null && retrying !== delivery._id)}
                onClick={() => retryOne(delivery)}
              >
                Retry
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      />
      <Pager page={page} pageSize={DELIVERIES_PAGE_SIZE} total={list.data?.totalItems} onChange={setPage} />
    </Stack>
  );
}
