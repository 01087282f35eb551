/**
 * The words of webhooks: their settings, checks and deliveries. A module of its own, not
 * messages.ts: messages.ts travels in the first download of every visit, which has a budget
 * (scripts/check-bundle-budget.mjs), while only the server and lazy pages read these.
 */

/** Webhooks. */
export const webhookMessages = {
  /** Also the first words of urlNotPublicAddress: integrators match on them. */
  urlNotPublic: 'Webhook URL must be a public http(s) address',
  /** `kind` is ipaddr.js's range in words: loopback, private, link-local, ... */
  urlNotPublicAddress: (host: string, address: string, kind: string) =>
    `Webhook URL must be a public http(s) address: ${
      host === address ? `${address} is` : `${host} resolves to ${address},`
    } ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address (set WEBHOOK_ALLOW_PRIVATE=true to allow it on a closed network)`,
  urlNotResolved: (host: string) => `Could not resolve ${host}`,
  urlRequired: 'URL is required',
  eventsRequired: 'Choose at least one event',
  eventInvalid: 'Unknown event',
  notFound: 'Webhook not found',
  deliveryNotFound: 'Delivery not found',
  inactive: 'This webhook is deactivated: activate it first',
  nothingToChange: 'Give a url, events, description or active',
  deleted: 'Webhook deleted',
  eventsCursorInvalid: 'after is the next of an earlier page',
  eventsLimitInvalid: 'limit is a whole number from 1 to 200',
} as const;
