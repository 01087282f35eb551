import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { PAGE_SIZE } from '../../shared/constants';
import type { Notification } from '../../shared/schemas/notifications';
import { sessionRefresher } from '../auth/refresh';
import { getRefreshToken, getUserId } from '../auth/session';
import { notificationTarget, TRANSACTION_DELETED_NOTE } from '../components/notification-target';
import { useTRPC } from '../trpc';

/**
 * The live side of notifications: while
 * the shell is mounted it subscribes to `notifications.onNotification`; each event lights the
 * bell's dot, shows a toast and refreshes what is on screen (the lists, the open transaction).
 * The dot also lights on load when the server still counts unread notifications, so a reload
 * keeps it.
 */

type NotificationFeed = {
  /** The bell's red dot. */
  hasUnread: boolean;
  /** The user opened the notifications: the dot goes until the next event. */
  markSeen: () => void;
};

// Outside the shell (a page rendered on its own in a test) there is no feed and nothing to clear.
const NotificationFeedContext = createContext<NotificationFeed>({ hasUnread: false, markSeen: () => {} });

export function useNotificationFeed(): NotificationFeed {
  return useContext(NotificationFeedContext);
}

/** One event as the client receives a `tracked(id, notification)` of the server. */
type NotificationEvent = { id: string; data: Notification };

/**
 * Refusals in a row (each followed by a refresh) before live updates give up for this visit. A
 * refusal right after a refresh can be honest (the socket still held the old token); endless
 * ones would only mean the server refuses fresh tokens too, and then the HTTP calls end the
 * session themselves.
 */
const MAX_REFUSALS_IN_A_ROW = 3;

function isUnauthorized(error: { data?: { httpStatus?: unknown; code?: unknown } | null }): boolean {
  return error.data?.httpStatus === 401 || error.data?.code === 'UNAUTHORIZED';
}

type StreamProps = {
  /** The last event seen, so a restarted subscription gets what it missed. */
  resumeFrom: string | null;
  onEvent: (event: NotificationEvent) => void;
  onStarted: () => void;
  /** The server refused the subscription with 401; the refresh token stored when its socket opened. */
  onRefused: (refreshTokenAtConnect: string | null) => void;
};

/**
 * The subscription itself. Remounted (a new key) to start over after a refusal; meanwhile the
 * wsLink reconnects dropped sockets on its own and resumes after the last tracked id.
 */
function NotificationStream({ resumeFrom, onEvent, onStarted, onRefused }: StreamProps) {
  const trpc = useTRPC();
  // The socket reads the tokens when it opens: this is the pair a refusal was answered to.
  const refreshTokenAtConnect = useRef(getRefreshToken());
  useSubscription(
    trpc.notifications.onNotification.subscriptionOptions(
      resumeFrom ? { lastEventId: resumeFrom } : undefined,
      {
        onConnectionStateChange: (state) => {
          if (state.state === 'pending') refreshTokenAtConnect.current = getRefreshToken();
        },
        onStarted,
        onData: onEvent,
        // Anything but a refusal (a server fault, a stub without the procedure) just ends live
        // updates quietly: the bell and the list still work from the list query.
        onError: (error) => {
          if (isUnauthorized(error)) onRefused(refreshTokenAtConnect.current);
        },
      },
    ),
  );
  return null;
}

function showNotificationToast(notification: NotificationEvent['data'], open: (path: string) => void) {
  const id = `notification-${notification._id}`;
  const target = notificationTarget(notification);
  notifications.show({
    // By id, so an event delivered twice (a resume replays from the last id) shows once.
    id,
    title: 'New notification',
    message: (
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Stack gap={2}>
          <Text size="sm">{notification.message}</Text>
          {notification.transactionDeleted && (
            <Text size="xs" c="dimmed" fs="italic">
              {TRANSACTION_DELETED_NOTE}
            </Text>
          )}
        </Stack>
        {target && (
          <Button
            size="xs"
            variant="light"
            onClick={() => {
              notifications.hide(id);
              open(target);
            }}
          >
            View
          </Button>
        )}
      </Group>
    ),
  });
}

export function NotificationFeedProvider({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const userId = getUserId();

  // The first page doubles as the notifications page's page 1 (same query key).
  const summary = useQuery(
    trpc.notifications.list.queryOptions(userId ? { userId, page: 1, limit: PAGE_SIZE } : skipToken),
  );
  const [eventSinceSeen, setEventSinceSeen] = useState(false);
  const [seen, setSeen] = useState(false);
  // The server's unread count only speaks for the time before the user first opened the panel;
  // after that, only new events light the dot (the page marks everything read meanwhile).
  const hasUnread = eventSinceSeen || (!seen && (summary.data?.unread ?? 0) > 0);

  const markSeen = useCallback(() => {
    setEventSinceSeen(false);
    setSeen(true);
  }, []);

  const [stream, setStream] = useState<{ generation: number; resumeFrom: string | null }>({
    generation: 0,
    resumeFrom: null,
  });
  const lastEventId = useRef<string | null>(null);
  const refusalsInARow = useRef(0);

  const onEvent = (event: NotificationEvent) => {
    lastEventId.current = event.id;
    setEventSinceSeen(true);
    showNotificationToast(event.data, navigate);
    // Every notification tells of a change to a transaction (an upload, a review, a comment, an
    // account approval): what shows transactions, the review queue, the dashboard's figures, the
    // attention strip, signature requests or notifications is refetched where it is on screen, and only marked stale
    // elsewhere, so the open page follows without a reload. The detail pages' Update forms are
    // prefilled once and the review dialog keeps the item it shows, so a refetch never
    // overwrites typing.
    void Promise.all([
      queryClient.invalidateQueries(trpc.notifications.list.queryFilter()),
      queryClient.invalidateQueries(trpc.transactions.pathFilter()),
      queryClient.invalidateQueries(trpc.adminTransactions.pathFilter()),
      queryClient.invalidateQueries(trpc.reviewQueue.list.pathFilter()),
      queryClient.invalidateQueries(trpc.dashboard.pathFilter()),
      queryClient.invalidateQueries(trpc.signatures.list.pathFilter()),
    ]);
  };

  const onStarted = () => {
    refusalsInARow.current = 0;
  };

  const onRefused = (refreshTokenAtConnect: string | null) => {
    refusalsInARow.current += 1;
    if (refusalsInARow.current > MAX_REFUSALS_IN_A_ROW) return;
    // The same single refresh as the HTTP calls; when it fails, it has already ended the session.
    void sessionRefresher.recover(refreshTokenAtConnect).then((renewed) => {
      if (!renewed) return;
      // On the next turn: the idle socket that refused (lazy, closeMs 0) closes first, so the new
      // subscription opens a socket that carries the new token.
      setTimeout(() => {
        setStream((current) => ({ generation: current.generation + 1, resumeFrom: lastEventId.current }));
      }, 0);
    });
  };

  const feed = useMemo(() => ({ hasUnread, markSeen }), [hasUnread, markSeen]);

  return (
    <NotificationFeedContext.Provider value={feed}>
      {userId && (
        <NotificationStream
          key={stream.generation}
          resumeFrom={stream.resumeFrom}
          onEvent={onEvent}
          onStarted={onStarted}
          onRefused={onRefused}
        />
      )}
      {children}
    </NotificationFeedContext.Provider>
  );
}
