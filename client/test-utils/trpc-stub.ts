import { createTRPCClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import { isObservable, type Observer, observable } from '@trpc/server/observable';
import type { AppRouter } from '../../server/trpc/router';
import type { ApiErrorId } from '../../shared/schemas/common';
import type { TrpcClient } from '../trpc';

/**
 * A tRPC client whose network is a table of handlers, one per procedure path ('auth.login').
 * Handlers return the answer (or a promise of it) or throw `trpcError(...)`, as the server would.
 */

export type StubHandler = (input: unknown) => unknown;
export type StubCall = { path: string; input: unknown };

const CODE_BY_STATUS: Record<number, { code: number; name: string }> = {
  400: { code: -32600, name: 'BAD_REQUEST' },
  401: { code: -32001, name: 'UNAUTHORIZED' },
  403: { code: -32003, name: 'FORBIDDEN' },
  404: { code: -32004, name: 'NOT_FOUND' },
  409: { code: -32009, name: 'CONFLICT' },
  429: { code: -32029, name: 'TOO_MANY_REQUESTS' },
  500: { code: -32603, name: 'INTERNAL_SERVER_ERROR' },
  503: { code: -32603, name: 'SERVICE_UNAVAILABLE' },
};

/** The error id the server gives a status when it says nothing more precise. */
const ERROR_ID_BY_STATUS: Record<number, ApiErrorId> = {
  400: 'validation',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  422: 'idempotency-mismatch',
  429: 'rate-limited',
  503: 'service-unavailable',
};

/**
 * The error a tRPC call rejects with when the server answered `httpStatus` with `message`, and
 * the fields it named (`issues`, as a validation failure carries them); `error` is the id, the
 * status's own unless given.
 */
export function trpcError(
  httpStatus: number,
  message: string,
  issues?: Array<{ path: string; message: string }>,
  error: ApiErrorId = ERROR_ID_BY_STATUS[httpStatus] ?? 'internal',
): TRPCClientError<AppRouter> {
  const { code, name } = CODE_BY_STATUS[httpStatus] ?? { code: -32603, name: 'INTERNAL_SERVER_ERROR' };
  return TRPCClientError.from({
    error: { code, message, data: { code: name, httpStatus, error, ...(issues ? { issues } : {}) } },
  });
}

function stubLink(handlers: Record<string, StubHandler>, calls: StubCall[]): TRPCLink<AppRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        calls.push({ path: op.path, input: op.input });
        const handler = handlers[op.path];
        let active = true;
        let stream: { unsubscribe: () => void } | null = null;
        // Always asynchronous, as the network is: a page gets to render its pending state.
        Promise.resolve()
          .then(() => {
            if (!handler) throw new Error(`tRPC "${op.path}" called without a stub handler`);
            return handler(op.input);
          })
          .then(
            (data) => {
              if (!active) return;
              // A subscription handler answers with an observable (see stubSubscription): its
              // values become events, as the wsLink delivers them, until it errors or completes.
              if (op.type === 'subscription' && isObservable(data)) {
                observer.next({ result: { type: 'started' } });
                stream = data.subscribe({
                  next: (value) => {
                    if (active) observer.next({ result: { type: 'data', data: value } });
                  },
                  error: (error: unknown) => {
                    if (active) observer.error(TRPCClientError.from(error as Error));
                  },
                  complete: () => {
                    if (active) observer.complete();
                  },
                });
                return;
              }
              observer.next({ result: { type: 'data', data } });
              observer.complete();
            },
            (error: unknown) => {
              if (active) observer.error(TRPCClientError.from(error as Error));
            },
          );
        return () => {
          active = false;
          stream?.unsubscribe();
        };
      });
}

type StubOptions = {
  /** Links placed before the stub network, such as the session refresh link under test. */
  before?: TRPCLink<AppRouter>[];
};

export type StubbedTrpc = {
  client: TrpcClient;
  /** Every call that reached the stub network, in order. */
  calls: StubCall[];
  callsTo: (path: string) => unknown[];
};

export function stubTrpcClient(
  handlers: Record<string, StubHandler>,
  options: StubOptions = {},
): StubbedTrpc {
  const calls: StubCall[] = [];
  const client = createTRPCClient<AppRouter>({
    links: [...(options.before ?? []), stubLink(handlers, calls)],
  });
  return {
    client,
    calls,
    callsTo: (path) => calls.filter((call) => call.path === path).map((call) => call.input),
  };
}

/** A promise settled by the test, to hold a request open while the page shows its pending state. */
export function deferred<T = unknown>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A subscription the test drives: pass `handler` as the procedure's stub handler, then `emit`
 * events (as the client receives them: `{ id, data }` for tracked ones) or `fail` the open
 * subscriptions. `inputs` lists the input of every subscribe, resubscriptions included.
 */
export function stubSubscription<T = unknown>() {
  const observers = new Set<Observer<T, unknown>>();
  const inputs: unknown[] = [];
  return {
    inputs,
    handler: (input: unknown) => {
      inputs.push(input);
      return observable<T, unknown>((observer) => {
        observers.add(observer);
        return () => {
          observers.delete(observer);
        };
      });
    },
    /** How many subscriptions are open now. */
    open: () => observers.size,
    emit: (value: T) => {
      for (const observer of [...observers]) observer.next(value);
    },
    /** Ends every open subscription with `error`, e.g. `trpcError(401, ...)`. */
    fail: (error: unknown) => {
      for (const observer of [...observers]) {
        observers.delete(observer);
        observer.error(error);
      }
    },
  };
}
