import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { METRICS_PATH } from './metrics';

/** Paths owned by the server: an unknown one is a JSON 404, never the client's index.html. */
const SERVER_PREFIXES = ['/api', '/trpc', '/files'];

/** Asked twice of every request (no-store, the per-IP limit): read in place, nothing allocated. */
export function isServerPath(url: string): boolean {
  const query = url.indexOf('?');
  const pathEnd = query === -1 ? url.length : query;
  return SERVER_PREFIXES.some(
    (prefix) =>
      url.startsWith(prefix) && (pathEnd === prefix.length || url.charCodeAt(prefix.length) === SLASH),
  );
}
const SLASH = 47;

/**
 * File types the built client is made of. A missing one is a 404, not index.html (a browser
 * asking for a stale /assets/x.js must not get HTML). Any other dot is part of a route:
 * /auth/verification/register/dana@example.com is a page.
 */
const STATIC_FILE =
  /\.(?:m?js|css|map|html?|json|webmanifest|txt|xml|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|otf)$/i;

/**
 * Server paths outside those prefixes that exist only when configured: absent, they are a JSON 404,
 * not the client's page (/metrics without METRICS_TOKEN must not look like it answers). They are
 * not API calls, so the per-IP limit and no-store of isServerPath stay off them.
 */
const OPTIONAL_SERVER_PATHS = new Set([METRICS_PATH]);

/** A client route is a GET outside the server's paths and /assets that names no static file. */
export function isClientRoute(req: FastifyRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (isServerPath(req.url)) return false;
  const pathname = req.url.split('?', 1)[0] ?? '';
  if (OPTIONAL_SERVER_PATHS.has(pathname)) return false;
  if (pathname.startsWith('/assets/')) return false;
  return !STATIC_FILE.test(pathname);
}

export function clientIsBuilt(dir: string): boolean {
  return existsSync(path.join(dir, 'index.html'));
}

/**
 * Serves the built client. Hashed files under /assets are cached for a year; index.html is
 * revalidated every time so a deploy is picked up at once. Client routes get index.html
 * (the SPA fallback) through sendIndex, which the app's not-found handler calls.
 *
 * Every text file comes compressed when the browser accepts it: the build wrote <file>.br and
 * <file>.gz beside it (scripts/precompress.mjs), and @fastify/static picks the one that
 * Accept-Encoding allows (brotli first), the file itself otherwise, with `Vary: Accept-Encoding`
 * either way so a shared cache never hands one browser's choice to another.
 */
export const clientPlugin = fp<{ dir: string }>(async (app, { dir }) => {
  await app.register(fastifyStatic, {
    root: dir,
    wildcard: false,
    index: false,
    preCompressed: true,
    // The compressed copies are reached through their file's own URL only; no route of their own.
    globIgnore: ['**/*.br', '**/*.gz'],
    setHeaders(res, filePath) {
      const immutable = filePath.startsWith(path.join(dir, 'assets') + path.sep);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/', (_req, reply) => sendIndex(reply));
});

export const INDEX_HTML = 'index.html';
/**
 * A signer's link gets the build's sign.html when there is one (vite.config.ts, signingPageHtml):
 * index.html with the start-up scripts fetched after the stylesheet, so its first paint comes
 * sooner on a slow phone network.
 */
const SIGNING_HTML = 'sign.html';
const SIGNING_LINK = '/sign/';

/** Which page a client route of the build in `dir` is sent: looked up once, not per request. */
export function pageFileOf(dir: string): (url: string) => string {
  const signing = existsSync(path.join(dir, SIGNING_HTML));
  return (url) => (signing && url.startsWith(SIGNING_LINK) ? SIGNING_HTML : INDEX_HTML);
}

export function sendIndex(reply: FastifyReply, file = INDEX_HTML) {
  return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile(file);
}
