import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * CORS for browser integrations: the origins CORS_ORIGINS names may call /api from their own
 * pages, with a bearer token or an API key; nothing else is shared across origins (the portal's
 * own client, the files, the WebSocket are same-origin). Preflights are answered here, before
 * authentication and the rate limits.
 */

/** What a browser integration sends beyond the CORS-safelisted headers. */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'];
/** What its script may read of an answer beyond the CORS-safelisted headers. */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'Idempotent-Replayed',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Content-Disposition',
  'Location',
];

const isApi = (url: string | undefined) => url === '/api' || (url?.startsWith('/api/') ?? false);

export const corsPlugin = fp(
  async (app: FastifyInstance, { origins }: { origins: readonly string[] }) => {
    await app.register(cors, {
      delegator: (req, callback) =>
        callback(
          null,
          isApi(req.url)
            ? {
                origin: [...origins],
                methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
                allowedHeaders: ALLOWED_HEADERS,
                exposedHeaders: EXPOSED_HEADERS,
                // Tokens travel in Authorization, never in cookies.
                credentials: false,
                maxAge: 600,
              }
            : { origin: false },
        ),
    });
  },
  { name: 'cors' },
);
