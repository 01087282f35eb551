import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A real webhook receiver for tests: node:http on a free port of 127.0.0.1. Every
 * request is kept with its headers, its body and whether `standardwebhooks` verified its
 * signature with the endpoint's secret; `answer` decides the status code of each.
 */

export type Received = {
  id: string;
  timestamp: string;
  /** The webhook-signature header as sent: one or more space-separated `v1,<signature>`. */
  signature: string;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  verified: boolean;
  status: number;
};

export type Receiver = {
  readonly url: string;
  readonly received: Received[];
  /** The secret to verify with (set once the endpoint exists). */
  secret: string | undefined;
  answer: (request: Omit<Received, 'status'>, index: number) => number;
  /** Stops listening (a receiver that is down), then listens again on the same port. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
};

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  let port = 0;
  const receiver: Receiver = {
    url: '',
    received: [],
    secret: undefined,
    answer: () => 204,
    stop,
    restart: () => listen(port),
    close: stop,
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(request.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
      };
      let verified = false;
      try {
        if (receiver.secret) {
          new Webhook(receiver.secret).verify(body, headers);
          verified = true;
        }
      } catch {
        verified = false;
      }
      const seen = {
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        payload: JSON.parse(body) as Received['payload'],
        verified,
      };
      const status = receiver.answer(seen, receiver.received.length);
      receiver.received.push({ ...seen, status });
      response.writeHead(status).end();
    });
  });
  function listen(at: number) {
    return new Promise<void>((resolve) => {
      server.listen(at, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }
  function stop() {
    return new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  }
  await listen(0);
  Object.assign(receiver, { url: `http://127.0.0.1:${port}${path}` });
  return receiver;
}
