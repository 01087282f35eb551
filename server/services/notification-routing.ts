import {
  AGENT_EVENTS,
  DEFAULT_DELIVERY,
  DELIVERIES,
  type Delivery,
  EVENT_LABELS,
  NOTIFICATION_EVENTS,
  type NotificationEvent,
} from '../../shared/schemas/notification-settings';
import type { Prisma } from '../db/generated/client';
import type { AppDeps } from '../deps';
import { signValue } from '../security/sealing';

/**
 * How a notification event reaches a user, and the signed links of a mail's
 * unsubscribe: pure rules, used when notifying (services/notifications.ts), when mailing and by
 * the preferences themselves (services/notification-settings.ts).
 */

export type Role = 'user' | 'admin';

/** The events an account receives: an agent's, or (an admin) every one. */
export const eventsOf = (role: Role): readonly NotificationEvent[] =>
  role === 'admin' ? NOTIFICATION_EVENTS : AGENT_EVENTS;

/**
 * How `event` reaches a user: their choice, else the default; 'in-app' for an event that is not
 * theirs to configure (an admin's action told to an agent) or no event at all.
 */
export function deliveryOf(
  role: Role,
  stored: Prisma.JsonValue,
  event: NotificationEvent | undefined,
): Delivery {
  if (!event || !eventsOf(role).includes(event)) return 'in-app';
  const chosen = stored && typeof stored === 'object' && !Array.isArray(stored) ? stored[event] : undefined;
  return typeof chosen === 'string' && (DELIVERIES as readonly string[]).includes(chosen)
    ? (chosen as Delivery)
    : DEFAULT_DELIVERY[event];
}

export const UNSUBSCRIBE_PURPOSE = 'unsubscribe-v1';

/** The token of a mail's unsubscribe link: it names the user and the event, signed. */
export function unsubscribeToken(deps: AppDeps, userId: string, event: NotificationEvent | 'digest'): string {
  return signValue(deps.config.jwtSecret, UNSUBSCRIBE_PURPOSE, `${userId}:${event}`);
}

/** The two addresses of a notification mail's unsubscribe (RFC 8058 and the footer's page). */
export function unsubscribeLinks(deps: AppDeps, userId: string, event: NotificationEvent | 'digest') {
  const token = unsubscribeToken(deps, userId, event);
  return {
    url: `${deps.config.appUrl}/api/unsubscribe/${token}`,
    page: `${deps.config.appUrl}/unsubscribe/${token}`,
    what: event === 'digest' ? 'the daily digest' : `"${EVENT_LABELS[event]}"`,
  };
}
