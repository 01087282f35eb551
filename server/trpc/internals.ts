import {
  type AnyProcedure,
  type AnyRouter,
  getTRPCErrorFromUnknown,
  getTRPCErrorShape,
  type ProcedureType,
  type TRPCError,
  transformTRPCResponse,
} from '@trpc/server';
import { getHTTPStatusCode } from '@trpc/server/http';
import { isObservable, observableToAsyncIterable } from '@trpc/server/observable';
import type { TRPCResponse } from '@trpc/server/rpc';
import {
  callProcedure as callProcedureAtPath,
  createInputMiddleware,
  createOutputMiddleware,
  defaultTransformer,
  isAsyncIterable,
  isTrackedEnvelope,
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
 * table and the query fast path hold the procedure already).
 */
export function callProcedure<TContext>(call: ProcedureCall<TContext>): Promise<unknown> {
  return (call.procedure as unknown as Invoke)({
    path: call.path,
    getRawInput: async () => call.input,
    ctx: call.ctx,
    type: call.procedure._def.type,
    signal: call.signal,
    batchIndex: call.batchIndex ?? 0,
  });
}

/** A middleware of a built procedure; tRPC marks its validators with `_type`. */
type BuiltMiddleware = ((opts: never) => Promise<unknown>) & { _type?: string };
const synchronous = new WeakSet<BuiltMiddleware>();

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

/**
 * Gives every procedure of `router` whose input or output is one zod schema the validators tRPC
 * itself builds (createInputMiddleware, createOutputMiddleware: the same errors, the same merging
 * of inputs), around parsedSynchronouslyFirst. Done once, as the routers are built; the
 * procedures are changed in place, so every way of calling them (HTTP, REST, callers, the
 * WebSocket) validates the same way.
 */
export function validateSynchronously<TRouter extends AnyRouter>(router: TRouter): TRouter {
  for (const procedure of proceduresOf(router).values()) {
    const def = procedure._def as unknown as {
      inputs: unknown[];
      output?: unknown;
      middlewares: BuiltMiddleware[];
    };
    const [input, ...more] = def.inputs;
    def.middlewares.forEach((middleware, index) => {
      if (synchronous.has(middleware)) return;
      let replacement: BuiltMiddleware | undefined;
      if (middleware._type === 'input' && input instanceof z.ZodType && more.length === 0) {
        replacement = createInputMiddleware(parsedSynchronouslyFirst(input)) as BuiltMiddleware;
      } else if (middleware._type === 'output' && def.output instanceof z.ZodType) {
        replacement = createOutputMiddleware(parsedSynchronouslyFirst(def.output)) as BuiltMiddleware;
      }
      if (!replacement) return;
      synchronous.add(replacement);
      def.middlewares[index] = replacement;
    });
  }
  return router;
}

/** True when each zod validator of `procedure` is one of validateSynchronously's (tests ask). */
export function validatesSynchronously(procedure: AnyProcedure): boolean {
  const def = procedure._def as unknown as { middlewares: BuiltMiddleware[] };
  const validators = def.middlewares.filter((m) => m._type === 'input' || m._type === 'output');
  return validators.length > 0 && validators.every((m) => synchronous.has(m));
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
