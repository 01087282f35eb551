import { messageAnswer } from '../../shared/schemas/common';
import {
  createdWebhookEndpoint,
  createWebhookInput,
  rotatedWebhookSecret,
  updateWebhookInput,
  webhookDeliveriesInput,
  webhookDeliveriesPage,
  webhookDelivery,
  webhookDeliveryInput,
  webhookEndpoint,
  webhookEndpointsAnswer,
  webhookEventsInput,
  webhookEventsPage,
  webhookIdInput,
} from '../../shared/schemas/webhooks';
import * as webhooks from '../services/webhooks';
import { adminProcedure, router } from '../trpc/init';
import examples from './webhooks.examples.json';

/** Webhook endpoints and their deliveries, kept by admins, and the events they sent. */
export const webhooksRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/webhooks',
        summary: 'Every webhook endpoint (its secret is never shown again)',
        tag: 'webhooks',
        scope: 'webhooks:manage',
        examples: examples.list,
      },
    })
    .output(webhookEndpointsAnswer)
    .query(({ ctx }) => webhooks.listEndpoints(ctx)),

  get: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/webhooks/:id',
        summary: 'One webhook endpoint (its secret is never shown again)',
        tag: 'webhooks',
        scope: 'webhooks:manage',
        examples: examples.get,
      },
    })
    .input(webhookIdInput)
    .output(webhookEndpoint)
    .query(({ ctx, input }) => webhooks.getEndpoint(ctx, input)),

  create: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/webhooks',
        summary: 'Add a webhook endpoint (public http(s) URL); the answer alone carries its secret',
        tag: 'webhooks',
        scope: 'webhooks:manage',
        successStatus: 201,
        examples: examples.create,
      },
    })
    .input(createWebhookInput)
    .output(createdWebhookEndpoint)
    .mutation(({ ctx, input }) => webhooks.createEndpoint(ctx, input)),

  update: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/webhooks/:id',
        summary: 'Change a webhook endpoint: url, events, description, active',
        tag: 'webhooks',
        scope: 'webhooks:manage',
        examples: examples.update,
      },
    })
    .input(updateWebhookInput)
    .output(webhookEndpoint)
    .mutation(({ ctx, input }) => webhooks.updateEndpoint(ctx, input)),

  delete: adminProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/admin/webhooks/:id',
        summary: 'Delete a webhook endpoint and its deliveries',
        tag: 'webhooks',
        scope: 'webhooks:manage',
        examples: examples.delete,
      },
    })
    .input(webhookIdInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => webhooks.deleteEndpoint(ctx, input)),

  deliveries: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/webhooks/:id/deliveries',
        summary: "A webhook endpoint's deliveries, newest first",
        tag: 'webhooks',
        scope: 'webhooks:manage',
        examples: examples.deliveries,
      },
    })
    .input(webhookDeliveriesInput)
    .output(webhookDeliveriesPage)
    .query(({ ctx, input }) => webhooks.listDeliveries(ctx, input)),

  retry: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/webhooks/:id/deliveries/:deliveryId/retry',
        summary: 'Send a delivery again now',
        tag: 'webhooks',
        scope: 'webhooks:manage',
        examples: examples.retry,
      },
    })
    .input(webhookDeliveryInput)
    .output(webhookDelivery)
    .mutation(({ ctx, input }) => webhooks.retryDelivery(ctx, input)),

  test: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/webhooks/:id/test',
        summary: 'Send a `ping` event to this endpoint alone',
        tag: 'webhooks',
        scope: 'webhooks:manage',
        examples: examples.test,
      },
    })
    .input(webhookIdInput)
    .output(webhookDelivery)
    .mutation(({ ctx, input }) => webhooks.sendTest(ctx, input)),

  rotateSecret: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/webhooks/:id/rotate-secret',
        summary:
          'A new signing secret (in this answer only); for 24 h deliveries carry the old signature too',
        tag: 'webhooks',
        scope: 'webhooks:manage',
        examples: examples.rotateSecret,
      },
    })
    .input(webhookIdInput)
    .output(rotatedWebhookSecret)
    .mutation(({ ctx, input }) => webhooks.rotateSecret(ctx, input)),

  events: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/events',
        summary: 'What the webhooks sent in the last 30 days, oldest first, to reconcile or replay',
        tag: 'webhooks',
        scope: 'webhooks:manage',
        examples: examples.events,
      },
    })
    .input(webhookEventsInput)
    .output(webhookEventsPage)
    .query(({ ctx, input }) => webhooks.listEvents(ctx, input)),
});
