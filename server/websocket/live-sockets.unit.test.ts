import type { AddressInfo } from 'node:net';
import { initTRPC } from '@trpc/server';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { z } from 'zod';
import type { Context } from '../trpc/context';
import { LiveSocketServer } from './live-sockets';

/**
 * The protocol details of server/websocket/live-sockets.ts that the application's tests do not
 * reach with the real client (keep-alive timing, stops, malformed messages). The procedures and
 * the authentication over a socket are tested through the app (server/trpc/procedures.test.ts,
 * server/websocket/live.test.ts, the authorization matrix).
 */

const t = initTRPC.context<Context>().create();
const router = t.router({
  echo: t.procedure.input(z.string().optional()).query(({ input }) => input ?? 'nothing'),
  ticks: t.procedure.subscription(async function* ({ signal }) {
    yield 'first';
    await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve()));
  }),
  /** Hands its Context.sendTracked out, as the notification stream does once it is caught up. */
  direct: t.procedure.subscription(async function* ({ ctx, signal }) {
    if (ctx.sendTracked) directs.push(ctx.sendTracked);
    yield* [];
    await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve()));
  }),
});
let directs: Array<NonNullable<Context['sendTracked']>> = [];

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0)) step();
});

async function serve(keepAlive = { pingMs: 60_000, pongWaitMs: 60_000 }) {
  const live = new LiveSocketServer({
    router,
    createContext: async () => ({}) as Context,
    onError: () => {},
    keepAlive,
  });
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', (socket, req) => live.accept(socket, req));
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  cleanup.push(() => {
    live.close();
    for (const client of wss.clients) client.terminate();
    wss.close();
  });
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
}

function connect(url: string) {
  const socket = new WebSocket(url);
  const frames: string[] = [];
  const binaryFrames: string[] = [];
  socket.on('message', (data, isBinary) => (isBinary ? binaryFrames : frames).push(data.toString()));
  cleanup.push(() => socket.terminate());
  const next = (count: number) =>
    new Promise<string[]>((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        if (frames.length >= count) resolve(frames.slice(0, count));
        else if (Date.now() - started > 5_000)
          reject(new Error(`only ${frames.length} frames: ${frames.join(' ')}`));
        else setTimeout(check, 10);
      };
      check();
    });
  return {
    socket,
    frames,
    binaryFrames,
    next,
    opened: new Promise((resolve) => socket.once('open', resolve)),
  };
}

describe('the WebSocket protocol at /trpc', () => {
  it('answers a query, PONG to PING, and a parse error for a frame that is not JSON', async () => {
    const client = connect(await serve());
    await client.opened;
    client.socket.send(JSON.stringify({ id: 1, method: 'query', params: { path: 'echo', input: 'hi' } }));
    client.socket.send('PING');
    client.socket.send('{not json');
    // PONG and the parse error are answered at once; the query after its procedure ran.
    const [pong, parseError, answer] = await client.next(3);
    expect(pong).toBe('PONG');
    expect(JSON.parse(parseError as string)).toMatchObject({
      id: null,
      error: { data: { code: 'PARSE_ERROR' } },
    });
    expect(JSON.parse(answer as string)).toEqual({ id: 1, result: { type: 'data', data: 'hi' } });
  });

  it('starts a subscription, sends its events, and stops it when asked', async () => {
    const client = connect(await serve());
    await client.opened;
    client.socket.send(JSON.stringify({ id: 7, method: 'subscription', params: { path: 'ticks' } }));
    const [started, first] = await client.next(2);
    expect(JSON.parse(started as string)).toEqual({ id: 7, result: { type: 'started' } });
    expect(JSON.parse(first as string)).toEqual({ id: 7, result: { type: 'data', data: 'first' } });
    client.socket.send(JSON.stringify({ id: 7, method: 'subscription.stop' }));
    const frames = await client.next(3);
    expect(JSON.parse(frames[2] as string)).toEqual({ id: 7, result: { type: 'stopped' } });
  });

  it('sends an event handed to several streams as the same text frame, each with its own request id', async () => {
    directs = [];
    const url = await serve();
    const clients = [connect(url), connect(url), connect(url)];
    await Promise.all(clients.map((client) => client.opened));
    for (const [n, client] of clients.entries()) {
      client.socket.send(
        JSON.stringify({ id: n < 2 ? 3 : 4, method: 'subscription', params: { path: 'direct' } }),
      );
    }
    await Promise.all(clients.map((client) => client.next(1)));
    await expect.poll(() => directs.length).toBe(3);
    const notice = { message: 'to every admin' };
    for (const send of directs) send('e1', notice);
    // A new event, even one equal to the last, is a frame of its own.
    for (const send of directs) send('e2', { ...notice });
    const frames = await Promise.all(clients.map((client) => client.next(3)));
    const event = (id: number, eventId: string) => ({
      id,
      result: { type: 'data', id: eventId, data: { id: eventId, data: notice } },
    });
    expect(frames.map((each) => each.slice(1).map((frame) => JSON.parse(frame)))).toEqual([
      [event(3, 'e1'), event(3, 'e2')],
      [event(3, 'e1'), event(3, 'e2')],
      [event(4, 'e1'), event(4, 'e2')],
    ]);
    for (const client of clients) expect(client.binaryFrames).toEqual([]);
  });

  it('pings a quiet client and ends the socket when it does not answer', async () => {
    const client = connect(await serve({ pingMs: 200, pongWaitMs: 200 }));
    client.socket.pause(); // hears nothing, so answers nothing
    await client.opened;
    const closed = new Promise<number>((resolve) => client.socket.once('close', resolve));
    client.socket.resume();
    // The ws client answers protocol pings, not tRPC's "PING" text: it stays silent.
    expect(await closed).toBe(1006);
    expect(client.frames).toContain('PING');
  });

  it('keeps a client that answers PONG', async () => {
    const client = connect(await serve({ pingMs: 200, pongWaitMs: 200 }));
    client.socket.on('message', (data) => {
      if (data.toString() === 'PING') client.socket.send('PONG');
    });
    await client.opened;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    expect(client.frames.filter((frame) => frame === 'PING').length).toBeGreaterThanOrEqual(2);
  });
});
