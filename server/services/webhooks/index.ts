/**
 * Webhooks: events.ts records events in the transaction of each change (the outbox),
 * deliver.ts is the job that sends one delivery, endpoints.ts what admins do with endpoints,
 * secret-rotation.ts an endpoint's new secret, event-log.ts the list of the events sent.
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
export { listEvents } from './event-log';
export { rotateSecret } from './secret-rotation';
