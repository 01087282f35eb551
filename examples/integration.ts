import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './api-types';
import { startWebhookReceiver, type VerifiedDelivery } from './webhook-receiver';

/**
 * An integration with an API key (docs/API.md "Integrators"): a CRM opens a deal in an agent's
 * name, uploads the signed contract to the deal's checklist, and hears over a signed webhook when
 * compliance accepts it; then it reconciles what it received with the portal's list of the events
 * it sent. The key needs the scopes `transactions:write` (open the deal, upload, attach) and
 * `webhooks:manage` (register the receiver, list the events).
 */

type Transaction = components['schemas']['Transaction'];
type ChecklistItem = components['schemas']['ChecklistItem'];
type ApiError = components['schemas']['Error'];
type SentEvent = components['schemas']['WebhooksEventsAnswer']['items'][number];
type EventType = NonNullable<paths['/api/admin/events']['get']['parameters']['query']>['type'];

export type IntegrationOptions = {
  baseUrl: string;
  /** `bpk_...`, made by an admin on the API Keys page. */
  apiKey: string;
  /** The agent the deal is for (an active agent; the key's creator must reach them). */
  agentId: string;
  /** The checklist item to fill, by its label in the deal's template. */
  checklistLabel: string;
  /** The file, e.g. `await openAsBlob('contract.pdf', { type: 'application/pdf' })` (node:fs). */
  document: { name: string; content: Blob };
  /**
   * The address the portal reaches this process on. A private one (127.0.0.1 here) is refused
   * unless the portal runs with WEBHOOK_ALLOW_PRIVATE=true; in production, a public https URL.
   */
  receiverHost?: string;
  /** A compliance reviewer accepts the document; the integration only waits to hear of it. */
  review(document: { transactionId: string; formId: string; version: number }): Promise<unknown>;
  timeoutMs?: number;
};

export type IntegrationResult = {
  /** Opening a deal for an agent id nobody has: the documented 400. */
  refused: { status: number; error: ApiError | undefined };
  transaction: Transaction;
  item: ChecklistItem;
  /** The verified `document.accepted` delivery of that item. */
  accepted: VerifiedDelivery;
  /** The portal's record of the `document.accepted` events it sent since the endpoint was added. */
  sent: SentEvent[];
  /** Those the receiver has no verified delivery of: what to process now (none here). */
  missed: SentEvent[];
};

export async function integrationTour(options: IntegrationOptions): Promise<IntegrationResult> {
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
  });

  // 1. Listen first: the endpoint's URL is where this receiver listens.
  const receiver = await startWebhookReceiver(options.receiverHost);
  const endpoint = await api.POST('/api/admin/webhooks', {
    body: { url: receiver.url, events: ['document.accepted'], description: 'CRM: accepted documents' },
  });
  if (!endpoint.data) {
    await receiver.close();
    throw new Error(`webhook registration refused: ${endpoint.error?.message}`);
  }
  // The secret is in this answer only: a real integration stores it where its receiver reads it.
  receiver.verifyWith(endpoint.data.secret);

  try {
    // 2. Open the deal in the agent's name. An Idempotency-Key makes a retry after a timeout safe.
    const deal = {
      streetAddress: '14 Integration Lane',
      city: 'Portland',
      state: 'OR',
      zip: '97205',
      type: 'Purchase',
      role: 'Buyer',
    };
    // An id that is not an active agent's (unknown, deactivated, an admin): 400 "No active agent
    // with this id", and nothing is created.
    const refused = await api.POST('/api/transactions', {
      body: { ...deal, agentId: randomUUID() },
    });
    const opened = await api.POST('/api/transactions', {
      params: { header: { 'Idempotency-Key': randomUUID() } },
      body: { ...deal, agentId: options.agentId },
    });
    if (!opened.data) throw new Error(`opening the deal refused: ${opened.error?.message}`);
    const transaction = opened.data;
    const form = transaction.forms.find((item) => item.label === options.checklistLabel);
    if (!form) throw new Error(`the deal's checklist has no item "${options.checklistLabel}"`);

    // 3. Upload the file to the deal (multipart, one part `file`), then attach it to the item.
    const { name, content } = options.document;
    const uploaded = await api.POST('/api/uploads/transactions/{id}', {
      params: { path: { id: transaction._id } },
      // The typed body names the one part; the serializer sends the bytes under it.
      body: { file: name },
      bodySerializer: ({ file }) => {
        const multipart = new FormData();
        multipart.append('file', content, file);
        return multipart;
      },
    });
    if (!uploaded.data) throw new Error(`upload refused: ${uploaded.error?.message}`);
    const attached = await api.PUT('/api/transactions/{id}/forms/{formId}', {
      params: { path: { id: transaction._id, formId: form._id } },
      body: { url: uploaded.data.key },
    });
    if (!attached.data) throw new Error(`attaching the file refused: ${attached.error?.message}`);
    const item = attached.data;

    // 4. Compliance reviews it; the portal then posts `document.accepted`, signed. (waitFor also
    // finds a delivery that arrived before it was called.)
    await options.review({ transactionId: transaction._id, formId: item._id, version: item.version });
    const accepted = await receiver.waitFor(
      ({ payload }) => payload.type === 'document.accepted' && payload.data._id === item._id,
      options.timeoutMs ?? 30_000,
    );

    // 5. Reconcile: what the portal sent against what arrived (after an outage of the receiver,
    // say). A delivery's webhook-id is the listed event's `_id`.
    const sent = await eventsSentSince(api, endpoint.data.createdAt, 'document.accepted');
    const arrived = new Set(receiver.received().map((delivery) => delivery.id));
    const missed = sent.filter((event) => !arrived.has(event._id));

    return {
      refused: { status: refused.response.status, error: refused.error },
      transaction,
      item,
      accepted,
      sent,
      missed,
    };
  } finally {
    await api.DELETE('/api/admin/webhooks/{id}', { params: { path: { id: endpoint.data._id } } });
    await receiver.close();
  }
}

/**
 * The events of one type the portal sent since `since` (it keeps 30 days), oldest first: every
 * page of GET /api/admin/events, each page's `next` passed back as the next one's `after`.
 */
export async function eventsSentSince(
  api: Client<paths>,
  since: string,
  type: EventType,
): Promise<SentEvent[]> {
  const events: SentEvent[] = [];
  let after: string | undefined;
  do {
    const page = await api.GET('/api/admin/events', {
      params: { query: after ? { type, limit: 200, after } : { type, limit: 200 } },
    });
    if (!page.data) throw new Error(`listing the events refused: ${page.error?.message}`);
    events.push(...page.data.items.filter((event) => event.timestamp >= since));
    after = page.data.next ?? undefined;
  } while (after);
  return events;
}
