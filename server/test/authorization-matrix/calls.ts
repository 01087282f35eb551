import { proceduresOf, procedureTypeOf } from '../../trpc/internals';
import { appRouter } from '../../trpc/router';
import { bearer, multipartBody, subscribeOverWebSocket, TINY_PDF, trpcRequest } from '../api-calls';
import { anyZip } from './archives';
import type { ProcedureRow } from './procedures';
import { ROUTES, type RouteRequest, type RouteRow } from './routes';
import { type Expected, OK, type Outcome } from './rules';
import { ACTORS, type ActorName, photo, running, tokenOf } from './world';

/** The matrix's cells, called for real: tRPC over HTTP or a WebSocket, and every HTTP route. */

/** How many calls the cells made. */
export let calls = 0;
/** Every cell comes from its own address, so the per-address sign-in limits never decide a cell. */
const nextAddress = () => {
  calls++;
  return `10.${(calls >> 16) & 255}.${(calls >> 8) & 255}.${calls & 255}`;
};

export function outcomeOf(status: number): Outcome | number {
  return status >= 200 && status < 300 ? OK : status;
}

/** Every procedure of the app by its path, as tRPC's router records them. */
export const allProcedures = [...proceduresOf(appRouter)];
export const procedureTypes = new Map(
  allProcedures.map(([path, procedure]) => [path, procedureTypeOf(procedure)]),
);

export async function callProcedure(
  path: string,
  row: ProcedureRow,
  actor: ActorName,
): Promise<Outcome | number> {
  const type = procedureTypes.get(path);
  if (!type) throw new Error(`${path} is not a procedure of appRouter`);
  if (row.via) {
    const route = ROUTES[row.via];
    if (!route) throw new Error(`${path} names ${row.via}, which has no row`);
    return callRoute(row.via, route, actor);
  }
  const input = await row.input?.(actor);
  const token = await tokenOf(actor);
  if (type === 'subscription') {
    nextAddress();
    const subscription = subscribeOverWebSocket(running.webSocketUrl, path, input, token);
    try {
      return await Promise.race([subscription.started.then(() => OK), subscription.failed]);
    } finally {
      subscription.close();
    }
  }
  const res = await running.app.inject({
    ...trpcRequest(path, type, input, bearer(token)),
    remoteAddress: nextAddress(),
  });
  return outcomeOf(res.statusCode);
}

export async function callRoute(
  key: string,
  row: RouteRow,
  actor: ActorName,
  apiKey?: string,
): Promise<Outcome | number> {
  return outcomeOf((await sendRoute(key, row, apiKey ?? (await tokenOf(actor)), actor)).statusCode);
}

/** Calls a route with the row's request as `actor` would send it, with `token` as its bearer. */
export async function sendRoute(
  key: string,
  row: RouteRow,
  token: string | undefined,
  actor: ActorName = 'owner',
) {
  return sendRequest(key, await row.request(actor), token);
}

/** Sends a request already made: cells that are refused before anything happens share one. */
export async function sendRequest(key: string, request: RouteRequest, token: string | undefined) {
  const method = key.slice(0, key.indexOf(' ')) as 'GET' | 'POST' | 'PUT' | 'DELETE';
  const headers = bearer(token);
  const file = request.upload
    ? multipartBody(
        request.upload === 'photo' ? await photo() : request.upload === 'zip' ? await anyZip() : TINY_PDF,
        request.upload === 'photo' ? 'page.jpg' : request.upload === 'zip' ? 'archive.zip' : undefined,
      )
    : undefined;
  const payload = file?.payload ?? (request.payload as object | undefined);
  return running.app.inject({
    method,
    url: request.url,
    remoteAddress: nextAddress(),
    headers: { ...headers, ...file?.headers },
    ...(payload === undefined ? {} : { payload }),
  });
}

export const named = (expected: Expected) =>
  Object.fromEntries(ACTORS.map((actor, i) => [actor, expected[i]])) as Record<ActorName, Outcome>;

/**
 * Runs the nine cells of a row one after the other and returns the cells whose outcome is not the
 * expected one (`{}` when all are), each as `actor: "expected 404, got ok"`.
 */
export async function mismatches(
  expected: Expected,
  cell: (actor: ActorName) => Promise<Outcome | number>,
): Promise<Partial<Record<ActorName, string>>> {
  const wanted = named(expected);
  const wrong: Partial<Record<ActorName, string>> = {};
  for (const actor of ACTORS) {
    const got = await cell(actor);
    if (got !== wanted[actor]) wrong[actor] = `expected ${wanted[actor]}, got ${got}`;
  }
  return wrong;
}
