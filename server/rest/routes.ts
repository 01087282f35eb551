import type { AnyProcedure, AnyRouter } from '@trpc/server';
import { type RestFacts, restFactsOf } from '../trpc/init';
import { proceduresOf } from '../trpc/internals';

/**
 * The /api paths the REST adapter mounts: one per procedure whose meta declares `rest`
 * (server/trpc/init.ts), found by walking the router, in the router's order. Nothing is listed
 * by hand: the OpenAPI document, the authorization matrix and the fuzzing read this list.
 */
export type RestRoute = RestFacts & {
  /** The procedure's dotted path in the router ("transactions.list"). */
  procedurePath: string;
  procedure: AnyProcedure;
};

/** Every REST path the router's procedures declare; two procedures claiming one path is an error. */
export function restRoutesOf(router: AnyRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  const claimedBy = new Map<string, string>();
  for (const [procedurePath, procedure] of proceduresOf(router)) {
    const facts = restFactsOf(procedure);
    if (!facts) continue;
    const key = `${facts.method} ${facts.path}`;
    const other = claimedBy.get(key);
    if (other) throw new Error(`REST route ${key} is declared by both ${other} and ${procedurePath}`);
    claimedBy.set(key, procedurePath);
    routes.push({ ...facts, procedurePath, procedure });
  }
  return routes;
}
