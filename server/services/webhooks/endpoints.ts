import type {
  CreatedWebhookEndpoint,
  CreateWebhookInput,
  DeliveryStatus,
  UpdateWebhookInput,
  WebhookDeliveriesInput,
  WebhookDeliveriesPage,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
} from '../../../shared/schemas/webhooks';
import { webhookMessages } from '../../../shared/webhook-messages';
import { AppError } from '../../errors';
import { enqueueJobs, JOB_KINDS } from '../../queue/enqueue';
import { AddressRefused, resolveWebhookAddresses } from '../../webhooks/addresses';
import { newWebhookSecret } from '../../webhooks/signing';
import { actorOf, recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { pageCount } from '../paging';
import { assertBrokerageWide } from '../reach';
import { DELIVER_JOB_MAX_ATTEMPTS, deliverJobKey, emitPing } from './events';
import { sealSecret } from './secrets';

/**
 * Webhook endpoints, kept by admins: add one (its secret is shown in
 * that answer only), change, deactivate or delete it, list its deliveries, retry one, send a ping.
 */

const endpointSelect = {
  id: true,
  url: true,
  events: true,
  description: true,
  active: true,
  createdAt: true,
} as const;

type EndpointRow = {
  id: string;
  url: string;
  events: string[];
  description: string;
  active: boolean;
  createdAt: Date;
};

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  _id: row.id,
  url: row.url,
  events: row.events as WebhookEventType[],
  description: row.description,
  active: row.active,
  createdAt: row.createdAt.toISOString(),
});

const notFound = () => new AppError('NOT_FOUND', webhookMessages.notFound);

/**
 * A name that resolves, to public addresses only unless WEBHOOK_ALLOW_PRIVATE (checked again at
 * every delivery); the 400 says which of the two failed.
 */
async function assertPublicUrl(ctx: CallerContext, url: string): Promise<void> {
  try {
    await resolveWebhookAddresses(new URL(url), { allowPrivate: ctx.deps.config.webhookAllowPrivate });
  } catch (error) {
    if (!(error instanceof AddressRefused) && !(error instanceof TypeError)) throw error;
    const message = error instanceof AddressRefused ? error.message : webhookMessages.urlNotPublic;
    throw new AppError('BAD_REQUEST', message, [{ path: 'url', message }]);
  }
}

async function findEndpoint(ctx: CallerContext, id: string): Promise<EndpointRow> {
  const row = await ctx.db.webhookEndpoint.findUnique({ where: { id }, select: endpointSelect });
  if (!row) throw notFound();
  return row;
}

/**
 * Webhooks are the brokerage's: every event of every office goes to its endpoints, and the
 * deliveries hold those events whole. So even reading them is for brokerage-wide admins (403 for
 * an office admin), unlike the other shared settings.
 */
export async function listEndpoints(ctx: CallerContext): Promise<WebhookEndpoint[]> {
  assertBrokerageWide(ctx.user);
  const rows = await ctx.db.webhookEndpoint.findMany({
    select: endpointSelect,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toEndpoint);
}

/** One webhook endpoint, as the list shows it (its secret is never shown again). */
export async function getEndpoint(ctx: CallerContext, { id }: { id: string }): Promise<WebhookEndpoint> {
  assertBrokerageWide(ctx.user);
  return toEndpoint(await findEndpoint(ctx, id));
}

export async function createEndpoint(
  ctx: CallerContext,
  input: CreateWebhookInput,
): Promise<CreatedWebhookEndpoint> {
  assertBrokerageWide(ctx.user);
  await assertPublicUrl(ctx, input.url);
  const secret = newWebhookSecret();
  return ctx.db.$transaction(async (tx) => {
    const row = await tx.webhookEndpoint.create({
      data: {
        url: input.url,
        events: input.events,
        description: input.description ?? '',
        secretSealed: sealSecret(ctx.deps, secret),
        createdById: ctx.user.id,
      },
      select: endpointSelect,
    });
    const answer = toEndpoint(row);
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'webhook.create',
      entity: 'WebhookEndpoint',
      entityId: row.id,
      after: answer,
    });
    return { ...answer, secret };
  });
}

export async function updateEndpoint(
  ctx: CallerContext,
  input: UpdateWebhookInput,
): Promise<WebhookEndpoint> {
  assertBrokerageWide(ctx.user);
  const before = toEndpoint(await findEndpoint(ctx, input.id));
  if (input.url !== undefined && input.url !== before.url) await assertPublicUrl(ctx, input.url);
  return ctx.db.$transaction(async (tx) => {
    const row = await tx.webhookEndpoint.update({
      where: { id: input.id },
      data: {
        url: input.url,
        events: input.events,
        description: input.description,
        active: input.active,
        // Activated again: the 24 hours of failures start over.
        ...(input.active ? { failingSince: null } : {}),
      },
      select: endpointSelect,
    });
    const after = toEndpoint(row);
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'webhook.update',
      entity: 'WebhookEndpoint',
      entityId: row.id,
      before,
      after,
    });
    return after;
  });
}

/** Deletes the endpoint and its deliveries (their pending jobs find nothing and end). */
export async function deleteEndpoint(ctx: CallerContext, { id }: { id: string }) {
  assertBrokerageWide(ctx.user);
  const before = toEndpoint(await findEndpoint(ctx, id));
  await ctx.db.$transaction(async (tx) => {
    await tx.webhookEndpoint.delete({ where: { id } });
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'webhook.delete',
      entity: 'WebhookEndpoint',
      entityId: id,
      before,
    });
  });
  return { message: webhookMessages.deleted };
}

type DeliveryRow = {
  id: string;
  eventId: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  event: { type: string };
};

const deliverySelect = {
  id: true,
  eventId: true,
  status: true,
  attempts: true,
  lastStatusCode: true,
  lastError: true,
  nextAttemptAt: true,
  createdAt: true,
  event: { select: { type: true } },
} as const;

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  _id: row.id,
  eventId: row.eventId,
  event: row.event.type,
  status: row.status as DeliveryStatus,
  attempts: row.attempts,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

/** An endpoint's deliveries, newest first. */
export async function listDeliveries(
  ctx: CallerContext,
  input: WebhookDeliveriesInput,
): Promise<WebhookDeliveriesPage> {
  assertBrokerageWide(ctx.user);
  await findEndpoint(ctx, input.id);
  const where = { endpointId: input.id };
  const [rows, total] = await Promise.all([
    ctx.db.webhookDelivery.findMany({
      where,
      select: deliverySelect,
      orderBy: { seq: 'desc' },
      skip: (input.page - 1) * input.limit,
      take: input.limit,
    }),
    ctx.db.webhookDelivery.count({ where }),
  ]);
  return { items: rows.map(toDelivery), totalPages: pageCount(total, input.limit), totalItems: total };
}

async function findDelivery(ctx: CallerContext, endpointId: string, deliveryId: string) {
  const row = await ctx.db.webhookDelivery.findFirst({
    where: { id: deliveryId, endpointId },
    select: deliverySelect,
  });
  if (!row) throw new AppError('NOT_FOUND', webhookMessages.deliveryNotFound);
  return row;
}

/**
 * Sends a delivery again now, whatever its state: a failed one gets one more attempt (more, on
 * the usual schedule, if it has attempts left), a pending one stops waiting for its next attempt.
 */
export async function retryDelivery(ctx: CallerContext, input: { id: string; deliveryId: string }) {
  assertBrokerageWide(ctx.user);
  const endpoint = await findEndpoint(ctx, input.id);
  if (!endpoint.active) throw new AppError('CONFLICT', webhookMessages.inactive);
  await findDelivery(ctx, input.id, input.deliveryId);
  const now = ctx.deps.clock.now();
  await ctx.db.$transaction(async (tx) => {
    await tx.webhookDelivery.update({
      where: { id: input.deliveryId },
      data: { status: 'pending', nextAttemptAt: now },
    });
    await enqueueJobs(tx, [
      {
        kind: JOB_KINDS.deliverWebhook,
        payload: { deliveryId: input.deliveryId },
        jobKey: deliverJobKey(input.deliveryId),
        maxAttempts: DELIVER_JOB_MAX_ATTEMPTS,
      },
    ]);
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'webhook.retry',
      entity: 'WebhookDelivery',
      entityId: input.deliveryId,
    });
  });
  return toDelivery(await findDelivery(ctx, input.id, input.deliveryId));
}

/** The test button: a `ping` event to this endpoint alone. */
export async function sendTest(ctx: CallerContext, { id }: { id: string }): Promise<WebhookDelivery> {
  assertBrokerageWide(ctx.user);
  const endpoint = await findEndpoint(ctx, id);
  if (!endpoint.active) throw new AppError('CONFLICT', webhookMessages.inactive);
  const deliveryId = await emitPing(ctx, id);
  if (!deliveryId) throw notFound(); // deleted between the two statements
  return toDelivery(await findDelivery(ctx, id, deliveryId));
}
