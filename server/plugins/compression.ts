import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Compresses the API's JSON answers (issue 17). Only a JSON body that is already in memory (a
 * string or a Buffer, as Fastify's serializer, the tRPC query hook and the REST adapter produce it)
 * and at least COMPRESS_MIN_BYTES long is compressed; everything else passes untouched by
 * construction:
 * - streams: file downloads (already compressed PDFs and images, Range requests), tRPC's own
 *   adapter answers and any server-sent events, which a compressor would hold back until it flushed;
 * - WebSocket upgrades, which never reach onSend;
 * - the built client's files, which come precompressed from the build (server/plugins/client.ts)
 *   and already carry Content-Encoding.
 * This is why the app does not use @fastify/compress: it compresses every compressible type and
 * stream by default, and each of those exclusions would have to be configured and kept right.
 *
 * Up to 64 KiB compression is synchronous: brotli at quality 1 or gzip at level 6 take a fraction
 * of a millisecond there, less than a round trip through the thread pool (which argon2 keeps busy
 * during sign-ins) would add. Larger answers, rare in this API, go to the pool so the event loop
 * never stalls on them.
 */

/**
 * The smallest JSON answer compressed. Issue 17 asked for about 1 KiB unless that cost the list
 * benchmark more than 5% of its throughput, and it did: at 1 KiB, a list page (10 transactions,
 * about 3.9 KB) compressed cost 8 to 9% of the list's requests/s and 40 µs of CPU an answer, 12%
 * (docs/PERFORMANCE.md, `npm run bench -- api-list`, 2026-11-25). The cost is mostly per call
 * (setting up the encoder), so it is paid only by answers large enough to gain from it: above
 * 8 KiB, well over a page of any list, where a slow mobile link saves tens of milliseconds.
 */
export const COMPRESS_MIN_BYTES = 8 * 1024;
/** Above this, compress on the thread pool instead of the event loop. */
const SYNC_MAX_BYTES = 64 * 1024;

/**
 * Quality 1 with the body's size as a hint: on a 3.5 KB page of the transaction list it takes
 * about 23 µs against 84 µs at quality 4 (whose default 4 MiB window is set up on every call),
 * for 821 bytes instead of 739, from 3,471. Per request, speed matters more than the last bytes:
 * quality 11 is for the build (scripts/precompress.mjs), and the cost is measured in
 * docs/PERFORMANCE.md (npm run bench -- api-list).
 */
const brotliOptions = (bytes: number) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 1,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
  },
});
const GZIP_OPTIONS = { level: 6 };

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer in, from an Accept-Encoding header: brotli, else gzip, among those it
 * accepts with a non-zero q-value (`*` stands for any not named); undefined means identity.
 */
export function chooseEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (header === undefined) return undefined;
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    accepted.set(name.trim(), Number.isFinite(quality) ? quality : 0);
  }
  const wildcard = accepted.get('*') ?? 0;
  const quality = (encoding: Encoding) => accepted.get(encoding) ?? wildcard;
  const brotli = quality('br');
  const gzip = quality('gzip');
  if (brotli > 0 && brotli >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return undefined;
}

/** Adds Accept-Encoding to the Vary header a route may already have set (e.g. `trpc-accept, accept`). */
function varyOnAcceptEncoding(reply: FastifyReply) {
  const current = reply.getHeader('vary');
  const value = Array.isArray(current) ? current.join(', ') : current === undefined ? '' : String(current);
  const tokens = value
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter(Boolean);
  if (tokens.includes('accept-encoding') || tokens.includes('*')) return;
  reply.header('vary', value ? `${value}, Accept-Encoding` : 'Accept-Encoding');
}

/** What Fastify and the tRPC query hook set on nearly every answer: known without parsing. */
const PLAIN_JSON = new Set(['application/json; charset=utf-8', 'application/json']);

function isJson(contentType: unknown): boolean {
  if (typeof contentType === 'string' && PLAIN_JSON.has(contentType)) return true;
  const type = String(contentType ?? '')
    .split(';', 1)[0]
    ?.trim()
    .toLowerCase();
  return type === 'application/json' || (type?.startsWith('application/') === true && type.endsWith('+json'));
}

/** A body as zlib takes it: a string is encoded as UTF-8 there, with no copy made here. */
type Body = string | Buffer;

function compressSync(body: Body, bytes: number, encoding: Encoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, brotliOptions(bytes)) : gzipSync(body, GZIP_OPTIONS);
}

function compressAsync(body: Body, bytes: number, encoding: Encoding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (encoding === 'br') brotliCompress(body, brotliOptions(bytes), done);
    else gzip(body, GZIP_OPTIONS, done);
  });
}

/**
 * The body's size in bytes, or just "under the threshold": a string of n UTF-16 code units is at
 * least n bytes in UTF-8, so only a short string with wide characters is measured, and none is
 * copied to a Buffer (about 5 µs for a list page, on every answer; issue 23).
 */
function byteSize(body: Body): number {
  if (typeof body !== 'string' || body.length >= COMPRESS_MIN_BYTES) return body.length;
  return Buffer.byteLength(body, 'utf8');
}

/** What each compressed answer was before compression (bodyBeforeCompression). */
const originals = new WeakMap<FastifyReply, Body>();

/**
 * The body a later onSend hook would have seen without compression: the idempotency hook keeps
 * the answer itself, so that a retry gets it in the encoding the retry asks for.
 */
export function bodyBeforeCompression(reply: FastifyReply, payload: unknown): unknown {
  return originals.get(reply) ?? payload;
}

export async function compressJson(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  if (!isJson(reply.getHeader('content-type'))) return payload;
  // A body another layer encoded already, or a part of a file: not ours to touch.
  if (reply.hasHeader('content-encoding') || reply.hasHeader('content-range')) return payload;
  if (reply.statusCode === 204 || reply.statusCode === 304) return payload;
  const atLeast = byteSize(payload);
  if (atLeast < COMPRESS_MIN_BYTES) return payload;
  // Whatever this request gets, another Accept-Encoding could get something else.
  varyOnAcceptEncoding(reply);
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  if (!encoding) return payload;
  // A long string's exact size, for the encoder's size hint and the choice of thread.
  const bytes = typeof payload === 'string' ? Buffer.byteLength(payload, 'utf8') : payload.length;
  const compressed =
    bytes <= SYNC_MAX_BYTES
      ? compressSync(payload, bytes, encoding)
      : await compressAsync(payload, bytes, encoding);
  originals.set(reply, payload);
  reply.header('content-encoding', encoding);
  // Fastify computes the length of the compressed body; one a route set would be the raw body's.
  reply.removeHeader('content-length');
  return compressed;
}

export const compressionPlugin = fp(async (app) => {
  app.addHook('onSend', compressJson);
});
