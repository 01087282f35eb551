import type { AppDeps } from '../deps';
import type { SecondFactor } from '../security/access-tokens';

/**
 * The one shape of a service operation: `operation(ctx, input)`, where `ctx` is a
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
export type Caller = {
  id: string;
  role: 'user' | 'admin';
  isOwner: boolean;
  /**
   * The user's office (null or absent: none). An admin with one is that office's admin and
   * reaches only it (services/reach.ts); the owner is brokerage-wide whatever this says.
   */
  officeId?: string | null;
  /** The agents this user coordinates for (absent: none): it works on their transactions too. */
  coordinatesFor?: readonly string[];
  /** Set when the call came with an API key: the key acts with its creator's rights. */
  apiKey?: { id: string; name: string };
  /**
   * How the session's sign-in proved a second factor (its access token says); null or absent:
   * it did not (and never for an API key).
   */
  secondFactor?: SecondFactor | null;
};

export type ServiceContext = {
  deps: AppDeps;
  /** deps.db, at hand: Prisma reaches code as ctx.db. */
  db: AppDeps['db'];
  /** The client's address, as the rate limits and the logs see it. */
  ip: string;
  /** The User-Agent header of an HTTP call, if one was sent (the signing certificate records it). */
  userAgent?: string;
  requestId: string;
  log: ServiceLog;
  /** Aborted when the caller is gone (a live subscription that ended): long work stops there. */
  signal?: AbortSignal;
  /**
   * How answers link to files this server serves itself (the local driver's signed /files/
   * links): 'same-origin' paths for the portal's own pages, which call over /trpc (or ask for it
   * on an upload), so the browser stays on the address it uses whatever APP_URL says; absolute
   * APP_URL links otherwise (the documented REST API). Absent means absolute.
   */
  fileLinks?: FileLinks;
  /**
   * Set on a list whose own statement confirms the session (init.ts, protectedListProcedure):
   * `user` then comes from the access token's claims, not yet from the database. The statement
   * must include confirmedSessionSql and mark it confirmed, or the answer is thrown away.
   */
  sessionToConfirm?: SessionToConfirm;
};

export type FileLinks = 'same-origin' | 'absolute';

/** The context of a signed-in call. */
export type CallerContext = ServiceContext & { user: Caller };

/**
 * A session a statement confirms itself: the claims of an access token, which the
 * statement checks against the user's row in the same round trip. A list then costs one
 * statement instead of two, and the Node CPU of a second query was most of what the portal's list
 * cost beyond a bare Fastify + pg route (docs/PERFORMANCE.md, goals a and b).
 */
export type SessionToConfirm = {
  id: string;
  role: Caller['role'];
  tokenVersion: number;
  /** The office the token names (its `off` claim), null for none. */
  officeId: string | null;
  /** The token says its sign-in proved a second factor (its `mfa` claim); absent: it did not. */
  secondFactorProved?: boolean;
  /** Set by the statement's reader once the statement confirmed it. */
  confirmed: boolean;
};
