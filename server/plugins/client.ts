import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Paths owned by the server: an unknown one is a JSON 404, never the client's index.html. */
const SERVER_PREFIXES = ['/api', '/trpc', '/files'];

export function isServerPath(url: string): boolean {
  const pathname = url.split('?', 1)[0] ?? '';
  return SERVER_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** A client route is a GET for a path without a file extension (a missing /assets/x.js is a 404). */
export function isClientRoute(req: FastifyRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (isServerPath(req.url)) return false;
  const pathname = req.url.split('?', 1)[0] ?? '';
  const lastSegment = pathname.split('/').pop() ?? '';
  return !lastSegment.includes('.');
}

export function clientIsBuilt(dir: string): boolean {
  return existsSync(path.join(dir, 'index.html'));
}

/**
 * Serves the built client. Hashed files under /assets are cached for a year; index.html is
 * revalidated every time so a deploy is picked up at once. Client routes get index.html
 * (the SPA fallback) through sendIndex, which the app's not-found handler calls.
 */
export const clientPlugin = fp<{ dir: string }>(async (app, { dir }) => {
  await app.register(fastifyStatic, {
    root: dir,
    wildcard: false,
    index: false,
    setHeaders(res, filePath) {
      const immutable = filePath.startsWith(path.join(dir, 'assets') + path.sep);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/', (_req, reply) => sendIndex(reply));
});

export function sendIndex(reply: FastifyReply) {
  return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
}
