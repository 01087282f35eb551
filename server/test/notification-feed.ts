import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { type BusMessage, busMessageOf } from '../realtime/bus';

/**
 * What tests read of users' notifications: the notification_feed view, where each user has
 * their own rows and the admin notices of their admin terms (migration 20261202090000). Reading
 * the notifications table alone would miss every notice to the admins.
 */

export type FeedEntry = {
  id: string;
  userId: string;
  message: string;
  link: string;
  transactionId: string | null;
  event: string | null;
  readAt: Date | null;
  createdAt: Date;
};

/** The feed's entries matching `where` (an SQL condition on its columns), oldest first. */
export function feedEntries(db: Db, where: Prisma.Sql = Prisma.sql`true`): Promise<FeedEntry[]> {
  return db.$queryRaw<FeedEntry[]>`
    SELECT id, user_id AS "userId", message, link, transaction_id AS "transactionId",
           event::text AS event, read_at AS "readAt", created_at AS "createdAt"
      FROM notification_feed WHERE ${where}
     ORDER BY created_at, id, user_id`;
}

/**
 * The deliveries a bus message makes, as an instance's bus makes them: a notice to the admins
 * reaches each of `admins` (the subscribed admins) but the one it excepts.
 */
export function deliveriesOf(payload: string | BusMessage, admins: ReadonlyArray<string> = []) {
  const message = typeof payload === 'string' ? busMessageOf(payload) : payload;
  if (message.kind === 'users') return message.deliveries;
  return admins
    .filter((userId) => userId !== message.except)
    .map((userId) => ({ userId, notification: message.notification }));
}
