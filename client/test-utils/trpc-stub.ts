import { createTRPCClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AppRouter } from '../../server/trpc/router';
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

/** The error a tRPC call rejects with when the server answered `httpStatus` with `message`. */
export function trpcError(httpStatus: number, message: string): TRPCClientError<AppRouter> {
  const { code, name } = CODE_BY_STATUS[httpStatus] ?? { code: -32603, name: 'INTERNAL_SERVER_ERROR' };
  return TRPCClientError.from({ error: { code, message, data: { code: name, httpStatus } } });
}

export function stubLink(handlers: Record<string, StubHandler>, calls: StubCall[]): TRPCLink<AppRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        calls.push({ path: op.path, input: op.input });
        const handler = handlers[op.path];
        let active = true;
        // Always asynchronous, as the network is: a page gets to render its pending state.
        Promise.resolve()
          .then(() => {
            if (!handler) throw new Error(`tRPC "${op.path}" called without a stub handler`);
            return handler(op.input);
          })
          .then(
            (data) => {
              if (!active) return;
              observer.next({ result: { type: 'data', data } });
              observer.complete();
            },
            (error: unknown) => {
              if (active) observer.error(TRPCClientError.from(error as Error));
            },
          );
        return () => {
          active = false;
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
