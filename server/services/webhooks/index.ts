/**
 * Webhooks: events.ts records events in the transaction of each change (the outbox),
 * deliver.ts is the job that sends one delivery, endpoints.ts what admins do with endpoints.
 */
export {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  retryDelivery,
  sendTest,
  updateEndpoint,
} from './endpoints';
