import { z } from 'zod';
import { notificationSettingsMessages } from '../messages';
import { idSchema } from './common';

/**
 * Notification preferences. In-app always happens; `email` also mails at once;
 * `digest` mails one summary a day at 07:00 in the user's timezone.
 */

export const DELIVERIES = ['in-app', 'email', 'digest'] as const;
export type Delivery = (typeof DELIVERIES)[number];
export const delivery = z.enum(DELIVERIES, { error: notificationSettingsMessages.deliveryInvalid });

/** Every event a notification is about; the admin ones are absent from an agent's answer. */
export const NOTIFICATION_EVENTS = [
  'documentReviewed',
  'comment',
  'documentUploaded',
  'transactionCreated',
  'registration',
  'keyDate',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];
export const ADMIN_EVENTS: readonly NotificationEvent[] = [
  'documentUploaded',
  'transactionCreated',
  'registration',
];
export const AGENT_EVENTS: readonly NotificationEvent[] = ['documentReviewed', 'comment', 'keyDate'];

export const DEFAULT_DELIVERY: Record<NotificationEvent, Delivery> = {
  documentReviewed: 'email',
  keyDate: 'email',
  comment: 'in-app',
  documentUploaded: 'digest',
  transactionCreated: 'digest',
  registration: 'digest',
};

/** What each event is called on the settings page and in mails. */
export const EVENT_LABELS: Record<NotificationEvent, string> = {
  documentReviewed: 'Document reviewed',
  comment: 'Comment',
  documentUploaded: 'Document uploaded',
  transactionCreated: 'Transaction created',
  registration: 'Registration',
  keyDate: 'Key date reminder',
};

export const DEFAULT_TIMEZONE = 'America/New_York';
export const DEFAULT_REMINDER_DAYS = [3, 1];
export const MAX_REMINDER_DAYS = 5;
export const MAX_REMINDER_DAY = 60;

/** An IANA zone this runtime knows ('Europe/Paris'); 'UTC' too. */
export function isTimezone(value: string): boolean {
  if (value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const events = z
  .object({
    documentReviewed: delivery,
    comment: delivery,
    documentUploaded: delivery,
    transactionCreated: delivery,
    registration: delivery,
    keyDate: delivery,
  })
  .partial()
  .strict();

export const notificationSettings = z.object({
  timezone: z.string(),
  reminderDays: z.array(z.number().int()),
  events,
});
export type NotificationSettings = z.infer<typeof notificationSettings>;

export const notificationSettingsInput = z.object({
  userId: idSchema,
  timezone: z
    .string({ error: notificationSettingsMessages.timezoneInvalid })
    .refine(isTimezone, { error: notificationSettingsMessages.timezoneInvalid }),
  reminderDays: z
    .array(
      z
        .number({ error: notificationSettingsMessages.reminderDayInvalid(MAX_REMINDER_DAY) })
        .int({ error: notificationSettingsMessages.reminderDayInvalid(MAX_REMINDER_DAY) })
        .min(1, { error: notificationSettingsMessages.reminderDayInvalid(MAX_REMINDER_DAY) })
        .max(MAX_REMINDER_DAY, { error: notificationSettingsMessages.reminderDayInvalid(MAX_REMINDER_DAY) }),
    )
    .max(MAX_REMINDER_DAYS, { error: notificationSettingsMessages.tooManyReminderDays(MAX_REMINDER_DAYS) }),
  events,
});
export type NotificationSettingsInput = z.infer<typeof notificationSettingsInput>;

/** Set from the browser on the first sign-in: only while the account has none of its own. */
export const detectedTimezoneInput = z.object({
  timezone: z.string().refine(isTimezone, { error: notificationSettingsMessages.timezoneInvalid }),
});

/** The one-click unsubscribe of a mail (RFC 8058): its token names the user and the event. */
export const unsubscribeInput = z.object({ token: z.string().min(1).max(300) });
export const unsubscribeAnswer = z.object({
  message: z.string(),
  /** The event switched to in-app, or 'digest' (the digest's link: every digest event). */
  event: z.enum([...NOTIFICATION_EVENTS, 'digest']),
});
