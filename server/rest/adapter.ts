import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { AnyProcedure, AnyRouter, inferProcedureInput } from '@trpc/server';
import type { FastifyPluginAsync } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError } from '../../shared/schemas/common';
import type { AppDeps } from '../deps';
import { createContext } from '../trpc/context';
import type { Access, Meta } from '../trpc/init';

/**
 * The /api adapter (DESIGN.md section 5): a table of documented paths, each calling exactly one
 * tRPC procedure, the way a server-side caller calls it. The procedure does all the work
 * (authentication, then input validation with its zod schema, then the service), so REST and
 * tRPC cannot drift apart. The table's schemas are the same shared/schemas objects the
 * procedures use; here they only describe the route in the OpenAPI document.
 */

export type RestInput = {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
};

export type RestRoute = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify syntax: /api/transactions/:userId */
  url: string;
  summary: string;
  tag: string;
  /** The procedure object itself (e.g. appRouter.transactions.list): who may call it, and its
   * input type, come from it, so the table cannot disagree with the procedure. */
  procedure: AnyProcedure;
  /** Maps path, query and body onto the procedure's input; absent for procedures without input. */
  input?: (req: RestInput) => unknown;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Absent for 204 answers. */
  response?: z.ZodType;
  successStatus?: 200 | 201 | 204;
};

/** Declares a row with its input mapping type-checked against the procedure's input. */
export function restRoute<TProcedure extends AnyProcedure>(
  route: Omit<RestRoute, 'procedure' | 'input'> & {
    procedure: TProcedure;
    input?: (req: RestInput) => inferProcedureInput<TProcedure>;
  },
): RestRoute {
  return route;
}

/** How tRPC's own server-side caller invokes a procedure (createCallerFactory in @trpc/server). */
type CallProcedure = (opts: {
  path: string;
  getRawInput: () => Promise<unknown>;
  ctx: unknown;
  type: AnyProcedure['_def']['type'];
  signal: AbortSignal | undefined;
  batchIndex: number;
}) => Promise<unknown>;

export function accessOf(procedure: AnyProcedure): Access {
  return (procedure._def.meta as Meta | undefined)?.access ?? 'public';
}

export type RestPluginOptions = {
  deps: AppDeps;
  router: AnyRouter;
  routes: ReadonlyArray<RestRoute>;
  version: string;
  /** /api routes that are not one procedure call (multipart uploads), documented alongside. */
  extensions?: ReadonlyArray<FastifyPluginAsync<{ deps: AppDeps }>>;
};

export const restPlugin: FastifyPluginAsync<RestPluginOptions> = async (
  app,
  { deps, router, routes, version, extensions = [] },
) => {
  const pathOf = new Map(
    Object.entries(router._def.procedures).map(([path, procedure]) => [procedure, path]),
  );

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

  for (const extension of extensions) await app.register(extension, { deps });

  for (const route of routes) {
    const path = pathOf.get(route.procedure);
    if (!path) {
      throw new Error(
        `REST route ${route.method} ${route.url} calls a procedure that is not in the mounted router`,
      );
    }
    const access = accessOf(route.procedure);
    const status = route.successStatus ?? 200;
    const params = route.params ?? paramsOf(route.url);
    app.route({
      method: route.method,
      url: route.url,
      schema: {
        summary: route.summary,
        description: `Calls the tRPC procedure \`${path}\`. Access: ${ACCESS_TEXT[access]}.`,
        tags: [route.tag],
        ...(params ? { params } : {}),
        ...(route.query ? { querystring: route.query } : {}),
        ...(route.body ? { body: route.body } : {}),
        ...(access === 'public' ? {} : { security: [{ bearerAuth: [] }] }),
        response: {
          [status]: route.response ?? NO_CONTENT,
          '4XX': CLIENT_ERROR,
          '5XX': SERVER_ERROR,
        },
      },
      handler: async (req, reply) => {
        const ctx = await createContext(deps, req);
        const input = route.input?.({
          params: (req.params ?? {}) as Record<string, string>,
          query: (req.query ?? {}) as Record<string, unknown>,
          body: req.body,
        });
        // What a server-side caller does for one call, without building its proxy per request.
        const result = await (route.procedure as unknown as CallProcedure)({
          path,
          getRawInput: async () => input,
          ctx,
          type: route.procedure._def.type,
          signal: undefined,
          batchIndex: 0,
        });
        reply.code(status);
        return status === 204 ? reply.send() : reply.send(result);
      },
    });
  }
};

/** Every path parameter must be described; a row that gives no schema gets plain strings. */
function paramsOf(url: string): z.ZodType | undefined {
  const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? '');
  return names.length ? z.object(Object.fromEntries(names.map((name) => [name, z.string()]))) : undefined;
}

// Zod schemas even for "nothing": the OpenAPI transform accepts zod only.
const NO_CONTENT = z.null().describe('No content');
const CLIENT_ERROR = apiError.describe('The request was refused: 400, 401, 403, 404, 409, 413, 415 or 429');
const SERVER_ERROR = apiError.describe(
  'The server could not answer: 500, or 503 while the database is unavailable',
);

const ACCESS_TEXT: Record<Access, string> = {
  public: 'anyone',
  user: 'any signed-in user',
  admin: 'admins',
  owner: 'the owner account only',
};
