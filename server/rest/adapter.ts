import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { AnyRouter } from '@trpc/server';
import type { FastifyPluginAsync } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError } from '../../shared/schemas/common';
import type { AppDeps } from '../deps';
import { installIdempotency } from '../plugins/idempotency';
import { contextOfRequest } from '../trpc/context';
import { type Access, accessOf, type RestFacts } from '../trpc/init';
import { callProcedure, inputSchemaOf, outputSchemaOf, procedureTypeOf } from '../trpc/internals';
import {
  BEARER,
  errorStatusesOf,
  finishOpenApiDocument,
  type OperationFacts,
  operationIdOf,
  PUBLIC,
} from './openapi';
import { type RestRoute, restRoutesOf } from './routes';
import { nameOpenApiSchemas } from './schema-names';
import { assertKeyMayCall } from './scopes';

/**
 * The /api adapter: each procedure whose meta declares a REST path (`rest`, server/trpc/init.ts)
 * is mounted at that path, and called the way a server-side caller calls it. The procedure does
 * all the work (authentication, then input validation with its zod schema, then the service), so
 * REST and tRPC cannot drift apart.
 *
 * The meta names only the method, path, words, scope and examples: the route's path parameters,
 * its query string or body and its answer are all read from the procedure's own input and output
 * schemas. The path parameters are fields of the input (the app refuses to start with a `:name`
 * that is not); every other field of the input comes from the query string (GET, DELETE) or the
 * JSON body (POST, PUT). Changing a procedure's input therefore changes the documented route with
 * it, or stops the app from starting where a path names a field that is gone.
 */

/** The parameter names of a Fastify path, in order. */
export function pathParamNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? '');
}

const readsQuery = (route: RestFacts) =>
  route.method === 'GET' || (route.method === 'DELETE' && route.deleteWithBody !== true);

/** The route's schemas and how it assembles the procedure's input, read from the procedure. */
type RouteShape = {
  params: z.ZodObject | undefined;
  /** The query string (GET, DELETE) or the body (POST, PUT): the input's other fields. */
  rest: z.ZodObject | undefined;
  response: z.ZodType | undefined;
  hasInput: boolean;
};

function pick(shape: z.ZodRawShape, keep: (key: string) => boolean): z.ZodRawShape {
  return Object.fromEntries(Object.entries(shape).filter(([key]) => keep(key)));
}

function routeShape(route: RestRoute): RouteShape {
  const path = route.procedurePath;
  const where = `REST route ${route.method} ${route.path}`;
  const names = pathParamNames(route.path);
  const input = inputSchemaOf(route.procedure);
  if (input !== undefined && !(input instanceof z.ZodObject)) {
    throw new Error(`${where}: the input of ${path} is not a zod object, so it cannot be mapped`);
  }
  // Refinements stay on the procedure's schema, which validates; these only document the parts.
  const shape = input?.shape ?? {};
  const missing = names.filter((name) => !(name in shape));
  if (missing.length) {
    throw new Error(`${where}: the path parameter :${missing.join(', :')} is not a field of ${path}'s input`);
  }
  const restShape = pick(shape, (key) => !names.includes(key));
  let response: z.ZodType | undefined;
  if (route.successStatus !== 204) {
    const output = outputSchemaOf(route.procedure);
    if (!(output instanceof z.ZodType)) {
      throw new Error(`${where}: ${path} declares no .output() schema to document its answer`);
    }
    response = output;
  }
  return {
    params: names.length ? z.object(pick(shape, (key) => names.includes(key))) : undefined,
    rest: Object.keys(restShape).length ? z.object(restShape) : undefined,
    response,
    hasInput: input !== undefined,
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The procedure's input: the query string or the body, with the path parameters over it (a body
 * field cannot override the path). A body that is not an object goes to the procedure as it is,
 * so its validation names the problem.
 */
function inputOf(from: unknown, params: Record<string, string>, hasParams: boolean): unknown {
  if (!hasParams) return from;
  if (from === undefined || from === null) return copiedOver({}, params);
  return isPlainObject(from) ? copiedOver(copiedOver({}, from), params) : from;
}

/**
 * `{...target, ...source}` in place, as own fields even for a key named "__proto__" (JSON and
 * query strings can carry one), which an assignment would take for the object's prototype.
 * Not a spread: on Node 20's V8 each field a spread copy gains afterwards costs about half a
 * microsecond, and every REST call with a path parameter made one.
 */
function copiedOver(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
): Record<string, unknown> {
  for (const key of Object.keys(source)) {
    if (key === '__proto__') {
      Object.defineProperty(target, key, {
        value: source[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      target[key] = source[key];
    }
  }
  return target;
}

export type RestPluginOptions = {
  deps: AppDeps;
  /** Its procedures that declare a REST path are mounted (server/rest/routes.ts). */
  router: AnyRouter;
  version: string;
  /**
   * /api routes that are not one procedure call (multipart uploads), documented alongside; each
   * states its OperationFacts (server/rest/openapi.ts) in its schema.
   */
  extensions?: ReadonlyArray<FastifyPluginAsync<{ deps: AppDeps }>>;
};

export const restPlugin: FastifyPluginAsync<RestPluginOptions> = async (
  app,
  { deps, router, version, extensions = [] },
) => {
  // Validation is the procedure's job (after authentication, so an anonymous caller learns
  // nothing about the input), and its output was already checked by `.output()`: Fastify only
  // passes data through here.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  nameOpenApiSchemas();
  // Every documented operation that takes a bearer token says what an API key needs to call it,
  // or the app does not start (public mail links take none).
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Partial<OperationFacts> | undefined;
    if (schema?.operationId && schema.security?.length && !schema['x-api-key-scope']) {
      throw new Error(`No API key scope is declared for ${[route.method].flat().join(',')} ${route.url}`);
    }
  });

  // Registered inside this plugin, so the document lists exactly the routes of this plugin.
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Brokerage Portal API',
        version,
        description:
          'REST API of the brokerage transaction portal. Authenticate with `Authorization: Bearer <token>` ' +
          'from POST /api/auth/login. Every error answers `{message, code, error, issues?}`: `error` is an ' +
          'identifier to switch on, which never changes once published.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) =>
      finishOpenApiDocument(jsonSchemaTransformObject(input) as Record<string, unknown>),
  });
  // Our helmet CSP applies (scripts from 'self' only); the plugin's own staticCSP would forbid
  // the inline styles Swagger UI needs.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: false,
    uiConfig: { docExpansion: 'none', defaultModelsExpandDepth: -1 },
  });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // Before the routes and extensions: the hooks apply to every POST of this plugin (uploads too).
  installIdempotency(app, deps);

  for (const extension of extensions) await app.register(extension, { deps });

  for (const route of restRoutesOf(router)) {
    const { procedure, procedurePath } = route;
    const shape = routeShape(route);
    const type = procedureTypeOf(procedure);
    const access = accessOf(procedure);
    const status = route.successStatus ?? 200;
    const restIn = readsQuery(route) ? 'querystring' : 'body';
    const facts: OperationFacts = {
      operationId: operationIdOf(procedurePath),
      security: access === 'public' ? PUBLIC : BEARER,
      'x-errors': errorStatusesOf({
        access,
        hasInput: shape.hasInput,
        pathParams: pathParamNames(route.path),
        extra: route.errors,
      }),
      'x-api-key-scope': route.scope,
      ...(route.examples ? { 'x-examples': route.examples } : {}),
      ...(route.errorNotes ? { 'x-error-notes': route.errorNotes } : {}),
    };
    app.route({
      method: route.method,
      url: route.path,
      schema: {
        summary: route.summary,
        description: `${route.description ? `${route.description} ` : ''}Calls the tRPC procedure \`${procedurePath}\`. Access: ${ACCESS_TEXT[access]}.`,
        tags: [route.tag],
        ...(shape.params ? { params: shape.params } : {}),
        ...(shape.rest ? { [restIn]: shape.rest } : {}),
        ...facts,
        response: {
          [status]: shape.response ?? NO_CONTENT,
          '5XX': SERVER_ERROR,
        },
      },
      handler: async (req, reply) => {
        const ctx = await contextOfRequest(deps, req, { acceptsApiKeys: true });
        assertKeyMayCall(ctx, route.scope);
        const from = readsQuery(route) ? req.query : req.body;
        const params = (req.params ?? {}) as Record<string, string>;
        const input = shape.hasInput ? inputOf(from, params, shape.params !== undefined) : undefined;
        const result = await callProcedure({ router, path: procedurePath, type, ctx, input });
        reply.code(status);
        return status === 204 ? reply.send() : reply.send(result);
      },
    });
  }
};

// Zod schemas even for "nothing": the OpenAPI transform accepts zod only.
const NO_CONTENT = z.null().describe('No content');
const SERVER_ERROR = apiError.describe(
  'The server could not answer: 500, or 503 while the database is unavailable',
);

const ACCESS_TEXT: Record<Access, string> = {
  public: 'anyone',
  user: 'any signed-in user',
  admin: 'admins',
  owner: 'the owner account only',
};
