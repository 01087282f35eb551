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

/** The three headers of a delivery attempt; the id is the event's, the same on every retry. */
export function webhookHeaders(secret: string, id: string, now: Date, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, now, body),
  };
}
