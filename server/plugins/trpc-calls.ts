import type { AnyProcedure, AnyRouter, TRPCError } from '@trpc/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Context } from '../trpc/context';
import {
  type CallResult,
  callProcedure,
  deserializeInput,
  errorShapeOf,
  httpStatusOf,
  proceduresOf,
  procedureTypeOf,
  serializeResponse,
  toTRPCError,
} from '../trpc/internals';
import { routeHooks } from './route-hooks';

/**
 * tRPC's HTTP calls answered through callProcedure (server/trpc/internals.ts), the one entry every
 * transport calls a procedure by, instead of tRPC's Fetch adapter and runner. tRPC 11 turns every
 * Node request into a Fetch Request (Headers, URL, AbortController) and its answer into a Fetch
 * Response that Fastify then streams out: on Node 20 that costs about as much CPU as the rest of
 * a query. What it buys (`npm run bench -- api-list`, 2026-12-02): the tRPC list at 1.26x raw
 * Fastify + pg's CPU per answer and 1.01 of its requests/s with this hook, 2.44x and 0.55
 * through tRPC's adapter alone (goals 1.5x and 0.85).
 *
 * The plain cases are answered here: queries sent as GET and mutations sent as POST with a JSON
 * body, answered as one JSON document (what the client's httpBatchLink sends). The answer is
 * written with tRPC's own functions: the same error shapes (our errorFormatter), the same statuses
 * (207 for a batch of mixed outcomes), the same onError. Everything else (subscriptions,
 * streaming requests, other content types, unknown paths, a call of the wrong method, unreadable
 * input) is left to tRPC's adapter, untouched: it answers those with an error before any
 * procedure runs, or, for a subscription over SSE, runs it.
 */

export type TrpcCallsOptions = {
  router: AnyRouter;
  /** The context tRPC's adapter would make for this request. */
  createContext(req: FastifyRequest): Promise<Context>;
  onError(opts: {
    error: TRPCError;
    path: string;
    input: unknown;
    ctx: Context;
    type: CallType;
    req: FastifyRequest;
  }): void;
  /** The route tRPC's adapter serves, e.g. /trpc/:path. */
  routeUrl: string;
};

type Call = { path: string; input: unknown; procedure: AnyProcedure };
/** What this hook answers: a query sent as GET, a mutation as POST. */
type CallType = 'query' | 'mutation';
const TYPE_OF_METHOD: ReadonlyMap<string, CallType> = new Map([
  ['GET', 'query'],
  ['POST', 'mutation'],
]);

/** A %-escape of a byte over 0x7F (UTF-8 of non-ASCII text), or a malformed one. */
const ESCAPE_BEYOND_ASCII = /%(?![0-7][0-9A-Fa-f])/;

const firstOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : null;

/**
 * The query string's `batch` and `input` as tRPC reads them: URLSearchParams over everything
 * after the first "?" (the first of a repeated name, "+" for a space, escapes decoded as UTF-8).
 * Fastify has already parsed the same text (fast-querystring), which reads it alike as long as
 * every escape is of an ASCII byte: that parse is used then (a second one cost about 2 µs a
 * query). Non-ASCII text or a malformed escape, where the two could differ, is read by
 * URLSearchParams, as tRPC would.
 */
function queryParameters(req: FastifyRequest): { batch: string | null; input: string | null } {
  const at = req.url.indexOf('?');
  const query = at === -1 ? '' : req.url.slice(at + 1);
  if (!ESCAPE_BEYOND_ASCII.test(query)) {
    const parsed = req.query as Record<string, unknown>;
    return { batch: firstOf(parsed.batch), input: firstOf(parsed.input) };
  }
  const search = new URLSearchParams(query);
  return { batch: search.get('batch'), input: search.get('input') };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A plain request: its calls, of one type, and whether they came as a batch. */
type Calls = { calls: Call[]; type: CallType; batch: boolean };

/** The text of the body tRPC's adapter would read as JSON, or null when it is not that. */
function jsonBodyText(req: FastifyRequest): string | null {
  // tRPC reads a body as JSON for this media type only (case aside, parameters ignored).
  const mediaType = String(req.headers['content-type'] ?? '')
    .split(';', 1)[0]
    ?.trim()
    .toLowerCase();
  if (mediaType !== 'application/json') return null;
  // tRPC's plugin hands its route the body as text; anything else is not what it would read.
  return typeof req.body === 'string' ? req.body : null;
}

/** The inputs of the request, as JSON text: the query string's (GET) or the body (POST). */
function inputText(req: FastifyRequest, type: CallType, parameters: { input: string | null }) {
  return type === 'query' ? parameters.input : jsonBodyText(req);
}

/** The calls of a plain request, or undefined for anything tRPC's adapter should see. */
function plainCalls(
  router: AnyRouter,
  procedures: ReadonlyMap<string, AnyProcedure>,
  req: FastifyRequest,
): Calls | undefined {
  const type = TYPE_OF_METHOD.get(req.method);
  if (!type) return undefined;
  // A streaming answer (httpBatchStreamLink, SSE) is the adapter's business.
  if (req.headers['trpc-accept'] !== undefined) return undefined;
  // A fragment never belongs in a request; the adapter's URL parser decides what it means.
  if (req.url.includes('#')) return undefined;
  if (String(req.headers.accept ?? '').includes('application/jsonl')) return undefined;
  const rawPath = (req.params as { path?: unknown }).path;
  if (typeof rawPath !== 'string') return undefined;
  let path: string;
  try {
    path = decodeURIComponent(rawPath); // as tRPC does with the route's (already decoded) parameter
  } catch {
    return undefined;
  }
  const parameters = queryParameters(req);
  const batch = parameters.batch === '1';
  const paths = batch ? path.split(',') : [path];
  const text = inputText(req, type, parameters);
  // A POST without a JSON body (an empty one included) is the adapter's to refuse.
  if (type === 'mutation' && !text) return undefined;
  let inputs: unknown;
  try {
    inputs = text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
  if (batch && inputs !== undefined && !isObject(inputs)) return undefined;
  const calls: Call[] = [];
  for (const [index, callPath] of paths.entries()) {
    const procedure = procedures.get(callPath);
    if (!procedure || procedureTypeOf(procedure) !== type) return undefined;
    const raw = batch ? (inputs as Record<string, unknown> | undefined)?.[index] : inputs;
    calls.push({
      path: callPath,
      input: raw === undefined ? undefined : deserializeInput(router, raw),
      procedure,
    });
  }
  return { calls, type, batch };
}

async function answer(
  options: TrpcCallsOptions,
  req: FastifyRequest,
  reply: FastifyReply,
  { calls, type, batch }: Calls,
  ctx: Context,
) {
  const { router } = options;
  const results = await Promise.all(
    calls.map(async ({ path, input }, batchIndex): Promise<CallResult> => {
      try {
        const data = await callProcedure({ router, path, type, ctx, input, batchIndex });
        return { result: { data } };
      } catch (cause) {
        const error = toTRPCError(cause);
        options.onError({ error, path, input, ctx, type, req });
        return { error: errorShapeOf(router, { error, type, path, input, ctx }) };
      }
    }),
  );
  const json = batch ? results : (results[0] as CallResult);
  return (
    reply
      .code(httpStatusOf(results))
      .header('vary', 'trpc-accept, accept')
      .header('content-type', 'application/json')
      // Serialized by the reply's own serializer, so that Fastify leaves the content type exactly
      // as tRPC writes it (no charset added), and the text goes to the socket without a Buffer
      // copy of it first.
      .serializer(JSON.stringify)
      .send(serializeResponse(router, json))
  );
}

export const trpcCalls = fp<TrpcCallsOptions>(async (app, options) => {
  const procedures = proceduresOf(options.router);
  const answerCalls = async (req: FastifyRequest, reply: FastifyReply) => {
    const calls = plainCalls(options.router, procedures, req);
    if (!calls) return;
    let ctx: Context;
    try {
      ctx = await options.createContext(req);
    } catch {
      return; // the adapter makes it again and answers the failure in its own way
    }
    await answer(options, req, reply, calls, ctx);
    return reply;
  };
  // On tRPC's route only, where an app-wide hook would run (and return) on every other request.
  // preHandler, not onRequest: route-level onRequest hooks (the per-IP rate limit among them) must
  // run first. First among the route's own preHandlers, where an app-wide one would run.
  app.addHook('onRoute', (route) => {
    if (route.url !== options.routeUrl) return;
    route.preHandler = [answerCalls, ...routeHooks(route.preHandler)];
  });
});
