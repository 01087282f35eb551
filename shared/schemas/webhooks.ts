import { z } from 'zod';
import { webhookMessages } from '../webhook-messages';
import { idSchema, pagingInput } from './common';

/**
 * Webhooks: endpoints admins register, the events they may subscribe
 * to, and the deliveries of those events. The address rule that needs DNS (public addresses
 * only) is the server's; this schema only refuses what is not an http(s) URL at all.
 */

export const WEBHOOK_EVENTS = [
  'transaction.created',
  'transaction.updated',
  'transaction.deleted',
  'transaction.closed',
  'transaction.compliant',
  'document.uploaded',
  'document.accepted',
  'document.rejected',
  'waiver.requested',
  'user.registered',
  'user.activated',
  'user.deactivated',
  'key_date.due',
  'cda.issued',
  'cda.paid',
  'signature.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
/** What the test button sends; no endpoint subscribes to it. */
export const PING_EVENT = 'ping';

/**
 * After a failed attempt, the next one comes this long later (5 s, 5 min, 30 min, 2 h, 5 h, 10 h):
 * a delivery is tried at most WEBHOOK_MAX_ATTEMPTS times over about 18 hours.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000,
] as const;
/** The first attempt and one per retry delay. */
export const WEBHOOK_MAX_ATTEMPTS = 1 + WEBHOOK_RETRY_DELAYS_MS.length;

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const MAX_URL = 2000;
const MAX_DESCRIPTION = 500;

export const webhookUrl = z
  .string({ error: webhookMessages.urlRequired })
  .trim()
  .min(1, { error: webhookMessages.urlRequired })
  .max(MAX_URL, { error: `Cannot exceed ${MAX_URL} characters` })
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    error: webhookMessages.urlNotPublic,
  });

const events = z
  .array(z.enum(WEBHOOK_EVENTS, { error: webhookMessages.eventInvalid }), {
    error: webhookMessages.eventsRequired,
  })
  .min(1, { error: webhookMessages.eventsRequired })
  .max(WEBHOOK_EVENTS.length)
  // Order and repeats carry no meaning: stored once each, in the list's order.
  .transform((chosen) => WEBHOOK_EVENTS.filter((event) => chosen.includes(event)));

const description = z
  .string()
  .trim()
  .max(MAX_DESCRIPTION, { error: `Cannot exceed ${MAX_DESCRIPTION} characters` });

export const createWebhookInput = z.object({ url: webhookUrl, events, description: description.optional() });
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;

export const updateWebhookInput = z
  .object({
    id: idSchema,
    url: webhookUrl.optional(),
    events: events.optional(),
    description: description.optional(),
    active: z.boolean().optional(),
  })
  .refine(
    (input) =>
      input.url !== undefined ||
      input.events !== undefined ||
      input.description !== undefined ||
      input.active !== undefined,
    { error: webhookMessages.nothingToChange, path: ['url'] },
  );
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

export const webhookIdInput = z.object({ id: idSchema });

export const webhookEndpoint = z.object({
  _id: z.uuid(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string(),
  active: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpoint>;
/** The create answer alone carries the secret: it is never shown again. */
export const createdWebhookEndpoint = webhookEndpoint.extend({
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+=*$/),
});
export type CreatedWebhookEndpoint = z.infer<typeof createdWebhookEndpoint>;
export const webhookEndpointsAnswer = z.array(webhookEndpoint);

export const webhookDelivery = z.object({
  _id: z.uuid(),
  eventId: z.uuid(),
  event: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

export const webhookDeliveriesInput = pagingInput.extend({ id: idSchema });
export type WebhookDeliveriesInput = z.infer<typeof webhookDeliveriesInput>;
export const webhookDeliveriesPage = z.object({
  items: z.array(webhookDelivery),
  totalPages: z.number().int(),
  totalItems: z.number().int(),
});
export type WebhookDeliveriesPage = z.infer<typeof webhookDeliveriesPage>;

export const webhookDeliveryInput = z.object({ id: idSchema, deliveryId: idSchema });

/** What a rotation answers: the new secret, shown this once like a new endpoint's. */
export const rotatedWebhookSecret = z.object({ secret: createdWebhookEndpoint.shape.secret });
export type RotatedWebhookSecret = z.infer<typeof rotatedWebhookSecret>;
/** After a rotation, deliveries carry the replaced secret's signature too for this long. */
export const PREVIOUS_SECRET_HONOURED_MS = 24 * 3_600_000;

/** The types the events list holds: every event an endpoint may subscribe to, and the test ping. */
export const LISTED_EVENT_TYPES = [...WEBHOOK_EVENTS, PING_EVENT] as const;
export const EVENTS_PAGE_SIZE = 50;
export const EVENTS_MAX_PAGE_SIZE = 200;
/**
 * A page's place in the list: its last event's time (milliseconds since 1970, UTC) and id. Opaque
 * to callers, who pass back the `next` they were given.
 */
export const EVENTS_CURSOR = /^[0-9]{1,15}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const webhookEventsInput = z.object({
  after: z
    .string({ error: webhookMessages.eventsCursorInvalid })
    .regex(EVENTS_CURSOR, { error: webhookMessages.eventsCursorInvalid })
    .describe('The next of the page before: the events after its last')
    .optional(),
  limit: z.coerce
    .number({ error: webhookMessages.eventsLimitInvalid })
    .int({ error: webhookMessages.eventsLimitInvalid })
    .min(1, { error: webhookMessages.eventsLimitInvalid })
    .max(EVENTS_MAX_PAGE_SIZE, { error: webhookMessages.eventsLimitInvalid })
    .default(EVENTS_PAGE_SIZE),
  type: z.enum(LISTED_EVENT_TYPES, { error: webhookMessages.eventInvalid }).optional(),
});
export type WebhookEventsInput = z.infer<typeof webhookEventsInput>;

/** An event as its deliveries sent it: `_id` is their webhook-id, the rest their body's fields. */
export const webhookEventItem = z.object({
  _id: z.uuid(),
  type: z.string(),
  timestamp: z.iso.datetime(),
  data: z.unknown(),
});
export type WebhookEventItem = z.infer<typeof webhookEventItem>;

export const webhookEventsPage = z.object({
  /** Oldest first: by time, then id. */
  items: z.array(webhookEventItem),
  /** The `after` of the next page; null on the last page. */
  next: z.string().nullable(),
});
export type WebhookEventsPage = z.infer<typeof webhookEventsPage>;
