import { messageAnswer } from '../../shared/schemas/common';
import {
  markReadInput,
  notificationStreamInput,
  notificationsListInput,
  notificationsPage,
} from '../../shared/schemas/notifications';
import { AsyncQueue } from '../realtime/async-queue';
import type { BusEvent } from '../realtime/bus';
import * as notifications from '../services/notifications';
import { assertSelfOrAdmin } from '../services/users';
import { protectedProcedure, router, tracked } from '../trpc/init';

/** Bounded memory of what a stream already sent, so a catch-up never repeats an event. */
const REMEMBERED_IDS = 500;

export const notificationsRouter = router({
  list: protectedProcedure
    .input(notificationsListInput)
    .output(notificationsPage)
    .query(({ ctx, input }) => {
      assertSelfOrAdmin(ctx.user, input.userId);
      return notifications.listNotifications(ctx.db, input);
    }),

  markAllRead: protectedProcedure
    .input(markReadInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => {
      assertSelfOrAdmin(ctx.user, input.userId);
      return notifications.markAllRead(ctx.db, input.userId, ctx.deps.clock.now());
    }),

  /**
   * The caller's own notifications, live (DESIGN.md section 7). Each is `tracked` with its id,
   * so a client that reconnects sends the last id it saw and gets what it missed, once. No
   * `.output()`: tRPC validates subscriptions per event only with a tracked-aware schema, and
   * every event is built by toNotification from the shared type.
   */
  onNotification: protectedProcedure.input(notificationStreamInput).subscription(async function* ({
    ctx,
    input,
    signal,
  }) {
    const userId = ctx.user.id;
    const inbox = new AsyncQueue<BusEvent>();
    // Listen before reading the table: an event committed in between is then queued, not lost.
    const unsubscribe = ctx.deps.bus.subscribe(userId, (event) => inbox.push(event));
    signal?.addEventListener('abort', () => inbox.end(), { once: true });
    const sent = new Set<string>();
    const remember = (id: string) => {
      sent.add(id);
      if (sent.size > REMEMBERED_IDS) sent.delete(sent.values().next().value as string);
    };
    try {
      let cursor = await notifications.startCursor(ctx.db, userId, input?.lastEventId);
      const catchUp = () => notifications.notificationsAfter(ctx.db, userId, cursor);
      let pending = await catchUp();
      for (;;) {
        for (const notification of pending) {
          if (sent.has(notification._id)) continue;
          remember(notification._id);
          cursor = { createdAt: new Date(notification.createdAt), id: notification._id };
          yield tracked(notification._id, notification);
        }
        const next = await inbox[Symbol.asyncIterator]().next();
        if (next.done) return;
        const event = next.value;
        if (event.kind === 'revoked') {
          ctx.closeConnection?.();
          return;
        }
        pending = event.kind === 'resync' ? await catchUp() : [event.notification];
      }
    } finally {
      unsubscribe();
      inbox.end();
    }
  }),
});
