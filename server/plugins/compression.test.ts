import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { PROJECT_ROOT } from '../paths';
import { buildTestApp, setupTestDatabase, testDeps } from '../test/harness';
import { testRest } from '../test/rest-meta';
import { publicProcedure, router } from '../trpc/init';
import { COMPRESS_MIN_BYTES } from './compression';

/**
 * The built client precompressed at build time and chosen by Accept-Encoding, the caching of its
 * files, and the API's JSON answers over COMPRESS_MIN_BYTES compressed, while streams (file
 * downloads, what tRPC's adapter streams, server-sent events), request bodies and WebSockets go
 * through untouched.
 */

const database = setupTestDatabase();

/** Text long enough to be worth compressing, and that compresses well (as real bundles do). */
const SCRIPT = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row ${i}` })))};\n`;
const INDEX_HTML = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Brokerage Portal</title>
<script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div>
${'<!-- padding so that the page is worth compressing -->\n'.repeat(10)}</body></html>`;

/** Over COMPRESS_MIN_BYTES (about 15 KB of JSON). */
const BIG_ROWS = Array.from({ length: 300 }, (_, i) => ({ id: i, address: `${i} Main Street, Springfield` }));
/** 6,000 characters of two bytes each in UTF-8. */
const WIDE_TEXT = 'é'.repeat(6_000);
/** About 4 KB, like a page of the transaction list: under the threshold. */
const PAGE_ROWS = BIG_ROWS.slice(0, 80);

const bigRouter = router({
  big: publicProcedure
    .meta(testRest('GET', '/api/big'))
    .output(z.array(z.object({ id: z.number(), address: z.string() })))
    .query(() => BIG_ROWS),
  small: publicProcedure
    .meta(testRest('GET', '/api/small'))
    .output(z.object({ ok: z.boolean() }))
    .query(() => ({ ok: true })),
  /** Fewer characters than COMPRESS_MIN_BYTES, more bytes: it is the bytes that count. */
  wide: publicProcedure
    .meta(testRest('GET', '/api/wide'))
    .output(z.object({ text: z.string() }))
    .query(() => ({ text: WIDE_TEXT })),
  /** The same number of characters, one byte each: under the threshold. */
  narrow: publicProcedure
    .meta(testRest('GET', '/api/narrow'))
    .output(z.object({ text: z.string() }))
    .query(() => ({ text: 'e'.repeat(WIDE_TEXT.length) })),
  page: publicProcedure
    .output(z.array(z.object({ id: z.number(), address: z.string() })))
    .query(() => PAGE_ROWS),
  rows: publicProcedure
    .input(z.object({ count: z.number() }))
    .output(z.array(z.object({ id: z.number(), address: z.string() })))
    .mutation(({ input }) => BIG_ROWS.slice(0, input.count)),
  ticks: publicProcedure.input(z.object({ count: z.number() })).subscription(async function* ({ input }) {
    for (let i = 0; i < input.count; i++) yield { tick: i, padding: 'x'.repeat(600) };
  }),
});

let clientDir: string;
let app: FastifyInstance;
let plainApp: FastifyInstance;

beforeAll(async () => {
  // A stand-in for dist/client, compressed by the build's own script.
  clientDir = await mkdtemp(path.join(tmpdir(), 'portal-compression-'));
  await mkdir(path.join(clientDir, 'assets'));
  await writeFile(path.join(clientDir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(clientDir, 'assets', 'index-abc123.js'), SCRIPT);
  await writeFile(path.join(clientDir, 'assets', 'tiny-abc123.js'), 'export {};\n');
  // As `npm run build` runs it.
  await promisify(execFile)(process.execPath, [
    path.join(PROJECT_ROOT, 'scripts', 'precompress.mjs'),
    '--dir',
    clientDir,
  ]);
  app = buildTestApp(testDeps(database.db), {
    clientDir,
    api: { router: bigRouter },
  });
  // The application's own router and its REST paths, for the real endpoints.
  plainApp = buildTestApp(testDeps(database.db), { clientDir });
});
afterAll(async () => {
  await app.close();
  await plainApp.close();
  await rm(clientDir, { recursive: true, force: true });
});

function decoded(res: { rawPayload: Buffer; headers: Record<string, unknown> }): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
  return res.rawPayload.toString('utf8');
}

const varies = (res: { headers: Record<string, unknown> }) =>
  String(res.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding');

describe('the build precompresses the client', () => {
  test('each text file worth it gets a .br and a .gz beside it; a tiny one does not', async () => {
    const names = (await readdir(path.join(clientDir, 'assets'))).sort();
    expect(names).toEqual(['index-abc123.js', 'index-abc123.js.br', 'index-abc123.js.gz', 'tiny-abc123.js']);
    expect((await readdir(clientDir)).sort()).toEqual([
      'assets',
      'index.html',
      'index.html.br',
      'index.html.gz',
    ]);
  });
});

describe('static files are served compressed as Accept-Encoding allows', () => {
  const cases = [
    { acceptEncoding: 'br, gzip', expected: 'br' },
    { acceptEncoding: 'gzip, deflate, br, zstd', expected: 'br' },
    { acceptEncoding: 'gzip', expected: 'gzip' },
    { acceptEncoding: 'br;q=0, gzip', expected: 'gzip' },
    { acceptEncoding: 'identity', expected: undefined },
    { acceptEncoding: undefined, expected: undefined },
  ];

  test.each(cases)(
    'a hashed asset with Accept-Encoding $acceptEncoding',
    async ({ acceptEncoding, expected }) => {
      const res = await app.inject({
        url: '/assets/index-abc123.js',
        headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
      expect(varies(res)).toBe(true);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      if (expected) expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 3);
      expect(decoded(res)).toBe(SCRIPT);
    },
  );

  test.each(['/', '/index.html', '/home', '/auth/login', '/home/transactions/42?tab=docs'])(
    'index.html at %s comes as brotli, revalidated on every visit',
    async (url) => {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-encoding']).toBe('br');
      expect(varies(res)).toBe(true);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(decoded(res)).toBe(INDEX_HTML);
    },
  );

  test('the SPA fallback in gzip and uncompressed', async () => {
    const gzip = await app.inject({ url: '/home', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['cache-control']).toBe('no-cache');
    expect(decoded(gzip)).toBe(INDEX_HTML);
    const plain = await app.inject({ url: '/home' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(varies(plain)).toBe(true);
    expect(plain.body).toBe(INDEX_HTML);
  });

  test('a file without a compressed copy is sent as it is; the copies have no URL of their own', async () => {
    const tiny = await app.inject({
      url: '/assets/tiny-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export {};\n');
    for (const url of ['/assets/index-abc123.js.br', '/assets/index-abc123.js.gz']) {
      expect((await app.inject(url)).statusCode, url).toBe(404);
    }
  });
});

describe('JSON answers', () => {
  test('over COMPRESS_MIN_BYTES: compressed for tRPC queries and the REST adapter, with Vary', async () => {
    const input = encodeURIComponent(JSON.stringify({ 0: {} }));
    for (const url of ['/trpc/big', `/trpc/big?batch=1&input=${input}`, '/api/big']) {
      for (const [acceptEncoding, expected] of [
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        ['identity', undefined],
      ] as const) {
        const res = await app.inject({ url, headers: { 'accept-encoding': acceptEncoding } });
        const label = `${url} with ${acceptEncoding}`;
        expect(res.statusCode, label).toBe(200);
        expect(res.headers['content-type'], label).toMatch(/^application\/json/);
        expect(res.headers['content-encoding'], label).toBe(expected);
        expect(varies(res), label).toBe(true);
        expect(Number(res.headers['content-length']), label).toBe(res.rawPayload.length);
        const body = JSON.parse(decoded(res));
        const rows = url.startsWith('/api/')
          ? body
          : url.includes('batch=1')
            ? body[0].result.data
            : body.result.data;
        expect(rows, label).toEqual(BIG_ROWS);
        if (expected) expect(res.rawPayload.length, label).toBeLessThan(JSON.stringify(BIG_ROWS).length / 3);
      }
    }
  });

  test('the threshold counts bytes: wide characters over it are compressed, as many narrow ones are not', async () => {
    // The REST adapter's answers reach the hook as strings, the tRPC call hook's as Buffers.
    for (const [url, textOf] of [
      ['/api/wide', (body: { text: string }) => body.text],
      ['/trpc/wide', (body: { result: { data: { text: string } } }) => body.result.data.text],
    ] as const) {
      const wide = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(wide.headers['content-encoding'], url).toBe('br');
      expect(textOf(JSON.parse(decoded(wide))), url).toBe(WIDE_TEXT);
    }
    for (const url of ['/api/narrow', '/trpc/narrow']) {
      const narrow = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(narrow.headers['content-encoding'], url).toBeUndefined();
      expect(narrow.rawPayload.length, url).toBeLessThan(COMPRESS_MIN_BYTES);
    }
  });

  test("tRPC's own Vary header keeps its names", async () => {
    const res = await app.inject({ url: '/trpc/big', headers: { 'accept-encoding': 'gzip' } });
    expect(String(res.headers.vary).toLowerCase()).toBe('trpc-accept, accept, accept-encoding');
  });

  test("the application's own large answers too: /api/openapi.json", async () => {
    const res = await plainApp.inject({
      url: '/api/openapi.json',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(res)).openapi).toBe('3.1.0');
  });

  test('under COMPRESS_MIN_BYTES, a page of a list among them: sent as it is', async () => {
    for (const url of ['/trpc/small', '/api/small', '/healthz', '/api/missing', '/trpc/page']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.rawPayload.length, url).toBeLessThan(COMPRESS_MIN_BYTES);
      expect(res.headers['content-encoding'], url).toBeUndefined();
    }
  });
});

describe('streams and sockets are left alone', () => {
  test('a file download is sent byte for byte, whatever Accept-Encoding says', async () => {
    const deps = testDeps(database.db);
    const key = `forms/${randomUUID()}-listing.pdf`;
    const content = Buffer.from(`%PDF-1.4\n${'0 0 obj << >> endobj\n'.repeat(200)}%%EOF\n`);
    await deps.storage.put(key, Readable.from([content]), { contentType: 'application/pdf' });
    const link = new URL(await deps.storage.signedUrl(key), 'http://portal.test');
    const files = buildTestApp(deps);
    try {
      const res = await files.inject({
        url: `${link.pathname}${link.search}`,
        headers: { 'accept-encoding': 'br, gzip' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.rawPayload.equals(content)).toBe(true);
    } finally {
      await files.close();
      await deps.storage.delete(key);
    }
  });

  test('a subscription over server-sent events streams its events uncompressed', async () => {
    const input = encodeURIComponent(JSON.stringify({ count: 3 }));
    const res = await app.inject({
      url: `/trpc/ticks?input=${input}`,
      headers: { 'accept-encoding': 'br, gzip', accept: 'text/event-stream' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['content-encoding']).toBeUndefined();
    for (const tick of [0, 1, 2]) expect(res.body).toContain(`"tick":${tick}`);
  });

  test('tRPC mutations are answered in memory like queries: compressed over COMPRESS_MIN_BYTES only', async () => {
    for (const [count, expected] of [
      [1, undefined],
      [BIG_ROWS.length, 'br'],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: '/trpc/rows',
        headers: { 'accept-encoding': 'br, gzip', 'content-type': 'application/json' },
        payload: JSON.stringify({ count }),
      });
      expect(res.statusCode, `${count} rows`).toBe(200);
      expect(res.headers['content-encoding'], `${count} rows`).toBe(expected);
      expect(JSON.parse(decoded(res)).result.data, `${count} rows`).toEqual(BIG_ROWS.slice(0, count));
    }
  });

  test("tRPC's adapter streams its answers (a streamed batch): sent uncompressed, whatever their size", async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/trpc/rows?batch=1',
      headers: {
        'accept-encoding': 'br, gzip',
        'content-type': 'application/json',
        'trpc-accept': 'application/jsonl',
      },
      payload: JSON.stringify({ 0: { count: BIG_ROWS.length } }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toContain(`"${BIG_ROWS.length - 1} Main Street, Springfield"`);
  });

  test('a request body with a Content-Encoding is not inflated: refused as the JSON it is not', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/trpc/rows',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ count: 1 })),
    });
    expect(res.statusCode).toBe(400);
  });

  test('a subscription over the WebSocket delivers its events', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const wsClient = createWSClient({
      url: `ws://127.0.0.1:${port}/trpc`,
      WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    });
    const client = createTRPCClient<typeof bigRouter>({ links: [wsLink({ client: wsClient })] });
    try {
      const ticks = await new Promise<number[]>((resolve, reject) => {
        const seen: number[] = [];
        const subscription = client.ticks.subscribe(
          { count: 3 },
          {
            onData: (data) => {
              seen.push(data.tick);
              if (seen.length === 3) {
                subscription.unsubscribe();
                resolve(seen);
              }
            },
            onError: reject,
          },
        );
      });
      expect(ticks).toEqual([0, 1, 2]);
      expect(await client.big.query()).toEqual(BIG_ROWS);
    } finally {
      await wsClient.close();
    }
  });
});

describe('the encoding follows Accept-Encoding: brotli, else gzip, as the client weighs them', () => {
  test.each([
    ['br, gzip', 'br'],
    ['gzip, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['*', 'gzip'],
    ['*;q=0, gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['deflate', undefined],
    ['zstd', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['identity', undefined],
    ['', undefined],
  ])('%j gives %s', async (acceptEncoding, expected) => {
    const res = await app.inject({ url: '/api/big', headers: { 'accept-encoding': acceptEncoding } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(expected);
    expect(varies(res)).toBe(true);
    expect(JSON.parse(decoded(res))).toEqual(BIG_ROWS);
  });
});
