import { z } from 'zod';
import { cda } from './commission';
import { idSchema } from './common';
import { signatureRequest } from './esign';
import { keyDate } from './key-dates';
import { transaction, transactionForm } from './transactions';
import { publicUser } from './users';
import { PING_EVENT, WEBHOOK_EVENTS, type WebhookEventType } from './webhooks';

/**
 * What each webhook event's `data` is, as the portal sends it (docs/API.md "Webhooks"): the
 * resource as the REST API answers it, plus the `transactionId` a checklist item, a key date or a
 * signature request belongs to. The OpenAPI document's `webhooks` section is built from these.
 */

const withTransaction = <Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) =>
  schema.extend({ transactionId: idSchema });

const checklistItemEvent = withTransaction(transactionForm);

export const WEBHOOK_EVENT_DATA: Record<WebhookEventType | typeof PING_EVENT, z.ZodType> = {
  'transaction.created': transaction,
  'transaction.updated': transaction,
  'transaction.deleted': transaction,
  'transaction.closed': transaction,
  'transaction.compliant': transaction,
  'document.uploaded': checklistItemEvent,
  'document.accepted': checklistItemEvent,
  'document.rejected': checklistItemEvent,
  'waiver.requested': checklistItemEvent,
  'user.registered': publicUser,
  'user.activated': publicUser,
  'user.deactivated': publicUser,
  'key_date.due': withTransaction(keyDate),
  // Without its PDF link: a link expires, the event does not (fetch it from the API).
  'cda.issued': cda.omit({ pdfUrl: true }),
  'cda.paid': cda.omit({ pdfUrl: true }),
  'signature.completed': withTransaction(signatureRequest),
  ping: z.object({ webhookId: idSchema }),
};

/** Every event type a delivery can carry, in the order the events list them; the test ping last. */
export const WEBHOOK_EVENT_TYPES = [...WEBHOOK_EVENTS, PING_EVENT] as const;
