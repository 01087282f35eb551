import type { AppDeps } from '../deps';

/**
 * The one shape of a service operation (issue 16): `operation(ctx, input)`, where `ctx` is a
 * ServiceContext (or a CallerContext once someone is signed in) and `input` the procedure's
 * parsed input. The tRPC context is a superset of both, so procedures pass theirs as it is; tests
 * make one without any request (server/test/harness.ts, `serviceContext`).
 */

/** Where services log: pino's methods, without tying services to Fastify's logger type. */
export type ServiceLog = {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

/** Who is calling: the user a signed-in procedure loaded fresh from the database. */
export type Caller = { id: string; role: 'user' | 'admin'; isOwner: boolean };

export type ServiceContext = {
  deps: AppDeps;
  /** deps.db, at hand: Prisma reaches code as ctx.db (DESIGN.md section 10). */
  db: AppDeps['db'];
  /** The client's address, as the rate limits and the logs see it. */
  ip: string;
  requestId: string;
  log: ServiceLog;
  /** Aborted when the caller is gone (a live subscription that ended): long work stops there. */
  signal?: AbortSignal;
};

/** The context of a signed-in call. */
export type CallerContext = ServiceContext & { user: Caller };
