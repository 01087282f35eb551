import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import { classifyError } from '../errors';
import { PUBLIC } from '../rest/openapi';
import type { ServiceContext } from '../services/context';
import { CALLBACK_PATH, finishSignIn, startSignIn } from '../services/sign-in/oidc-flow';
import { handOff } from '../services/sign-in/oidc-handoff';

/**
 * The two steps of single sign-on a browser navigates to (services/sign-in/oidc-flow.ts):
 *
 * - GET /api/auth/oidc/start?returnTo=<path>: 302 to the provider, with a cookie binding the
 *   sign-in to this browser (HttpOnly, SameSite=Lax so it comes back on the provider's
 *   top-level redirect, only sent to /api/auth/oidc).
 * - GET /api/auth/oidc/callback: the provider's redirect; 303 to the sign-in landing page with a
 *   one-time code in the fragment, whatever the outcome.
 *
 * Not procedures' REST paths: they answer redirects, not JSON. When start cannot begin (provider
 * down, a bad returnTo, too many attempts), a browser (Accept: text/html) is sent to the landing
 * page with the refusal to show, anything else gets the JSON error. Public, so no API key scope.
 * Registered inside the REST plugin, so the OpenAPI document lists them.
 */

const COOKIE = 'portal_sso';
const COOKIE_PATH = '/api/auth/oidc';

function browserKeyOf(req: FastifyRequest): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

export const oidcRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const secure = deps.config.appUrl.startsWith('https://') ? '; Secure' : '';
  const cookie = (value: string, maxAgeSeconds: number) =>
    `${COOKIE}=${value}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
  const contextOf = (req: FastifyRequest): ServiceContext => ({
    deps,
    db: deps.db,
    ip: req.ip,
    requestId: req.id,
    log: req.log,
  });
  const wantsPage = (req: FastifyRequest) => (req.headers.accept ?? '').includes('text/html');

  /** A browser sees a refusal on the sign-in page; an API client gets it as JSON. */
  async function refuseStart(req: FastifyRequest, reply: FastifyReply, error: unknown) {
    const { status, body, internal } = classifyError(error);
    if (internal || !wantsPage(req)) throw error;
    const now = deps.clock.now();
    const location = await deps.db.$transaction((tx) =>
      handOff(tx, now, { error: { code: body.code, message: body.message } }, null),
    );
    req.log.info({ event: 'sso-start', status }, 'single sign-on could not start');
    return reply.redirect(location, 303);
  }

  app.get(
    '/api/auth/oidc/start',
    {
      schema: {
        summary: 'Begin single sign-on: 302 to the OpenID provider (PKCE, state, nonce)',
        description:
          'Optional `returnTo`, a path of this site, is where the browser lands after sign-in. 404 when ' +
          'single sign-on is not set up, 503 `Single sign-on is unavailable right now...` when the ' +
          'provider cannot be reached. A browser (`Accept: text/html`) is sent to the sign-in page with ' +
          'the message instead (303).',
        tags: ['auth'],
        querystring: z.object({ returnTo: z.string().optional() }),
        operationId: 'authOidcStart',
        security: PUBLIC,
        'x-errors': [400, 404, 429],
        response: {
          302: z
            .null()
            .describe('A redirect (Location) to the provider, and the cookie that binds the sign-in'),
          303: z
            .null()
            .describe('A browser whose sign-in could not start: the sign-in page, with the reason'),
        },
      },
    },
    async (req, reply) => {
      const { returnTo } = req.query as { returnTo?: unknown };
      try {
        const started = await startSignIn(contextOf(req), {
          returnTo: typeof returnTo === 'string' ? returnTo : undefined,
        });
        return reply
          .header('set-cookie', cookie(started.browserKey, 10 * 60))
          .header('cache-control', 'no-store')
          .redirect(started.location, 302);
      } catch (error) {
        return refuseStart(req, reply, error);
      }
    },
  );

  app.get(
    CALLBACK_PATH,
    {
      schema: {
        summary: "The OpenID provider's redirect back: 303 to the sign-in page with a one-time code",
        description:
          'Takes `code` and `state` (or `error`) from the provider. Whatever the outcome, the browser ' +
          'goes to `/auth/sso#code=...`, whose code `POST /api/auth/oidc/exchange` trades for the login ' +
          'answer or the refusal. 404 when single sign-on is not set up.',
        tags: ['auth'],
        querystring: z.object({
          code: z.string().optional(),
          state: z.string().optional(),
          error: z.string().optional(),
          iss: z.string().optional(),
        }),
        operationId: 'authOidcCallback',
        security: PUBLIC,
        'x-errors': [404, 429],
        response: {
          303: z.null().describe('A redirect (Location) to /auth/sso#code=<one-time code>'),
        },
      },
    },
    async (req, reply) => {
      const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      const location = await finishSignIn(contextOf(req), { query, browserKey: browserKeyOf(req) });
      return reply
        .header('set-cookie', cookie('', 0))
        .header('cache-control', 'no-store')
        .redirect(location, 303);
    },
  );
};
