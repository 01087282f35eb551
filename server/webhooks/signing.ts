import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com), made by the specification's
 * own library, so that receivers verifying with any of its libraries agree with us: the secret is
 * `whsec_<base64 of 32 random bytes>`, the signature `v1,<base64 HMAC-SHA256 of
 * "<webhook-id>.<webhook-timestamp>.<body>" keyed with the secret's bytes>`.
 */

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The three headers of a delivery attempt; the id is the event's, the same on every retry. One
 * signature per secret, space-separated, in the order given (the current secret first, then the
 * one a rotation replaced while it is still honoured): a receiver's library accepts the request
 * when any of them matches its secret, so it can switch secrets without refusing a delivery.
 */
export function webhookHeaders(
  secrets: readonly [string, ...string[]],
  id: string,
  now: Date,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, now, body)).join(' '),
  };
}
