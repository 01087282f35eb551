import WebSocket from 'ws';

/**
 * A notification subscriber for benchmarks that open thousands of sockets: the same frames the
 * portal's client (tRPC's wsLink) sends and reads, byte for byte in what the server sees
 * (`?connectionParams=1`, the connectionParams message, one `subscription` to
 * notifications.onNotification, PONG to the server's PING), without tRPC's client machinery in
 * the benchmark process. With 10,000 full tRPC clients the benchmark's own process spent more
 * time delivering events to its callbacks than the server spent sending them, and the last
 * arrival measured the client. The realtime tests and the browser use the real client.
 */

export type LiveEvent = { id: string; message: string };

export type LiveClient = {
  /** Resolves when the socket is open (the upgrade is done). */
  opened: Promise<void>;
  /** Sends the connectionParams message and the subscription (at once unless `deferred`). */
  subscribe(): void;
  /** Sends the connectionParams message alone: the server makes the socket's context. */
  authenticate(): void;
  /** Resolves when the server answered the subscription with `started`. */
  started: Promise<void>;
  /** Resolves when the socket is closed, with the close code. */
  closed: Promise<number>;
  close(): void;
};

const SUBSCRIPTION_ID = 1;

export function openLiveClient(options: {
  url: string;
  token: string;
  localAddress?: string;
  /** Called for every notification, in the socket's message handler. */
  onEvent(event: LiveEvent): void;
  /** The id of the last event seen, to resume from (as the client's tracked resume). */
  lastEventId?: string;
  /** Open the socket only; the caller sends authenticate() and subscribe() (memory by stage). */
  deferred?: boolean;
}): LiveClient {
  const socket = new WebSocket(`${options.url}?connectionParams=1`, {
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    perMessageDeflate: false,
  });
  let resolveStarted: () => void = () => {};
  let rejectStarted: (error: Error) => void = () => {};
  const started = new Promise<void>((resolve, reject) => {
    resolveStarted = resolve;
    rejectStarted = reject;
  });
  const closed = new Promise<number>((resolve) => {
    socket.once('close', (code) => {
      rejectStarted(new Error(`the socket closed (${code}) before the subscription started`));
      resolve(code);
    });
  });
  socket.on('error', (error) => rejectStarted(error));
  const opened = new Promise<void>((resolve) => socket.once('open', () => resolve()));
  let authenticated = false;
  const authenticate = () => {
    if (authenticated) return;
    authenticated = true;
    socket.send(JSON.stringify({ method: 'connectionParams', data: { token: options.token } }));
  };
  const subscribe = () => {
    authenticate();
    socket.send(
      JSON.stringify({
        id: SUBSCRIPTION_ID,
        method: 'subscription',
        params: { path: 'notifications.onNotification', lastEventId: options.lastEventId },
      }),
    );
  };
  if (!options.deferred) void opened.then(subscribe);
  socket.on('message', (data, isBinary) => {
    const text = isBinary ? '' : data.toString();
    if (text === 'PING') {
      socket.send('PONG');
      return;
    }
    const frame = JSON.parse(text) as {
      id: number | null;
      result?: { type: string; data?: { id: string; data: { message: string } } };
      error?: { message: string };
    };
    if (frame.error) {
      rejectStarted(new Error(`the server refused the subscription: ${frame.error.message}`));
      return;
    }
    if (frame.result?.type === 'started') resolveStarted();
    else if (frame.result?.type === 'data' && frame.result.data) {
      options.onEvent({ id: frame.result.data.id, message: frame.result.data.data.message });
    }
  });
  // A socket closed before it started rejects `started`; only callers that wait for it care.
  started.catch(() => {});
  opened.catch(() => {});
  return {
    opened,
    authenticate,
    subscribe,
    started,
    closed,
    close: () => (socket.readyState === WebSocket.CONNECTING ? socket.terminate() : socket.close()),
  };
}
