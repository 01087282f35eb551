/**
 * A route's own hooks of one kind, as a list: Fastify takes one function, an array or nothing.
 * For onRoute hooks that put a hook of theirs before or after the route's own.
 */
export function routeHooks<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  return hooks === undefined ? [] : ([hooks].flat() as Hook[]);
}
