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
  callProcedure as callProcedureAtPath,
  defaultTransformer,
  isAsyncIterable,
  isTrackedEnvelope,
  middlewareMarker,
  parseConnectionParamsFromUnknown,
  parseTRPCMessage,
} from '@trpc/server/unstable-core-do-not-import';
import { z } from 'zod';

/**
 * Every use of tRPC's internals in the project, in this one module (issue 16). tRPC's public API
 * cannot list a router's procedures, read a procedure's meta, type or schemas, or answer a query
 * with tRPC's own error shape outside its adapters; the REST adapter (server/rest/), the query
 * fast path (server/plugins/trpc-queries.ts), /metrics and the cross-cutting tests need all of
 * that. They ask here, and internals.test.ts pins each behaviour relied on, so a tRPC upgrade that
 * changes one fails that test by name instead of somewhere downstream. What tRPC exports publicly
 * (getTRPCErrorShape, getHTTPStatusCode...) is still called only from here: the functions are
 * public, but the shapes they take (the router's `_def._config`) are not.
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

/** The schema given to `.input()` (zod here), or undefined for a procedure without input. */
export function inputSchemaOf(procedure: AnyProcedure): unknown {
  const inputs = procedure._def.inputs as unknown[];
  // tRPC merges several .input() calls into one object; this project never chains them.
  if (inputs.length > 1) throw new Error('A procedure with more than one .input() is not supported here');
  return inputs[0];
}

/** The schema given to `.output()`, or undefined. */
export function outputSchemaOf(procedure: AnyProcedure): unknown {
  return (procedure._def as { output?: unknown }).output;
}

export type ProcedureCall<TContext> = {
  procedure: AnyProcedure;
  /** Its path in the router, for error shapes and logs. */
  path: string;
  ctx: TContext;
  /** The input as the client sent it: the procedure's own schema validates it. */
  input: unknown;
  /** The position of this call in a batch (0 outside one). */
  batchIndex?: number;
  signal?: AbortSignal;
};

/** How tRPC's server-side caller (createCallerFactory) invokes a built procedure. */
type Invoke = (opts: {
  path: string;
  getRawInput: () => Promise<unknown>;
  ctx: unknown;
  type: ProcedureType;
  signal: AbortSignal | undefined;
  batchIndex: number;
}) => Promise<unknown>;

/**
 * Calls a procedure the way tRPC's own server-side caller does (middlewares, input and output
 * validation), on the hot paths: no caller proxy built per request, no lookup by path (the REST
 * table and the query fast path hold the procedure already). A procedure prepared by
 * prepareProcedures starts its chain here directly, with what tRPC's procedure caller would do
 * around it (createProcedureCaller: a failed result is thrown, no result is an error).
 */
export async function callProcedure<TContext>(call: ProcedureCall<TContext>): Promise<unknown> {
  const chain = chainOfProcedure(call.procedure);
  const getRawInput = async () => call.input;
  const { type, meta } = call.procedure._def;
  const batchIndex = call.batchIndex ?? 0;
  const { path, ctx, signal } = call;
  if (!chain)
    return (call.procedure as unknown as Invoke)({ path, getRawInput, ctx, type, signal, batchIndex });
  const result = await chain.start({
    ctx,
    type,
    path,
    input: undefined,
    getRawInput,
    meta,
    signal,
    batchIndex,
  });
  if (!result) {
    throw new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'No result from middlewares - did you forget to `return next()`?',
    });
  }
  if (!result.ok) throw result.error;
  return result.data;
}

/** A middleware of a built procedure; tRPC marks its validators with `_type`. */
type BuiltMiddleware = ((opts: never) => Promise<unknown>) & { _type?: string };

/** What a middleware answers (tRPC's MiddlewareResult): the data, or the error, and the context. */
type ChainResult =
  | { ok: true; data: unknown; ctx?: unknown; marker: typeof middlewareMarker }
  | { ok: false; error: TRPCError; marker: typeof middlewareMarker };

/** The options of a middleware (tRPC's MiddlewareFunction), without `next`. */
type ChainOptions = {
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
  opts: ChainOptions & { next(nextOpts?: NextOptions): Promise<ChainResult> },
) => Promise<unknown>;

/** Our validator middlewares, marked as tRPC marks its own. */
const ourValidators = new WeakSet<BuiltMiddleware>();

/**
 * A zod schema's parse, synchronous first. tRPC validates with `parseAsync`, and zod runs its
 * compiled code for objects only in a synchronous parse: checking a page of ten transactions
 * costs about 70 µs of CPU through parseAsync against 11 through parse, on every list call
 * (issue 23, docs/PERFORMANCE.md). The result, the errors and the stripping of unknown keys are
 * the same. A schema with an async refinement cannot be parsed synchronously (zod says so with
 * $ZodAsyncError before it answers anything): it is parsed asynchronously, as tRPC would.
 */
function parsedSynchronouslyFirst(schema: z.ZodType): (value: unknown) => unknown {
  return (value) => {
    try {
      return schema.parse(value);
    } catch (error) {
      if (error instanceof z.core.$ZodAsyncError) return schema.parseAsync(value);
      throw error;
    }
  };
}

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * tRPC's createInputMiddleware, written out (the same error, the same merge of an object input
 * over what an earlier `.input()` gave) without tRPC's build helper, which copies objects one
 * property at a time.
 */
function inputValidator(parse: (value: unknown) => unknown): BuiltMiddleware {
  const middleware: Middleware = async (opts) => {
    const rawInput = await opts.getRawInput();
    let parsed: unknown;
    try {
      parsed = await parse(rawInput);
    } catch (cause) {
      throw new TRPCError({ code: 'BAD_REQUEST', cause });
    }
    const input = isPlainRecord(opts.input) && isPlainRecord(parsed) ? { ...opts.input, ...parsed } : parsed;
    return opts.next({ input });
  };
  return markedValidator(middleware, 'input');
}

/** tRPC's createOutputMiddleware, written out the same way. */
function outputValidator(parse: (value: unknown) => unknown): BuiltMiddleware {
  const middleware: Middleware = async ({ next }) => {
    const result = await next();
    if (!result.ok) return result;
    try {
      return { ...result, data: await parse(result.data) };
    } catch (cause) {
      throw new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause });
    }
  };
  return markedValidator(middleware, 'output');
}

function markedValidator(middleware: Middleware, type: 'input' | 'output'): BuiltMiddleware {
  const built = Object.assign(middleware, { _type: type }) as unknown as BuiltMiddleware;
  ourValidators.add(built);
  return built;
}

/**
 * A procedure's middlewares (its base procedure's, its validators, its resolver), run by
 * `chainOf` in one middleware that tRPC's caller sees as its only one. tRPC's own runner
 * (callRecursive) copies the call's options twice per middleware, and the context again at each
 * `next({ctx})`, with a build helper that defines one property at a time: about 6% of the CPU of
 * a list answer (issue 23, docs/PERFORMANCE.md). This one does the same, writing the options
 * out field by field.
 */
type Chain = BuiltMiddleware & {
  middlewares: BuiltMiddleware[];
  /** Runs the chain from its first middleware, as tRPC's caller would (callProcedure below). */
  start(opts: ChainOptions): Promise<ChainResult>;
};
const chains = new WeakSet<BuiltMiddleware>();

/**
 * What tRPC's callRecursive does, middleware by middleware: each receives the call's options
 * with the procedure's meta and the current input, and a `next` that merges the context it is
 * given over the current one and may replace the input or the raw input; whatever a middleware
 * throws becomes a failed result there, as tRPC's getTRPCErrorFromUnknown makes it.
 * internals.test.ts runs the same procedures through both runners and requires the same outcomes.
 *
 * The options are written out field by field (tRPC's MiddlewareFunction type lists them), not
 * spread: on Node 20's V8 each property added to an object made by a spread costs about half a
 * microsecond, and a call through six levels added about twenty.
 */
function chainOf(middlewares: BuiltMiddleware[]): Chain {
  const run = async (index: number, call: ChainOptions): Promise<ChainResult> => {
    try {
      const middleware = middlewares[index] as unknown as Middleware;
      return (await middleware({
        ctx: call.ctx,
        type: call.type,
        path: call.path,
        input: call.input,
        getRawInput: call.getRawInput,
        meta: call.meta,
        signal: call.signal,
        batchIndex: call.batchIndex,
        next: (nextOpts) =>
          run(index + 1, {
            ctx: nextOpts?.ctx ? Object.assign({}, call.ctx, nextOpts.ctx) : call.ctx,
            type: call.type,
            path: call.path,
            input: nextOpts && 'input' in nextOpts ? nextOpts.input : call.input,
            getRawInput: nextOpts?.getRawInput ?? call.getRawInput,
            meta: call.meta,
            signal: call.signal,
            batchIndex: call.batchIndex,
          }),
      })) as ChainResult;
    } catch (cause) {
      return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: middlewareMarker };
    }
  };
  // tRPC's caller calls this as the procedure's only middleware, with its meta among the options.
  const chain = ((opts: ChainOptions) => run(0, opts)) as unknown as Chain;
  chain.middlewares = middlewares;
  chain.start = run.bind(null, 0);
  chains.add(chain);
  return chain;
}

/** The chain a prepared procedure runs, or undefined for one prepareProcedures has not seen. */
function chainOfProcedure(procedure: AnyProcedure): Chain | undefined {
  const own = (procedure._def as unknown as { middlewares: BuiltMiddleware[] }).middlewares;
  const [first] = own;
  return own.length === 1 && first && chains.has(first) ? (first as Chain) : undefined;
}

/** The middlewares of a built procedure, as tRPC built them or inside its chain. */
function middlewaresOf(procedure: AnyProcedure): BuiltMiddleware[] {
  return (
    chainOfProcedure(procedure)?.middlewares ??
    (procedure._def as unknown as { middlewares: BuiltMiddleware[] }).middlewares
  );
}

/**
 * Prepares every procedure of `router` to be called cheaply, once, as the routers are built
 * (init.ts's `router`): a zod input or output schema gets a validator around
 * parsedSynchronouslyFirst (tRPC's checks, the same errors), and the middlewares run in one
 * chain (chainOf). The procedures are changed in place, so every way of calling them (HTTP,
 * REST, callers, the WebSocket) goes the same way. A nested router's procedures, already
 * prepared, are left as they are when the parent router is built.
 */
export function prepareProcedures<TRouter extends AnyRouter>(router: TRouter): TRouter {
  for (const procedure of proceduresOf(router).values()) {
    const def = procedure._def as unknown as {
      inputs: unknown[];
      output?: unknown;
      middlewares: BuiltMiddleware[];
    };
    if (chainOfProcedure(procedure)) continue;
    const [input, ...more] = def.inputs;
    const middlewares = def.middlewares.map((middleware) => {
      if (middleware._type === 'input' && input instanceof z.ZodType && more.length === 0) {
        return inputValidator(parsedSynchronouslyFirst(input));
      }
      if (middleware._type === 'output' && def.output instanceof z.ZodType) {
        return outputValidator(parsedSynchronouslyFirst(def.output));
      }
      return middleware;
    });
    // In place: tRPC's caller reads this very array at each call.
    def.middlewares.splice(0, def.middlewares.length, chainOf(middlewares));
  }
  return router;
}

/** True when each zod validator of `procedure` is one of prepareProcedures's (tests ask). */
export function validatesSynchronously(procedure: AnyProcedure): boolean {
  const validators = middlewaresOf(procedure).filter((m) => m._type === 'input' || m._type === 'output');
  return validators.length > 0 && validators.every((m) => ourValidators.has(m));
}

/** True when `procedure`'s middlewares run in prepareProcedures's chain (tests ask). */
export function runsInOneChain(procedure: AnyProcedure): boolean {
  return chainOfProcedure(procedure) !== undefined;
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
  // nothing: a fan-out to 10,000 sockets made 20,000 object spreads of that (issue 23).
  if (router._def._config.transformer === defaultTransformer) return json;
  return transformTRPCResponse(router._def._config, json);
}

/** The HTTP status tRPC's adapter gives these results: 200, 207 for a mixed batch, or the error's. */
export function httpStatusOf(results: CallResult | CallResult[]): number {
  return getHTTPStatusCode(results);
}

/** A message of tRPC's WebSocket protocol, as its own adapter reads it (server/realtime/live-sockets.ts). */
export type SocketMessage = ReturnType<typeof parseTRPCMessage>;

/** Reads one message of the WebSocket protocol; throws on anything tRPC's adapter would refuse. */
export function parseSocketMessage(router: AnyRouter, raw: unknown): SocketMessage {
  return parseTRPCMessage(raw, router._def._config.transformer);
}

/** The `data` of a connectionParams message, checked as tRPC's adapter checks it. */
export const parseConnectionParams: (data: unknown) => Record<string, string | undefined> | null =
  parseConnectionParamsFromUnknown;

/**
 * Calls the procedure at `path` the way tRPC's WebSocket adapter does: NOT_FOUND when there is no
 * procedure of that type there, else its middlewares, input validation and resolver.
 */
export function callProcedureOverSocket<TContext>(opts: {
  router: AnyRouter;
  path: string;
  type: ProcedureType;
  input: unknown;
  ctx: TContext;
  signal: AbortSignal;
  batchIndex: number;
}): Promise<unknown> {
  return callProcedureAtPath({ ...opts, getRawInput: async () => opts.input });
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
