import type { Notification } from '../../shared/schemas/notifications';

/**
 * What a notification whose transaction was deleted says instead of linking (issue 17): the
 * message is kept (history is never lost), but its page is gone and would only say "not found".
 */
export const TRANSACTION_DELETED_NOTE = 'This transaction has been deleted.';

/**
 * The client path a notification may open, or null: none when its transaction was deleted, and
 * none for anything but a path of this site (`clientPath` decides that: absolute and
 * protocol-relative links are never followed).
 */
export function notificationTarget(
  notification: Pick<Notification, 'link' | 'transactionDeleted'>,
  clientPath: (link: string) => string | null,
): string | null {
  return notification.transactionDeleted ? null : clientPath(notification.link);
}
