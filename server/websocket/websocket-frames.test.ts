import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribeOverWebSocket } from '../test/api-calls';
import { accessTokenFor, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, testDeps } from '../test/harness';

/**
 * Malformed WebSocket frames at /trpc. ws refuses them and closes the socket; before the fix the
 * error reached our tRPC onError with Node's bare request (no logger), threw there, and the
 * uncaught exception shut the whole instance down: one unmasked frame from anyone stopped it.
 */

const database = setupTestDatabase();
let app: ReturnType<typeof buildTestApp>;
let port: number;

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(() => app.close());

/** Upgrades a raw TCP socket at /trpc, sends `frame` as it is, and resolves when the server closes. */
async function sendRawFrame(frame: Buffer): Promise<Buffer> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    'GET /trpc HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  await new Promise<void>((resolve) => socket.once('data', () => resolve()));
  socket.write(frame);
  await closed;
  return Buffer.concat(received);
}

const MASK = Buffer.from([1, 2, 3, 4]);
const masked = (first: number, payload: Buffer) =>
  Buffer.concat([
    Buffer.from([first, 0x80 | payload.length]),
    MASK,
    Buffer.from(payload.map((byte, i) => byte ^ (MASK[i % 4] ?? 0))),
  ]);

describe('malformed WebSocket frames', () => {
  it.each([
    ['an unmasked text frame', Buffer.from([0x81, 0x02, 0x68, 0x69])],
    ['a reserved opcode', masked(0x83, Buffer.from('hi'))],
    ['a text frame that is not UTF-8', masked(0x81, Buffer.from([0xc3, 0x28]))],
  ])('%s: that socket is closed with a protocol error, the instance keeps serving', async (_, frame) => {
    const answer = await sendRawFrame(frame);
    // 101 Switching Protocols, then a close frame (opcode 8) from the server.
    expect(answer.toString('latin1')).toContain('101 Switching Protocols');
    expect(answer.subarray(answer.indexOf('\r\n\r\n') + 4)[0]).toBe(0x88);

    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const token = await accessTokenFor(await createUser(database.db));
    const live = subscribeOverWebSocket(
      `ws://127.0.0.1:${port}/trpc`,
      'notifications.onNotification',
      undefined,
      token,
    );
    try {
      await live.started;
    } finally {
      live.close();
    }
  });
});
