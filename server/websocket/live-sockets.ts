import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AnyRouter, type ProcedureType, TRPCError } from '@trpc/server';
import type { WebSocket } from 'ws';
import type { Context } from '../trpc/context';
import {
  callProcedure,
  errorShapeOf,
  isStream,
  parseConnectionParams,
  parseSocketMessage,
  type SocketMessage,
  serializeResponse,
  subscriptionIterable,
  toTRPCError,
  trackedEvent,
} from '../trpc/internals';
import type { HeapCompaction } from './heap-compaction';

/**
 * tRPC's WebSocket protocol at /trpc, served by the portal itself: the one file that speaks it.
 *
 * What it buys against tRPC's own applyWSSHandler in its place (`npm run bench -- websocket`,
 * 2026-12-02, the same code otherwise): 10,000 subscribed sockets in 261 MB of server RSS against
 * 522 MB (+34.5 KiB a socket; goal 300 MB), 5,000 in 210 MB against 395 (goal 220), and a
 * notice fanned out to 1,000 sockets p95 57.6 ms against 78.4 (goal 60), to 9,999 280.7 ms
 * against 569.4 (goal 400). tRPC's adapter builds a dozen closures and two keep-alive timers per
 * connection, re-armed on each message, keeps Node's upgrade request for the socket's life, and
 * races every event of a subscription with the abort signal. Most sockets do one thing for hours:
 * hold the notification stream and receive a few events. This module speaks the same protocol to
 * the same client (wsLink, connectionParams, tracked events, PING/PONG, subscription.stop, the
 * same error shapes through the same errorFormatter; server/websocket/live.test.ts and
 * server/trpc/procedures.test.ts drive it with tRPC's own client), calls procedures through
 * callProcedure (server/trpc/internals.ts) like every transport, and differs in cost only:
 * - one small object per connection whose methods live on its prototype;
 * - nothing of the upgrade request kept beyond the facts the context needs (token, address, id);
 * - one keep-alive sweep for all sockets instead of two timers each;
 * - a subscription loop that awaits the iterator alone: a stop aborts the procedure's signal,
 *   which ends the stream (services/notifications.ts listens to it), so no race per event.
 *
 * Queries and mutations sent over a socket still work, through the same procedure call.
 */

/** What a connection's context is made of, read from the upgrade request once. */
export type SocketFacts = {
  /** The upgrade request's Authorization header (a bearer token), if any. */
  authorization: string | undefined;
  /** The x-request-id the upgrade request carried, if any. */
  requestIdHeader: string | string[] | undefined;
  ip: string;
  /** What the client sent as connectionParams (null when it sent none). */
  connectionParams: Record<string, string | undefined> | null;
  socket: WebSocket;
};

export type LiveSocketOptions = {
  router: AnyRouter;
  createContext(facts: SocketFacts): Promise<Context>;
  onError(failure: {
    error: TRPCError;
    path: string | undefined;
    type: ProcedureType | 'unknown';
    ctx: Context | undefined;
    input: unknown;
  }): void;
  /** The server sends PING after `pingMs` without a message and ends the socket `pongWaitMs` later. */
  keepAlive: { pingMs: number; pongWaitMs: number };
  /** Collects the garbage of connection storms (server/websocket/heap-compaction.ts). */
  heapCompaction?: HeapCompaction;
};

const OPEN = 1;
/** ws sends a Buffer as a binary frame unless told otherwise; tRPC's client reads text frames. */
const TEXT_FRAME = { binary: false } as const;
type RequestId = SocketMessage['id'];
type ContextResult = { ok: true; ctx: Context } | { ok: false; error: TRPCError };

/** One open socket: its context and its running subscriptions. */
class LiveConnection {
  /** Set once the context is made (tRPC's adapter passes it to onError and error shapes). */
  ctx: Context | undefined;
  /** Null until the connectionParams message arrives, when the client announced one. */
  private context: Promise<ContextResult> | null = null;
  /** Running subscriptions by the client's request id; created with the first one. */
  private subscriptions: Map<RequestId, AbortController> | undefined;
  /** performance-free clock for the keep-alive sweep: when the client last sent anything. */
  lastHeardAt = Date.now();
  /** When the sweep sent PING and has not heard back since (0: none outstanding). */
  pingSentAt = 0;

  constructor(
    private readonly server: LiveSocketServer,
    readonly socket: WebSocket,
    private readonly facts: Omit<SocketFacts, 'connectionParams' | 'socket'>,
    awaitsConnectionParams: boolean,
  ) {
    if (!awaitsConnectionParams) this.context = this.createContext(() => null);
  }

  private createContext(connectionParams: () => SocketFacts['connectionParams']): Promise<ContextResult> {
    return Promise.resolve()
      .then(() =>
        this.server.options.createContext({
          ...this.facts,
          connectionParams: connectionParams(),
          socket: this.socket,
        }),
      )
      .then(
        (ctx): ContextResult => {
          this.ctx = ctx;
          return { ok: true, ctx };
        },
        (cause: unknown): ContextResult => {
          const error = toTRPCError(cause);
          this.reportError(error, undefined, 'unknown', undefined);
          this.respondError(null, undefined, error, undefined, 'unknown', undefined);
          // As tRPC's adapter: the error frame first, then the socket closes.
          setImmediate(() => this.socket.close());
          return { ok: false, error };
        },
      );
  }

  onMessage(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void {
    this.lastHeardAt = Date.now();
    this.pingSentAt = 0;
    if (!isBinary) {
      const text = data.toString();
      if (text === 'PONG') return;
      if (text === 'PING') {
        this.send('PONG');
        return;
      }
    }
    if (!Buffer.isBuffer(data)) {
      const error = new TRPCError({
        code: 'UNPROCESSABLE_CONTENT',
        message: 'Unexpected WebSocket message format',
      });
      this.respondError(null, undefined, error, undefined, 'unknown', undefined);
      return;
    }
    const text = data.toString('utf8');
    if (!this.context) {
      this.context = this.createContext(() => readConnectionParams(text));
      return;
    }
    let messages: SocketMessage[];
    try {
      const json: unknown = JSON.parse(text);
      messages = (Array.isArray(json) ? json : [json]).map((raw) =>
        parseSocketMessage(this.server.options.router, raw),
      );
    } catch (cause) {
      const error = new TRPCError({ code: 'PARSE_ERROR', cause });
      this.respondError(null, undefined, error, undefined, 'unknown', undefined);
      return;
    }
    messages.forEach((message, index) => {
      void this.handle(message, index);
    });
  }

  private async handle(message: SocketMessage, batchIndex: number): Promise<void> {
    const { id, jsonrpc } = message;
    if (id === null) {
      const error = new TRPCError({ code: 'PARSE_ERROR', message: '`id` is required' });
      this.reportError(error, undefined, 'unknown', undefined);
      this.respondError(id, jsonrpc, error, undefined, 'unknown', undefined);
      return;
    }
    if (message.method === 'subscription.stop') {
      this.subscriptions?.get(id)?.abort();
      return;
    }
    const { path, lastEventId } = message.params;
    let { input } = message.params;
    // As tRPC's adapter: the client's lastEventId joins the input the procedure reads.
    if (lastEventId !== undefined) {
      input =
        typeof input === 'object' && input !== null && !Array.isArray(input)
          ? { ...input, lastEventId }
          : (input ?? { lastEventId });
    }
    const type = message.method;
    const stop = new AbortController();
    try {
      const context = await (this.context as Promise<ContextResult>);
      if (!context.ok) throw context.error;
      const result = await callProcedure({
        router: this.server.options.router,
        path,
        type,
        input,
        ctx:
          type === 'subscription'
            ? this.subscriptionContext(context.ctx, id, jsonrpc, stop.signal)
            : context.ctx,
        signal: stop.signal,
        batchIndex,
      });
      if (type !== 'subscription') {
        if (isStream(result)) {
          throw new TRPCError({
            code: 'UNSUPPORTED_MEDIA_TYPE',
            message: `Cannot return an async iterable or observable from a ${type} procedure with WebSockets`,
          });
        }
        this.respond({ id, jsonrpc, result: { type: 'data', data: result } });
        return;
      }
      const iterable = subscriptionIterable(result, stop.signal);
      if (!iterable) {
        throw new TRPCError({
          code: 'INTERNAL_SERVER_ERROR',
          message: `Subscription ${path} did not return an observable or a AsyncGenerator`,
        });
      }
      // Closed while the procedure started: the stream never runs (return() ends it unstarted).
      if (this.socket.readyState !== OPEN || stop.signal.aborted) {
        await iterable[Symbol.asyncIterator]().return?.();
        return;
      }
      this.subscriptions ??= new Map();
      if (this.subscriptions.has(id))
        throw new TRPCError({ code: 'BAD_REQUEST', message: `Duplicate id ${id}` });
      this.subscriptions.set(id, stop);
      // A subscription's first queries leave garbage too: it counts toward a storm like a socket.
      this.server.options.heapCompaction?.noteChurn();
      this.respond({ id, jsonrpc, result: { type: 'started' } });
      void this.run(id, jsonrpc, path, input, iterable[Symbol.asyncIterator](), stop.signal);
    } catch (cause) {
      const error = toTRPCError(cause);
      this.reportError(error, path, type, input);
      this.respondError(id, jsonrpc, error, path, type, input);
    }
  }

  /** Sends each event of a subscription until it ends, fails, or is stopped. */
  private async run(
    id: RequestId,
    jsonrpc: SocketMessage['jsonrpc'],
    path: string,
    input: unknown,
    iterator: AsyncIterator<unknown>,
    stopped: AbortSignal,
  ): Promise<void> {
    try {
      for (;;) {
        let next: IteratorResult<unknown>;
        try {
          next = await iterator.next();
        } catch (cause) {
          if (stopped.aborted) break;
          const error = toTRPCError(cause);
          this.reportError(error, path, 'subscription', input);
          this.respondError(id, jsonrpc, error, path, 'subscription', input);
          break;
        }
        // Stopped while it waited: the stream saw the abort and ended; nothing more is sent.
        if (next.done || stopped.aborted) break;
        const tracked = trackedEvent(next.value);
        this.respond(
          tracked
            ? trackedFrame(id, jsonrpc, tracked.id, tracked.data)
            : { id, jsonrpc, result: { type: 'data', data: next.value } },
        );
      }
      this.respond({ id, jsonrpc, result: { type: 'stopped' } });
    } finally {
      this.subscriptions?.delete(id);
      // Ends a generator that is still suspended at a yield (the stop came between two events).
      await iterator.return?.().catch(() => {});
    }
  }

  /**
   * The context of one subscription: the connection's, plus `sendTracked` for the events its
   * stream sends without yielding them (Context.sendTracked). Nothing is sent once it is stopped.
   */
  private subscriptionContext(
    ctx: Context,
    id: RequestId,
    jsonrpc: SocketMessage['jsonrpc'],
    stopped: AbortSignal,
  ): Context {
    return {
      ...ctx,
      sendTracked: (eventId, data) => {
        if (stopped.aborted || this.socket.readyState !== OPEN) return;
        this.socket.send(this.server.trackedFrameBytes(id, jsonrpc, eventId, data), TEXT_FRAME);
      },
    };
  }

  /** The socket closed: every subscription stops (their streams unsubscribe from the bus). */
  onClose(): void {
    for (const stop of this.subscriptions?.values() ?? []) stop.abort();
    this.subscriptions?.clear();
  }

  private respond(message: unknown): void {
    this.send(JSON.stringify(serializeResponse(this.server.options.router, message as never)));
  }

  private respondError(
    id: RequestId | null,
    jsonrpc: SocketMessage['jsonrpc'],
    error: TRPCError,
    path: string | undefined,
    type: ProcedureType | 'unknown',
    input: unknown,
  ): void {
    this.respond({
      id,
      jsonrpc,
      error: errorShapeOf(this.server.options.router, { error, type, path, input, ctx: this.ctx }),
    });
  }

  private reportError(
    error: TRPCError,
    path: string | undefined,
    type: ProcedureType | 'unknown',
    input: unknown,
  ) {
    this.server.options.onError({ error, path, type, ctx: this.ctx, input });
  }

  send(text: string): void {
    if (this.socket.readyState === OPEN) this.socket.send(text);
  }
}

/** The frame of one `tracked(eventId, data)` event of subscription `id`, as tRPC's adapter writes it. */
const trackedFrame = (id: RequestId, jsonrpc: SocketMessage['jsonrpc'], eventId: string, data: unknown) => ({
  id,
  jsonrpc,
  result: { type: 'data', id: eventId, data: { id: eventId, data } },
});

/** The first message of a client that announced connectionParams, read as tRPC's adapter reads it. */
function readConnectionParams(text: string): SocketFacts['connectionParams'] {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (cause) {
    throw new TRPCError({ code: 'PARSE_ERROR', message: 'Malformed TRPCConnectionParamsMessage', cause });
  }
  if (typeof message !== 'object' || message === null) {
    throw new TRPCError({ code: 'PARSE_ERROR', message: 'Malformed TRPCConnectionParamsMessage' });
  }
  return parseConnectionParams((message as { data?: unknown }).data);
}

/**
 * Every live connection of this instance, and the one keep-alive sweep over them: tRPC's adapter
 * armed two timers per socket and re-armed them on every message.
 */
export class LiveSocketServer {
  readonly connections = new Set<LiveConnection>();
  private sweep: NodeJS.Timeout | undefined;
  /** The last tracked frame made, for the next socket that sends the same event (trackedFrameBytes). */
  private lastTracked:
    | { id: RequestId; jsonrpc: SocketMessage['jsonrpc']; eventId: string; data: unknown; bytes: Buffer }
    | undefined;

  constructor(readonly options: LiveSocketOptions) {}

  /**
   * The bytes of a tracked event's frame, made once for every socket that sends the same one in
   * a row. A notice to every admin is one notification object that the bus hands to each admin's
   * stream in one loop (realtime/bus.ts), and each subscription of tRPC's client has the same
   * request id, so the 10,000 frames of a fan-out are one frame: serialised and encoded once
   * instead of 10,000 times, and 10,000 fewer strings for the young generation to collect in the
   * middle of the fan-out. Events are never changed once made, so the same object is
   * the same frame.
   */
  trackedFrameBytes(
    id: RequestId,
    jsonrpc: SocketMessage['jsonrpc'],
    eventId: string,
    data: unknown,
  ): Buffer {
    const last = this.lastTracked;
    if (
      last &&
      last.data === data &&
      last.id === id &&
      last.jsonrpc === jsonrpc &&
      last.eventId === eventId
    ) {
      return last.bytes;
    }
    const frame = serializeResponse(this.options.router, trackedFrame(id, jsonrpc, eventId, data) as never);
    const bytes = Buffer.from(JSON.stringify(frame));
    this.lastTracked = { id, jsonrpc, eventId, data, bytes };
    return bytes;
  }

  /** Serves tRPC's protocol on a socket the HTTP server just upgraded. */
  accept(socket: WebSocket, req: IncomingMessage): void {
    const connection = new LiveConnection(
      this,
      socket,
      {
        authorization: req.headers.authorization,
        requestIdHeader: req.headers['x-request-id'],
        ip: req.socket.remoteAddress ?? '',
      },
      // The client sends its connectionParams as its first message when the URL says so.
      new URL(req.url ?? '/', 'http://localhost').searchParams.get('connectionParams') === '1',
    );
    this.connections.add(connection);
    this.options.heapCompaction?.noteChurn();
    // The upgrade went through Fastify's routing, which left the request, its reply and their
    // headers reachable from the socket for its whole life (kilobytes per socket): a listener
    // holding them, and the response object @fastify/websocket assigned to the TCP socket. This
    // listener reports the same errors without them, and the response lets go of the socket.
    socket.removeAllListeners('error');
    const tcp = req.socket as typeof req.socket & { _httpMessage?: ServerResponse | null };
    tcp._httpMessage?.detachSocket(tcp);
    socket.on('message', (data, isBinary) => connection.onMessage(data, isBinary));
    // A malformed frame: ws closes the socket itself; the error must not reach the process.
    socket.on('error', (cause) =>
      this.options.onError({
        error: toTRPCError(cause),
        path: undefined,
        type: 'unknown',
        ctx: connection.ctx,
        input: undefined,
      }),
    );
    socket.once('close', () => {
      this.connections.delete(connection);
      connection.onClose();
      this.options.heapCompaction?.noteChurn();
    });
    this.startSweep();
  }

  private startSweep(): void {
    if (this.sweep) return;
    const { pingMs, pongWaitMs } = this.options.keepAlive;
    // Fine enough for timers of seconds: a ping at most a tick late, a dead socket ended at most a tick late.
    const tick = Math.max(50, Math.min(1_000, Math.floor(Math.min(pingMs, pongWaitMs) / 5)));
    this.sweep = setInterval(() => {
      const now = Date.now();
      for (const connection of this.connections) {
        if (connection.pingSentAt === 0) {
          if (now - connection.lastHeardAt >= pingMs) {
            connection.pingSentAt = now;
            connection.send('PING');
          }
        } else if (now - connection.pingSentAt >= pongWaitMs) {
          connection.socket.terminate();
        }
      }
      if (this.connections.size === 0) this.stopSweep();
    }, tick);
    this.sweep.unref();
  }

  private stopSweep(): void {
    clearInterval(this.sweep);
    this.sweep = undefined;
  }

  close(): void {
    this.stopSweep();
    this.options.heapCompaction?.close();
  }
}
