import { Anchor, Badge, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { PAGE_SIZE } from '../../shared/constants';
import { ui } from '../../shared/messages';
import type { Notification } from '../../shared/schemas/notifications';
import { getUserId } from '../auth/session';
import { notificationTarget, TRANSACTION_DELETED_NOTE } from '../components/notification-target';
import { Pager } from '../components/Pager';
import { formatDateTime } from '../dates';
import { useNotificationFeed } from '../layout/NotificationFeed';
import { useLoadFailureToast } from '../notify';
import { useTRPC } from '../trpc';

function NotificationItem({ notification }: { notification: Notification }) {
  const target = notificationTarget(notification);
  const unread = !notification.read;
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      radius="md"
      data-unread={unread || undefined}
      // An unread notification stands out by its edge and weight, and says "New" in words.
      style={unread ? { borderLeft: '4px solid var(--mantine-color-red-6)' } : undefined}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        {/* Shrinks and breaks a long word (an e-mail address) rather than push 'New' off a phone. */}
        <Stack gap={4} miw={0} style={{ overflowWrap: 'anywhere' }}>
          {target ? (
            <Anchor component={Link} href={target} fw={unread ? 600 : 400}>
              {notification.message}
            </Anchor>
          ) : (
            <Text fw={unread ? 600 : 400}>{notification.message}</Text>
          )}
          {notification.transactionDeleted && (
            <Text size="sm" c="dimmed" fs="italic">
              {TRANSACTION_DELETED_NOTE}
            </Text>
          )}
          <Text size="sm" c="dimmed" component="time" dateTime={notification.createdAt}>
            {formatDateTime(notification.createdAt)}
          </Text>
        </Stack>
        {unread && (
          <Badge color="red" variant="light">
            New
          </Badge>
        )}
      </Group>
    </Paper>
  );
}

/** The notifications panel (/notifications): newest first, opened means read. */
export function Notifications() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const userId = getUserId();
  const { markSeen } = useNotificationFeed();
  const [page, setPage] = useState(1);

  const list = useQuery(
    trpc.notifications.list.queryOptions(userId ? { userId, page, limit: PAGE_SIZE } : skipToken, {
      placeholderData: keepPreviousData,
    }),
  );
  useLoadFailureToast('notifications-list', 'Could not load notifications', list.error, list.refetch);

  const markAllRead = useMutation(
    trpc.notifications.markAllRead.mutationOptions({
      // Stale, but not refetched now: the page keeps showing which ones were new on arrival;
      // the next visit, another page or a new event loads them as read.
      onSuccess: () =>
        queryClient.invalidateQueries({ ...trpc.notifications.list.queryFilter(), refetchType: 'none' }),
    }),
  );
  const { mutate: markAllReadNow } = markAllRead;

  // Opening the panel is seeing the notifications: the bell's dot goes at once.
  useEffect(() => {
    markSeen();
  }, [markSeen]);

  // Once per visit, after a load of this visit, so the list first shows what was unread.
  const markedRead = useRef(false);
  const loadedThisVisit = list.isFetchedAfterMount && list.isSuccess;
  useEffect(() => {
    if (!userId || !loadedThisVisit || markedRead.current) return;
    markedRead.current = true;
    markAllReadNow({ userId });
  }, [userId, loadedThisVisit, markAllReadNow]);

  const data = list.data;
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Title order={1}>Notifications</Title>
        {list.isPending && !list.isError && <Text c="dimmed">{ui.loading}</Text>}
        {data && data.notifications.length === 0 && <Text c="dimmed">{ui.noNotifications}</Text>}
        {data && data.notifications.length > 0 && (
          <>
            <Stack
              component="ul"
              gap="sm"
              aria-label="Notifications"
              aria-busy={list.isPlaceholderData || undefined}
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
            >
              {data.notifications.map((notification) => (
                <NotificationItem key={notification._id} notification={notification} />
              ))}
            </Stack>
            <Pager page={page} pageSize={PAGE_SIZE} total={data.total} onChange={setPage} />
          </>
        )}
      </Stack>
    </Container>
  );
}
