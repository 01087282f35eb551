import {
  type AnyProcedure,
  type AnyRouter,
  callTRPCProcedure,
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
  defaultTransformer,
  isAsyncIterable,
  isTrackedEnvelope,
  parseConnectionParamsFromUnknown,
  parseTRPCMessage,
} from '@trpc/server/unstable-core-do-not-import';
import { zodSchemaOf } from './sync-parse';

/**
 * What the project reads of tRPC beyond its public API, in this one module, read-only: tRPC
 * cannot list a router's procedures, read a procedure's meta, type or schemas, or shape an error
 * outside its adapters, and the REST adapter (server/rest/), the query hook
 * (server/plugins/trpc-queries.ts), the WebSocket server, /metrics and the cross-cutting tests
 * need that. Nothing here writes to tRPC's objects, and procedures always run through tRPC's own
 * runner (callProcedure below). internals.test.ts pins each behaviour relied on, so a tRPC upgrade
 * that changes one fails that test by name instead of somewhere downstream.
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
 * Calls the procedure at `path` through tRPC's own runner, as its adapters do: NOT_FOUND when
 * there is no procedure of that type there, else its middlewares, validation and resolver. Every
 * transport (tRPC over HTTP and WebSocket, the REST adapter) calls procedures this way.
 */
export function callProcedure<TContext>(opts: {
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
  return callTRPCProcedure({ router, path, type, ctx, signal, batchIndex, getRawInput: async () => input });
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
