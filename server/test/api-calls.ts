import net from 'node:net';
import { createTRPCUntypedClient, createWSClient, type TRPCClientError, wsLink } from '@trpc/client';
import type { FastifyInstance, InjectOptions } from 'fastify';
import WebSocket from 'ws';
import type { AppRouter } from '../trpc/router';

/**
 * Requests the way real clients make them, for tests that sweep many calls (the authorization
 * matrix, the object-level properties): tRPC over plain HTTP, multipart uploads, and tRPC
 * subscriptions over a real WebSocket.
 */

/** The smallest file the upload routes accept: its first bytes say PDF. */
export const TINY_PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

const MULTIPART_BOUNDARY = '----portal-test-boundary';
export const MULTIPART_CONTENT_TYPE = `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`;

/** What precedes the file's bytes in the body below (tests that stream a body by hand send it first). */
export function multipartHead(filename: string): Buffer {
  return Buffer.from(
    `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
}
export const MULTIPART_TAIL = Buffer.from(`\r\n--${MULTIPART_BOUNDARY}--\r\n`);

/** A multipart/form-data body with one file in the field the upload routes read (`file`). */
export function multipartBody(file: Buffer, filename = 'contract.pdf') {
  const payload = Buffer.concat([multipartHead(filename), file, MULTIPART_TAIL]);
  return { payload, headers: { 'content-type': MULTIPART_CONTENT_TYPE } };
}

/** POST of one file to an upload route through app.inject, as `token`'s user (anonymous without one). */
export function injectUpload(
  app: FastifyInstance,
  url: string,
  token: string | undefined,
  file: Buffer,
  filename = 'contract.pdf',
) {
  const body = multipartBody(file, filename);
  return app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...bearer(token) },
  });
}

/**
 * Starts an upload over a raw socket: a file that claims `declaredBytes`, of which only the PDF's
 * opening bytes and `fillerBytes` more are sent,
 * without finishing it: the caller hangs up (socket.destroy()) once the server is writing.
 */
export async function startUnfinishedUpload(options: {
  port: number;
  path: string;
  token: string;
  declaredBytes: number;
  /** Bytes sent after the PDF's opening bytes. */
  fillerBytes: number;
}): Promise<net.Socket> {
  const head = multipartHead('half.pdf');
  const socket = net.connect(options.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST ${options.path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${options.token}\r\n` +
      `Content-Type: ${MULTIPART_CONTENT_TYPE}\r\nContent-Length: ${head.length + options.declaredBytes + MULTIPART_TAIL.length}\r\n\r\n`,
  );
  socket.write(head);
  socket.write(Buffer.concat([TINY_PDF, Buffer.alloc(options.fillerBytes, 7)]));
  return socket;
}

export const bearer = (token: string | undefined): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

/**
 * app.inject options for one tRPC call over HTTP, as @trpc/client's httpLink sends it without a
 * transformer: a query is GET /trpc/<path>?input=<JSON>, a mutation POST /trpc/<path> with a JSON body.
 */
export function trpcRequest(
  path: string,
  type: 'query' | 'mutation',
  input: unknown,
  headers: Record<string, string> = {},
): InjectOptions {
  if (type === 'query') {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return { method: 'GET', url: `/trpc/${path}${query}`, headers };
  }
  // A mutation without input still sends a JSON body, `{}` (a JSON content type with an empty
  // body is Fastify's 400, not the procedure's answer; tRPC ignores the object).
  return {
    method: 'POST',
    url: `/trpc/${path}`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: input === undefined ? '{}' : JSON.stringify(input),
  };
}

const isTracked = (event: unknown): event is { id: string; data: unknown } =>
  typeof event === 'object' && event !== null && 'id' in event && 'data' in event;

export type LiveSubscription<T> = {
  /** Every event received so far, in order. */
  readonly events: T[];
  /** Resolves once the server accepted the subscription (it passed authentication). */
  readonly started: Promise<void>;
  /** Resolves with the HTTP status of the error if the server refused or ended it with one. */
  readonly failed: Promise<number>;
  close(): void;
};

/**
 * A tRPC subscription over a real WebSocket to a listening app (`ws://host:port/trpc`), the token
 * in connectionParams as the browser client sends it. Reconnects are off: a dropped socket is a
 * failure for these tests, not something to paper over.
 */
export function subscribeOverWebSocket<T = unknown>(
  url: string,
  path: string,
  input: unknown,
  token: string | undefined,
): LiveSubscription<T> {
  const events: T[] = [];
  let onStarted!: () => void;
  let onFailed!: (status: number) => void;
  const started = new Promise<void>((resolve) => {
    onStarted = resolve;
  });
  const failed = new Promise<number>((resolve) => {
    onFailed = resolve;
  });
  const wsClient = createWSClient({
    url,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket, // Node 20 has no global WebSocket
    connectionParams: () => (token ? { token } : null),
    retryDelayMs: () => 60_000,
  });
  const client = createTRPCUntypedClient<AppRouter>({ links: [wsLink({ client: wsClient })] });
  const subscription = client.subscription(path, input, {
    onStarted: () => onStarted(),
    // A tracked event arrives as {id, data}; the app's events are the data.
    onData: (event) => events.push(isTracked(event) ? (event.data as T) : (event as T)),
    onError: (error: TRPCClientError<AppRouter>) => onFailed(error.data?.httpStatus ?? 0),
  });
  return {
    events,
    started,
    failed,
    close: () => {
      subscription.unsubscribe();
      void wsClient.close();
    },
  };
}
