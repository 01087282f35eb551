import type { Notification } from '../../shared/schemas/notifications';

/**
 * What a notification whose transaction was deleted says instead of linking: the
 * message is kept (history is never lost), but its page is gone and would only say "not found".
 */
export const TRANSACTION_DELETED_NOTE = 'This transaction has been deleted.';

/** The server sends client paths; anything else (absolute or protocol-relative URLs) is not followed. */
function clientPath(link: string): string | null {
  return link.startsWith('/') && !link.startsWith('//') ? link : null;
}

/**
 * The client path a notification may open, or null: none when its transaction was deleted, and
 * none for anything but a path of this site.
 */
export function notificationTarget(
  notification: Pick<Notification, 'link' | 'transactionDeleted'>,
): string | null {
  return notification.transactionDeleted ? null : clientPath(notification.link);
}
