import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A webhook receiver in a few lines of node:http: every delivery is verified with the
 * `standardwebhooks` library on its raw body before it is parsed (docs/API.md "Webhooks").
 * The portal delivers at least once, so a `webhook-id` seen before is answered 204 and kept once.
 */

/** The body the portal posts: `data` is the resource as the REST API answers it. */
export type WebhookPayload = { type: string; timestamp: string; data: Record<string, unknown> };

export type VerifiedDelivery = {
  /** The `webhook-id` header: the event's id, the same on every retry of it. */
  id: string;
  payload: WebhookPayload;
};

export type WebhookReceiver = {
  /** Where the portal should post, e.g. http://127.0.0.1:41234/portal-events */
  url: string;
  /** The endpoint's `whsec_...` secret, answered once when the endpoint is registered. */
  verifyWith(secret: string): void;
  /** Every verified delivery so far, once each, in the order they came. */
  received(): readonly VerifiedDelivery[];
  /** Resolves with the first verified delivery that matches, received before or after the call. */
  waitFor(matches: (delivery: VerifiedDelivery) => boolean, timeoutMs: number): Promise<VerifiedDelivery>;
  close(): Promise<void>;
};

/** Larger bodies are refused unread: the portal's events are a few kilobytes. */
const MAX_BODY_BYTES = 1024 * 1024;

export async function startWebhookReceiver(host = '127.0.0.1'): Promise<WebhookReceiver> {
  let verifier: Webhook | undefined;
  const received: VerifiedDelivery[] = [];
  const waiters = new Set<(delivery: VerifiedDelivery) => void>();

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        response.writeHead(413).end();
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => {
      // Not ready yet: a non-2xx answer makes the portal retry this delivery a little later.
      if (!verifier) return void response.writeHead(503).end();
      const headers = {
        'webhook-id': String(request.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
      };
      let payload: WebhookPayload;
      try {
        // Throws on a wrong signature, or a timestamp more than 5 minutes off (a replay).
        payload = verifier.verify(Buffer.concat(chunks).toString('utf8'), headers) as WebhookPayload;
      } catch {
        return void response.writeHead(401).end();
      }
      response.writeHead(204).end();
      if (received.some((seen) => seen.id === headers['webhook-id'])) return;
      const delivery = { id: headers['webhook-id'], payload };
      received.push(delivery);
      for (const notify of waiters) notify(delivery);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host}:${port}/portal-events`,
    verifyWith(secret) {
      verifier = new Webhook(secret);
    },
    received: () => [...received],
    waitFor(matches, timeoutMs) {
      const already = received.find(matches);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching webhook delivery within ${timeoutMs} ms`));
        }, timeoutMs);
        function check(delivery: VerifiedDelivery) {
          if (!matches(delivery)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(delivery);
        }
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // the portal's kept-alive connections would hold close() open
      }),
  };
}
