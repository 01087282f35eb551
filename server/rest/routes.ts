import type { RestRoute } from './adapter';

/**
 * Every documented /api path (DESIGN.md section 5) and the procedure it calls. Each feature adds
 * its rows here, next to its router; the OpenAPI document and the REST conformance tests are
 * generated from this table.
 */
export const restRoutes: ReadonlyArray<RestRoute> = [];
