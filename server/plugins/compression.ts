import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The smallest JSON answer compressed. About 1 KiB was the wish, but at 1 KiB a list page (10
 * transactions, about 3.9 KB) compressed cost 8 to 9% of the list's requests/s and 12% more CPU
 * an answer (docs/PERFORMANCE.md, `npm run bench -- api-list`). The cost is mostly per call
 * (setting up the encoder), so it is paid only by answers large enough to gain from it: above
 * 8 KiB, well over a page of any list, where a slow mobile link saves tens of milliseconds.
 */
export const COMPRESS_MIN_BYTES = 8 * 1024;

const JSON_TYPE = /^application\/(?:[^;\s]+\+)?json\s*(?:;|$)/i;

/**
 * Only a JSON body already in memory (as Fastify's serializer, the tRPC call hook and the REST
 * adapter give it) is compressed. @fastify/compress would also compress every stream whatever its
 * size, and any type mime-db calls compressible; both must pass untouched here:
 * - file downloads (PDFs and images, already compressed; Range requests) and CSV exports;
 * - what tRPC's adapter streams and server-sent events, which a compressor would hold back until it
 *   flushed;
 * - the built client's files, which come precompressed from the build (server/plugins/client.ts)
 *   and already carry Content-Encoding, or are too small to gain from it;
 * - plain-text answers such as /metrics.
 */
function worthCompressing(reply: FastifyReply, payload: unknown): boolean {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  if (reply.hasHeader('content-encoding')) return false;
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && JSON_TYPE.test(type) && Buffer.byteLength(payload) >= COMPRESS_MIN_BYTES;
}

/**
 * Whatever this request gets, another Accept-Encoding could get something else: said also when
 * the answer goes uncompressed. In lower case, which the plugin recognises and does not repeat.
 */
function varyOnAcceptEncoding(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(String(vary)))
    reply.header('vary', `${String(vary)}, accept-encoding`);
}

export const compressionPlugin = fp(async (app) => {
  await app.register(compress, {
    // Request bodies with a Content-Encoding stay refused by the JSON parser, as before.
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_MIN_BYTES,
    customTypes: JSON_TYPE,
    // Synchronous up to 64 KiB: brotli 1 or gzip 6 take a fraction of a millisecond there, less
    // than a round trip through the thread pool, which argon2 keeps busy during sign-ins.
    syncThreshold: 64 * 1024,
    // Per request, speed matters more than the last bytes: quality 1 takes about a quarter of
    // quality 4's time (whose 4 MiB window is set up on every call) for 10% more bytes. Quality
    // 11 is for the build (scripts/precompress.mjs).
    brotliOptions: {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 1,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    },
    zlibOptions: { level: 6 },
  });
  // App-wide, so it runs before the plugin's hook on each route; x-no-compression is the
  // plugin's own switch for one request.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (worthCompressing(reply, payload)) varyOnAcceptEncoding(reply);
    else req.headers['x-no-compression'] = 'not-json-in-memory';
    done(null, payload);
  });
});
