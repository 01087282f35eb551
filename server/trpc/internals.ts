import {
  type AnyProcedure,
  type AnyRouter,
  getTRPCErrorFromUnknown,
  getTRPCErrorShape,
  type ProcedureType,
  TRPCError,
  transformTRPCResponse,
} from '@trpc/server';
import { getHTTPStatusCode } from '@trpc/server/http';
import { isObservable, observableToAsyncIterable } from '@trpc/server/observable';
import type { TRPCResponse } from '@trpc/server/rpc';
import {
  defaultTransformer,
  isAsyncIterable,
  isTrackedEnvelope,
  middlewareMarker,
  parseConnectionParamsFromUnknown,
  parseTRPCMessage,
} from '@trpc/server/unstable-core-do-not-import';
import { zodSchemaOf } from './sync-parse';

/**
 * What the project reads of tRPC beyond its public API, in this one module, read-only: tRPC
 * cannot list a router's procedures, read a procedure's meta, type or schemas, or shape an error
 * outside its adapters, and the REST adapter (server/rest/), the tRPC HTTP hook
 * (server/plugins/trpc-calls.ts), the WebSocket server, /metrics and the cross-cutting tests
 * need that. Nothing here writes to tRPC's objects. internals.test.ts pins each behaviour relied
 * on, so a tRPC upgrade that changes one fails that test by name instead of somewhere downstream.
 *
 * Lazy routers (`experimental_lazy`) are not used: every procedure is in `_def.procedures`.
 */

/** Every procedure of the router by its dotted path ("transactions.list"), sub-routers included. */
export function proceduresOf(router: AnyRouter): ReadonlyMap<string, AnyProcedure> {
  return new Map(Object.entries(router._def.procedures as Record<string, AnyProcedure>));
}

export function procedureTypeOf(procedure: AnyProcedure): ProcedureType {
  return procedure._def.type;
}

/** What `.meta()` set on the procedure (its base procedure's meta included). */
export function procedureMetaOf<TMeta>(procedure: AnyProcedure): TMeta | undefined {
  return procedure._def.meta as TMeta | undefined;
}

/** The zod schema given to `.input()`, or undefined for a procedure without input. */
export function inputSchemaOf(procedure: AnyProcedure): unknown {
  const inputs = procedure._def.inputs as unknown[];
  // tRPC merges several .input() calls into one object; this project never chains them.
  if (inputs.length > 1) throw new Error('A procedure with more than one .input() is not supported here');
  return zodSchemaOf(inputs[0]);
}

/** The zod schema given to `.output()`, or undefined. */
export function outputSchemaOf(procedure: AnyProcedure): unknown {
  return zodSchemaOf((procedure._def as { output?: unknown }).output);
}

/** One call's outcome as tRPC's HTTP adapter writes it: `{result: {data}}` or `{error: shape}`. */
export type CallResult = TRPCResponse;
type CallErrorShape = Extract<CallResult, { error: unknown }>['error'];

/** Anything a procedure threw, as the TRPCError tRPC's adapters would report. */
export const toTRPCError: (cause: unknown) => TRPCError = getTRPCErrorFromUnknown;

/** The error as tRPC's adapters put it in an answer: the router's errorFormatter applied. */
export function errorShapeOf<TContext>(
  router: AnyRouter,
  failure: {
    error: TRPCError;
    /** 'unknown' (and no path) for what fails before a call is read: a WebSocket's context or frame. */
    type: ProcedureType | 'unknown';
    path: string | undefined;
    input: unknown;
    ctx: TContext | undefined;
  },
): CallErrorShape {
  return getTRPCErrorShape({ config: router._def._config, ...failure });
}

/** The input of a call as the router's transformer reads it (the identity without one). */
export function deserializeInput(router: AnyRouter, raw: unknown): unknown {
  return router._def._config.transformer.input.deserialize(raw);
}

/** The answer of one call, or of a batch, as tRPC's HTTP adapter writes it. */
export function serializeResponse(router: AnyRouter, json: CallResult | CallResult[]): unknown {
  // Without a transformer (the portal's routers), tRPC's transform copies every answer to change
  // nothing: a fan-out to 10,000 sockets made 20,000 object spreads of that.
  if (router._def._config.transformer === defaultTransformer) return json;
  return transformTRPCResponse(router._def._config, json);
}

/** The HTTP status tRPC's adapter gives these results: 200, 207 for a mixed batch, or the error's. */
export function httpStatusOf(results: CallResult | CallResult[]): number {
  return getHTTPStatusCode(results);
}

/** A message of tRPC's WebSocket protocol, as its own adapter reads it (server/websocket/live-sockets.ts). */
export type SocketMessage = ReturnType<typeof parseTRPCMessage>;

/** Reads one message of the WebSocket protocol; throws on anything tRPC's adapter would refuse. */
export function parseSocketMessage(router: AnyRouter, raw: unknown): SocketMessage {
  return parseTRPCMessage(raw, router._def._config.transformer);
}

/** The `data` of a connectionParams message, checked as tRPC's adapter checks it. */
export const parseConnectionParams: (data: unknown) => Record<string, string | undefined> | null =
  parseConnectionParamsFromUnknown;

/**
 * Calls the procedure at `path` as tRPC's server-side caller (createCallerFactory) does: NOT_FOUND
 * when there is no procedure of that type there, else its middlewares (its base procedure's one,
 * tRPC's input and output validators, the resolver) with tRPC's semantics, each given the call's
 * options, the procedure's meta, the current input and a `next` that merges the context it is
 * given and may replace the input or the raw input; whatever one throws becomes a failed result
 * there. The one way every transport calls a procedure: the REST adapter, tRPC's plain HTTP
 * queries and mutations (server/plugins/trpc-calls.ts), the WebSocket server, the multipart
 * uploads and the CSV exports. What tRPC's adapter still answers itself (streaming requests,
 * subscriptions over SSE) and the tests' createCaller run the same middlewares through tRPC's
 * runner.
 *
 * Not through tRPC's runner here: its callRecursive copies the call's options twice at every
 * level, with a build helper that defines one property at a time, and a list call has four
 * levels. What this buys (`npm run bench -- api-list`, 2026-12-02, CPU per answer against raw
 * Fastify + pg; goal 1.5x): the tRPC list measured 1.49x to 1.62x in five runs through tRPC's
 * runner, against 1.34x with this one (REST 1.37x to 1.49x, and 1.37x). Nothing here writes to
 * tRPC's objects: the middlewares are read, in order, as tRPC built them. internals.test.ts runs
 * the same procedures both ways and requires the same answers, errors and what each level saw.
 */
export async function callProcedure<TContext>(opts: {
  router: AnyRouter;
  path: string;
  type: ProcedureType;
  /** The input as the client sent it: the procedure's own schema validates it. */
  input: unknown;
  ctx: TContext;
  signal?: AbortSignal | undefined;
  /** The position of this call in a batch (0 outside one). */
  batchIndex?: number;
}): Promise<unknown> {
  const { router, path, type, input, ctx, signal, batchIndex = 0 } = opts;
  const procedure = Object.hasOwn(router._def.procedures, path)
    ? (router._def.procedures as Record<string, AnyProcedure>)[path]
    : undefined;
  if (!procedure || procedureTypeOf(procedure) !== type) {
    throw new TRPCError({ code: 'NOT_FOUND', message: `No "${type}"-procedure on path "${path}"` });
  }
  const { middlewares, meta } = procedure._def as unknown as { middlewares: Middleware[]; meta: unknown };
  const getRawInput = async () => input;
  const options = { ctx, type, path, input: undefined, getRawInput, meta, signal, batchIndex };
  const result = await runFrom(middlewares, 0, options);
  // As tRPC's procedure caller (createProcedureCaller) ends a call.
  if (!result) {
    throw new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'No result from middlewares - did you forget to `return next()`?',
    });
  }
  if (!result.ok) throw result.error;
  return result.data;
}

/** What a middleware answers (tRPC's MiddlewareResult): the data, or the error, and the context. */
type MiddlewareResult =
  | { ok: true; data: unknown; ctx?: unknown; marker: typeof middlewareMarker }
  | { ok: false; error: TRPCError; marker: typeof middlewareMarker };

/** The options of a middleware (tRPC's MiddlewareFunction), without `next`. */
type MiddlewareOptions = {
  ctx: unknown;
  type: ProcedureType;
  path: string;
  input: unknown;
  getRawInput: () => Promise<unknown>;
  meta: unknown;
  signal: AbortSignal | undefined;
  batchIndex: number;
};
type NextOptions = { ctx?: object; input?: unknown; getRawInput?: () => Promise<unknown> } | undefined;
type Middleware = (
  opts: MiddlewareOptions & { next(nextOpts?: NextOptions): Promise<MiddlewareResult> },
) => Promise<MiddlewareResult | undefined>;

/**
 * tRPC's callRecursive, with the options written out field by field (on Node 20's V8 each
 * property added to an object a spread made costs about half a microsecond).
 */
async function runFrom(
  middlewares: readonly Middleware[],
  index: number,
  call: MiddlewareOptions,
): Promise<MiddlewareResult | undefined> {
  try {
    const middleware = middlewares[index] as Middleware;
    return await middleware({
      ctx: call.ctx,
      type: call.type,
      path: call.path,
      input: call.input,
      getRawInput: call.getRawInput,
      meta: call.meta,
      signal: call.signal,
      batchIndex: call.batchIndex,
      next: (nextOpts) =>
        runFrom(middlewares, index + 1, {
          ctx: nextOpts?.ctx ? Object.assign({}, call.ctx, nextOpts.ctx) : call.ctx,
          type: call.type,
          path: call.path,
          input: nextOpts && 'input' in nextOpts ? nextOpts.input : call.input,
          getRawInput: nextOpts?.getRawInput ?? call.getRawInput,
          meta: call.meta,
          signal: call.signal,
          batchIndex: call.batchIndex,
        }) as Promise<MiddlewareResult>,
    });
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: middlewareMarker };
  }
}

/** What a subscription returned, as something to iterate; undefined when it is neither kind. */
export function subscriptionIterable(
  result: unknown,
  signal: AbortSignal,
): AsyncIterable<unknown> | undefined {
  if (isAsyncIterable(result)) return result;
  if (isObservable(result)) return observableToAsyncIterable(result, signal);
  return undefined;
}

/** True for what a procedure answers with that only a subscription may (a stream). */
export const isStream = (value: unknown): boolean => isAsyncIterable(value) || isObservable(value);

/** `tracked(id, data)` from a subscription: the event id a client resumes from, and the data. */
export function trackedEvent(value: unknown): { id: string; data: unknown } | undefined {
  if (!isTrackedEnvelope(value)) return undefined;
  const [id, data] = value;
  return { id, data };
}
