import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { AnyRouter } from '@trpc/server';
import type { FastifyPluginAsync } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { apiError } from '../../shared/schemas/common';
import type { AppDeps } from '../deps';
import { createContext } from '../trpc/context';
import { type Access, createCallerFactory } from '../trpc/init';
import type { createCaller } from '../trpc/router';

/**
 * The /api adapter (DESIGN.md section 5): a table of documented paths, each calling exactly one
 * tRPC procedure through a server-side caller. The procedure does all the work (authentication,
 * then input validation with its zod schema, then the service), so REST and tRPC cannot drift
 * apart. The table's schemas are the same shared/schemas objects the procedures use; here they
 * only describe the route in the OpenAPI document.
 */

export type RestInput = {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
};

export type AppCaller = ReturnType<typeof createCaller>;

export type RestRoute<TCaller = AppCaller> = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify syntax: /api/transactions/:userId */
  url: string;
  summary: string;
  tag: string;
  /** Who may call it; must agree with the procedure's own base procedure (a test checks). */
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Absent for 204 answers. */
  response?: z.ZodType;
  successStatus?: 200 | 201 | 204;
  /** Maps path, query and body onto the procedure's input and calls it. */
  call: (caller: TCaller, input: RestInput) => Promise<unknown>;
};

export type RestPluginOptions = {
  deps: AppDeps;
  router: AnyRouter;
  // biome-ignore lint/suspicious/noExplicitAny: the table is typed against its own router where it is written
  routes: ReadonlyArray<RestRoute<any>>;
  version: string;
};

export const restPlugin: FastifyPluginAsync<RestPluginOptions> = async (
  app,
  { deps, router, routes, version },
) => {
  const callerFor = createCallerFactory(router);

  // Validation is the procedure's job (after authentication, DESIGN.md section 11), and its
  // output was already checked by `.output()`: Fastify only passes data through here.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // Registered inside this plugin, so the document lists exactly the routes of the table.
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Brokerage Portal API',
        version,
        description:
          'REST API of the brokerage transaction portal. Authenticate with `Authorization: Bearer <token>` ' +
          'from POST /api/auth/login. Every error answers `{message, code, issues?}`.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  // Our helmet CSP applies (scripts from 'self' only); the plugin's own staticCSP would forbid
  // the inline styles Swagger UI needs.
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: false });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  for (const route of routes) {
    const status = route.successStatus ?? 200;
    app.route({
      method: route.method,
      url: route.url,
      schema: {
        summary: route.summary,
        tags: [route.tag],
        ...(route.params ? { params: route.params } : {}),
        ...(route.query ? { querystring: route.query } : {}),
        ...(route.body ? { body: route.body } : {}),
        ...(route.access === 'public' ? {} : { security: [{ bearerAuth: [] }] }),
        response: {
          ...(route.response
            ? { [status]: route.response }
            : { [status]: { type: 'null', description: 'No content' } }),
          '4XX': apiError,
          '5XX': apiError,
        },
      },
      handler: async (req, reply) => {
        const ctx = await createContext(deps, req);
        const caller = callerFor(ctx) as unknown;
        const result = await route.call(caller, {
          params: (req.params ?? {}) as Record<string, string>,
          query: (req.query ?? {}) as Record<string, unknown>,
          body: req.body,
        });
        reply.code(status);
        return status === 204 ? reply.send() : reply.send(result);
      },
    });
  }
};
