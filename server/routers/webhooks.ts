import { messageAnswer } from '../../shared/schemas/common';
import {
  createdWebhookEndpoint,
  createWebhookInput,
  updateWebhookInput,
  webhookDeliveriesInput,
  webhookDeliveriesPage,
  webhookDelivery,
  webhookDeliveryInput,
  webhookEndpoint,
  webhookEndpointsAnswer,
  webhookIdInput,
} from '../../shared/schemas/webhooks';
import * as webhooks from '../services/webhooks';
import { adminProcedure, router } from '../trpc/init';

/** Webhook endpoints and their deliveries, kept by admins. */
export const webhooksRouter = router({
  list: adminProcedure.output(webhookEndpointsAnswer).query(({ ctx }) => webhooks.listEndpoints(ctx)),

  create: adminProcedure
    .input(createWebhookInput)
    .output(createdWebhookEndpoint)
    .mutation(({ ctx, input }) => webhooks.createEndpoint(ctx, input)),

  update: adminProcedure
    .input(updateWebhookInput)
    .output(webhookEndpoint)
    .mutation(({ ctx, input }) => webhooks.updateEndpoint(ctx, input)),

  delete: adminProcedure
    .input(webhookIdInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => webhooks.deleteEndpoint(ctx, input)),

  deliveries: adminProcedure
    .input(webhookDeliveriesInput)
    .output(webhookDeliveriesPage)
    .query(({ ctx, input }) => webhooks.listDeliveries(ctx, input)),

  retry: adminProcedure
    .input(webhookDeliveryInput)
    .output(webhookDelivery)
    .mutation(({ ctx, input }) => webhooks.retryDelivery(ctx, input)),

  test: adminProcedure
    .input(webhookIdInput)
    .output(webhookDelivery)
    .mutation(({ ctx, input }) => webhooks.sendTest(ctx, input)),
});
