import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { AnyProcedure, AnyRouter, inferProcedureInput } from '@trpc/server';
import type { FastifyPluginAsync } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiError } from '../../shared/schemas/common';
import type { AppDeps } from '../deps';
import { installIdempotency } from '../plugins/idempotency';
import { contextOfRequest } from '../trpc/context';
import { type Access, accessOf } from '../trpc/init';
import {
  callProcedure,
  inputSchemaOf,
  outputSchemaOf,
  proceduresOf,
  procedureTypeOf,
} from '../trpc/internals';
import {
  BEARER,
  type ErrorStatus,
  errorStatusesOf,
  finishOpenApiDocument,
  type OperationFacts,
  operationIdOf,
  PUBLIC,
} from './openapi';
import { nameOpenApiSchemas } from './schema-names';
import { assertKeyMayCall, type PathScope } from './scopes';

/**
 * The /api adapter: a table of documented paths, each calling exactly one
 * tRPC procedure, the way a server-side caller calls it. The procedure does all the work
 * (authentication, then input validation with its zod schema, then the service), so REST and
 * tRPC cannot drift apart.
 *
 * A row names only its method, path, words and procedure: its path parameters, its query string
 * or body and its answer are all read from the procedure's own input and output schemas. The path
 * parameters are fields of the input (the compiler checks each `:name` of the path against the
 * procedure's input type); every other field of the input comes from the query string (GET,
 * DELETE) or the JSON body (POST, PUT). Changing a procedure's input therefore changes the
 * documented route with it, or fails the typecheck where a path names a field that is gone.
 */

export type RestMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type RestRoute = {
  method: RestMethod;
  /** Fastify syntax: /api/transactions/:userId */
  url: string;
  summary: string;
  tag: string;
  /** The procedure object itself (e.g. appRouter.transactions.list). */
  procedure: AnyProcedure;
  successStatus?: 200 | 201 | 204;
  /**
   * 4xx statuses the procedure answers beyond those its access and path imply (400 with input, 401
   * signed in, 403 admin/owner or `{userId}`, 404 with a path parameter, 429 always): e.g. [409].
   */
  errors?: ReadonlyArray<ErrorStatus>;
};

/** The names of a Fastify path's parameters: '/api/t/:id/forms/:formId' gives 'id' | 'formId'. */
export type PathParams<Url extends string> = Url extends `${string}:${infer Param}/${infer Rest}`
  ? Param | PathParams<`/${Rest}`>
  : Url extends `${string}:${infer Param}`
    ? Param
    : never;

type InputFields<TProcedure extends AnyProcedure> = keyof NonNullable<inferProcedureInput<TProcedure>>;

/** The path, when each of its parameters is a field of the procedure's input; else never. */
type PathOf<TProcedure extends AnyProcedure, Url extends string> = [
  Exclude<PathParams<Url>, InputFields<TProcedure>>,
] extends [never]
  ? Url
  : never;

/**
 * Declares a row. A path parameter that is not a field of the procedure's input is a type error
 * here ("not assignable to never"), and the app refuses to start with such a row as well.
 */
export function restRoute<TProcedure extends AnyProcedure, const Url extends string>(
  route: Omit<RestRoute, 'url' | 'procedure'> & { url: Url & PathOf<TProcedure, Url>; procedure: TProcedure },
): RestRoute {
  return route;
}

/** The parameter names of a Fastify path, in order. */
export function pathParamNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? '');
}

const readsQuery = (method: RestMethod) => method === 'GET' || method === 'DELETE';

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

function routeShape(route: RestRoute, path: string): RouteShape {
  const where = `REST route ${route.method} ${route.url}`;
  const names = pathParamNames(route.url);
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
  router: AnyRouter;
  routes: ReadonlyArray<RestRoute>;
  /** What an API key needs for each path (server/rest/scopes.ts); a path without one refuses to start. */
  scopeOf: (method: string, url: string) => PathScope;
  version: string;
  /**
   * /api routes that are not one procedure call (multipart uploads), documented alongside; each
   * states its OperationFacts (server/rest/openapi.ts) in its schema.
   */
  extensions?: ReadonlyArray<FastifyPluginAsync<{ deps: AppDeps }>>;
};

export const restPlugin: FastifyPluginAsync<RestPluginOptions> = async (
  app,
  { deps, router, routes, scopeOf, version, extensions = [] },
) => {
  const pathOf = new Map([...proceduresOf(router)].map(([path, procedure]) => [procedure, path]));

  // Validation is the procedure's job (after authentication), and its
  // output was already checked by `.output()`: Fastify only passes data through here.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  nameOpenApiSchemas();
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

  for (const route of routes) {
    const path = pathOf.get(route.procedure);
    if (!path) {
      throw new Error(
        `REST route ${route.method} ${route.url} calls a procedure that is not in the mounted router`,
      );
    }
    const shape = routeShape(route, path);
    const type = procedureTypeOf(route.procedure);
    const access = accessOf(route.procedure);
    const status = route.successStatus ?? 200;
    const restIn = readsQuery(route.method) ? 'querystring' : 'body';
    const scope = scopeOf(route.method, route.url);
    const facts: OperationFacts = {
      operationId: operationIdOf(path),
      security: access === 'public' ? PUBLIC : BEARER,
      'x-errors': errorStatusesOf({
        access,
        hasInput: shape.hasInput,
        pathParams: pathParamNames(route.url),
        extra: route.errors,
      }),
    };
    app.route({
      method: route.method,
      url: route.url,
      schema: {
        summary: route.summary,
        description: `Calls the tRPC procedure \`${path}\`. Access: ${ACCESS_TEXT[access]}.`,
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
        assertKeyMayCall(ctx, scope);
        const from = readsQuery(route.method) ? req.query : req.body;
        const params = (req.params ?? {}) as Record<string, string>;
        const input = shape.hasInput ? inputOf(from, params, shape.params !== undefined) : undefined;
        const result = await callProcedure({ router, path, type, ctx, input });
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
