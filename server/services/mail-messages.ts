import { EVENT_LABELS, type NotificationEvent } from '../../shared/schemas/notification-settings';
import type { AppDeps } from '../deps';
import type { MailContent } from '../mail/content';
import { unsubscribeLinks } from './notification-routing';

/**
 * The words of the notification mails: an event mailed at once, the daily digest and
 * a key date reminder. The account mails (verification, reset, approval) are in server/mail.
 */

const PRODUCT = 'Brokerage Portal';
type Recipient = { id: string; email: string; first_name: string };

/** A notification's client path as an address in the mail. */
const absolute = (deps: AppDeps, link: string) => `${deps.config.appUrl}${link.startsWith('/') ? link : '/'}`;

export function notificationMail(
  deps: AppDeps,
  user: Recipient,
  notification: { message: string; link: string; event: NotificationEvent },
): MailContent {
  return {
    to: user.email,
    subject:
      notification.message.length > 120 ? `${notification.message.slice(0, 119)}…` : notification.message,
    preview: notification.message,
    greeting: `Hello ${user.first_name},`,
    paragraphs: [notification.message],
    action: { label: 'Open in the portal', url: absolute(deps, notification.link) },
    unsubscribe: unsubscribeLinks(deps, user.id, notification.event),
  };
}

export type DigestEntry = { message: string; link: string; event: NotificationEvent; createdAt: Date };

export function digestMail(
  deps: AppDeps,
  user: Recipient & { timezone: string },
  entries: readonly DigestEntry[],
  unsubscribeEvent: NotificationEvent | 'digest',
  total: number,
): MailContent {
  const when = (date: Date) =>
    date.toLocaleString('en-US', {
      timeZone: user.timezone,
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
  const count = total;
  return {
    to: user.email,
    subject: `Your ${PRODUCT} digest: ${count} ${count === 1 ? 'update' : 'updates'}`,
    preview: entries[0]?.message ?? '',
    greeting: `Hello ${user.first_name},`,
    paragraphs: [
      `Here is what happened since your last digest (${count} ${count === 1 ? 'update' : 'updates'}).`,
      ...(count > entries.length
        ? [`The first ${entries.length} are below; the rest are in the portal.`]
        : []),
    ],
    items: entries.map((entry) => ({
      text: `${EVENT_LABELS[entry.event]}: ${entry.message}`,
      link: absolute(deps, entry.link),
      when: when(entry.createdAt),
    })),
    action: { label: 'Open the portal', url: `${deps.config.appUrl}/notifications` },
    unsubscribe: unsubscribeLinks(deps, user.id, unsubscribeEvent),
  };
}
