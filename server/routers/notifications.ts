import { messageAnswer } from '../../shared/schemas/common';
import {
  markReadInput,
  type Notification,
  notificationStreamInput,
  notificationsListInput,
  notificationsPage,
} from '../../shared/schemas/notifications';
import * as notifications from '../services/notifications';
import { protectedProcedure, router, tracked } from '../trpc/init';
import examples from './notifications.examples.json';

export const notificationsRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/notifications/:userId',
        summary: "A user's notifications, newest first",
        tag: 'notifications',
        scope: 'personal',
        examples: examples.list,
      },
    })
    .input(notificationsListInput)
    .output(notificationsPage)
    .query(({ ctx, input }) => notifications.listNotifications(ctx, input)),

  markAllRead: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/notifications/:userId/read',
        summary: "Mark all of a user's notifications read",
        tag: 'notifications',
        scope: 'personal',
        examples: examples.markAllRead,
      },
    })
    .input(markReadInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => notifications.markAllRead(ctx, input)),

  /**
   * The caller's own notifications, live. Each is `tracked` with its id,
   * so a client that reconnects sends the last id it saw and gets what it missed, once. No
   * `.output()`: tRPC validates subscriptions per event only with a tracked-aware schema, and
   * every event is built by toNotification from the shared type.
   */
  onNotification: protectedProcedure.input(notificationStreamInput).subscription(async function* ({
    ctx,
    input,
    signal,
  }) {
    const { sendTracked } = ctx;
    // Over a WebSocket, a caught-up stream sends its live events itself, tracked the same way.
    const direct = sendTracked && ((event: Notification) => sendTracked(event._id, event));
    const stream = notifications.streamNotifications({ ...ctx, signal }, input, direct);
    try {
      for (;;) {
        const next = await stream.next();
        if (next.done) {
          // Deactivated: the whole connection closes, on every instance (services/users.ts).
          if (next.value === 'revoked') ctx.closeConnection?.();
          return;
        }
        yield tracked(next.value._id, next.value);
      }
    } finally {
      // Stopped while waiting at a yield: the stream's own cleanup (unsubscribing) runs now.
      await stream.return('ended');
    }
  }),
});
