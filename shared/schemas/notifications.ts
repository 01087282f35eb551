import { z } from 'zod';
import { idSchema, pagingInput } from './common';

/** Notifications: stored per user, delivered live. */

export const notification = z.object({
  _id: idSchema,
  message: z.string(),
  /** A client path such as /home/transactions/<id>. */
  link: z.string(),
  read: z.boolean(),
  createdAt: z.iso.datetime(),
  /**
   * The transaction the notification is about has been deleted since: the message stays (history
   * is never lost) but its link leads to a page that is gone, so clients do not follow it.
   */
  transactionDeleted: z.boolean(),
});
export type Notification = z.infer<typeof notification>;

export const notificationsListInput = pagingInput.extend({ userId: idSchema });
export const notificationsPage = z.object({
  notifications: z.array(notification),
  totalPages: z.number().int(),
  total: z.number().int(),
  unread: z.number().int(),
});
export type NotificationsPage = z.infer<typeof notificationsPage>;

export const markReadInput = z.object({ userId: idSchema });

/** tRPC fills `lastEventId` itself when a client resumes a tracked subscription. */
export const notificationStreamInput = z.object({ lastEventId: z.string().max(100).nullish() }).optional();
