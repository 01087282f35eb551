import { webhookMessages } from '../../../shared/webhook-messages';

/** The Webhooks page's own words (the server's are in shared/messages.ts); kept here, out of the first bundle. */
export const webhookToasts = {
  created: 'Webhook added. Copy its secret now: it is shown only once.',
  saved: 'Webhook saved',
  deleted: webhookMessages.deleted,
  testSent: 'Test event queued',
  retried: 'Delivery queued again',
  secretShownOnce: 'This secret is shown only once. Store it where your receiver can read it.',
  rotateQuestion: (url: string) =>
    `Make a new signing secret for ${url}? For 24 hours deliveries are signed with both the current and the new secret; after that, with the new one only.`,
  rotated:
    'New secret made. Copy it now: it is shown only once. Deliveries carry the old signature too for 24 hours, then this one alone.',
} as const;
