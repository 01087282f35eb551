import {
  type AnyProcedure,
  getTRPCErrorFromUnknown,
  initTRPC,
  type TRPC_ERROR_CODE_KEY,
  TRPCError,
} from '@trpc/server';
import { apiMessages, integrationMessages } from '../../shared/messages';
import type { ApiErrorCode } from '../../shared/schemas/common';
import { classifyError } from '../errors';
import type { ErrorNotes, ErrorStatus, OperationExamples } from '../rest/openapi';
import type { PathScope } from '../rest/scopes';
import type { Caller } from '../services/context';
import { sessionUser } from '../services/sessions';
import type { Context } from './context';
import { procedureMetaOf } from './internals';
import { assertSecondFactorPolicy } from './second-factor-gate';
import { parsingSynchronously } from './sync-parse';

/**
 * The only initTRPC of the project. Routers import the base procedures below and `router`;
 * nothing else from tRPC.
 */

export type Access = 'public' | 'user' | 'admin' | 'owner';

export type RestMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A procedure's documented /api path, declared beside the procedure. The REST adapter mounts one
 * route per procedure that has these (server/rest/routes.ts lists them by walking the router),
 * and the OpenAPI document and the REST tests are built from that list. The route's parameters,
 * query or body and answer come from the procedure's own schemas (server/rest/adapter.ts).
 */
export type RestFacts = {
  method: RestMethod;
  /** Fastify syntax, e.g. /api/transactions/:userId; each `:name` must be a field of the input. */
  path: string;
  summary: string;
  tag: string;
  /**
   * What an API key must hold to call the path (server/rest/scopes.ts). Required: a REST path
   * cannot exist without deciding what keys may do with it.
   */
  scope: PathScope;
  /**
   * 4xx statuses the procedure answers beyond those its access and path imply (400 with input, 401
   * signed in, 403 admin/owner or `{userId}`, 404 with a path parameter, 429 always): e.g. [409].
   */
  errors?: ReadonlyArray<ErrorStatus>;
  /** What the summary leaves out (a limit, a rule): the operation's description in the document. */
  description?: string;
  /** This path's own words for an error status, where it says more than the shared answer. */
  errorNotes?: ErrorNotes;
  successStatus?: 200 | 201 | 204;
  /**
   * DELETE only: the input's other fields come in a JSON body instead of the query string, for a
   * secret (a password) that must stay out of URLs, and so out of access logs and browser history.
   */
  deleteWithBody?: true;
  /** An example of the request body (when there is one) and of the answer, for the OpenAPI document. */
  examples?: OperationExamples;
};

/**
 * What `.meta()` takes. The base procedures below set `access` (who may call: the REST docs and
 * the authorization matrix read it); a procedure with a REST path adds `rest`, and a procedure
 * without one has no REST path. tRPC merges the two calls, and its `.meta()` asks for the whole
 * type, so both are optional here.
 */
export type Meta = { access?: Access; rest?: RestFacts };

/** The procedure's REST path, if it declares one. */
export function restFactsOf(procedure: AnyProcedure): RestFacts | undefined {
  return procedureMetaOf<Meta>(procedure)?.rest;
}

/** Who may call the procedure, as its base procedure declares. */
export function accessOf(procedure: AnyProcedure): Access {
  return procedureMetaOf<Meta>(procedure)?.access ?? 'public';
}

const TRPC_CODE: Record<ApiErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  // Only Node's HTTP parser refuses with these; tRPC has no 431, the nearest is 413.
  HEADERS_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  REQUEST_TIMEOUT: 'TIMEOUT',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  UNPROCESSABLE: 'UNPROCESSABLE_CONTENT',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
};

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // Dates travel as ISO strings: no transformer, the same JSON as REST.
    isDev: false,
    errorFormatter({ shape, error }) {
      const { status, body } = classifyError(error);
      const { message, code: appCode, issues, ...details } = body;
      // Built from scratch so nothing of the original (stack, library message) leaks.
      return {
        code: shape.code,
        message,
        data: {
          code: shape.data.code,
          httpStatus: status,
          appCode,
          path: shape.data.path,
          ...(issues ? { issues } : {}),
          // What the REST body carries beside them (ApiErrorDetails), under the same names.
          ...details,
        },
      };
    },
  });

/** Marks a subscription event with its id, so a reconnecting client resumes after it. */
export { tracked } from '@trpc/server';

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Whatever a procedure threw (AppError, Prisma, pg...) as a TRPCError of the right code, so tRPC
 * derives the same status as REST does. The original stays as `cause` for the log.
 */
function mappedError(error: TRPCError): TRPCError {
  const { body } = classifyError(error);
  const code = TRPC_CODE[body.code];
  if (error.code === code) return error;
  return new TRPCError({ code, message: body.message, cause: error.cause ?? error });
}

/**
 * Runs a base procedure's checks and then the rest of the call, mapping every failure, thrown
 * here or answered from below, with mappedError. Each base procedure is one middleware built on
 * this, not one per concern: tRPC's runner copies a call's options at every level.
 */
async function settled<TResult extends { ok: boolean }>(run: () => Promise<TResult>): Promise<TResult> {
  let result: TResult;
  try {
    result = await run();
  } catch (cause) {
    throw mappedError(getTRPCErrorFromUnknown(cause));
  }
  if (!result.ok) {
    const { error } = result as unknown as { error: TRPCError };
    const mapped = mappedError(error);
    if (mapped !== error) throw mapped;
  }
  return result;
}

/**
 * Text with a lone UTF-16 surrogate (JSON can carry one, as "\ud800") has no UTF-8 form and
 * PostgreSQL refuses it inside arrays and JSON columns (the audit trail among them): a 500 unless
 * refused, for every procedure, once who may call has been settled (authentication comes before
 * validation).
 */
const LONE_SURROGATE = /\p{Surrogate}/u;
function holdsLoneSurrogate(input: unknown): boolean {
  // Iterative: inputs may nest thousands of levels deep.
  const pending = [input];
  while (pending.length) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return true;
    } else if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) pending.push((value as Record<string, unknown>)[key]);
    }
  }
  return false;
}
async function assertStorable(getRawInput: () => Promise<unknown>): Promise<void> {
  if (holdsLoneSurrogate(await getRawInput())) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: apiMessages.unstorableText });
  }
}

/** Every base procedure below checks its zod schemas with a synchronous parse (sync-parse.ts). */
const procedure = parsingSynchronously(t.procedure);

/**
 * Public, yet a refused API key (revoked, expired, its creator no longer an admin, or sent on
 * /trpc) is 401 here as on every signed-in path: a key that no longer works says so wherever
 * it is presented, rather than passing as nobody in particular.
 */
export const publicProcedure = procedure.meta({ access: 'public' }).use(({ ctx, getRawInput, next }) =>
  settled(async () => {
    if (ctx.apiKeyRefusal) throw new TRPCError({ code: 'UNAUTHORIZED', message: ctx.apiKeyRefusal });
    await assertStorable(getRawInput);
    return next();
  }),
);

/**
 * Signed in: a valid access token AND a user who still exists, is approved and has not changed
 * password since the token was issued. Loaded on every call, never cached.
 */
async function signedInUser(ctx: Context): Promise<Caller & { secondFactorRequired?: boolean }> {
  if (ctx.apiKey) {
    // A key acts as its creator, who must still be an active admin.
    const creator = await sessionUser(ctx, { id: ctx.apiKey.userId });
    if (!creator?.isAdminApproved || creator.role !== 'admin') {
      throw new TRPCError({ code: 'UNAUTHORIZED', message: integrationMessages.keyCreatorInactive });
    }
    const apiKey = { id: ctx.apiKey.id, name: ctx.apiKey.name };
    return {
      id: creator.id,
      role: creator.role,
      isOwner: creator.isOwner,
      officeId: creator.officeId,
      coordinatesFor: creator.coordinatesFor,
      apiKey,
    };
  }
  if (!ctx.auth) {
    throw new TRPCError({
      code: 'UNAUTHORIZED',
      message:
        ctx.apiKeyRefusal ?? (ctx.tokenRejected ? apiMessages.sessionInvalid : apiMessages.notSignedIn),
    });
  }
  const user = await sessionUser(ctx, { id: ctx.auth.sub });
  if (!user?.isAdminApproved || user.tokenVersion !== ctx.auth.ver) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: apiMessages.sessionInvalid });
  }
  return {
    id: user.id,
    role: user.role,
    isOwner: user.isOwner,
    officeId: user.officeId,
    coordinatesFor: user.coordinatesFor,
    secondFactor: ctx.auth.mfa ?? null,
    secondFactorRequired: user.secondFactorRequired,
  };
}

/** The signed-in caller, held to the owner's second-factor policy for this procedure. */
async function admittedCaller(
  ctx: Context,
  meta: Meta | undefined,
  getRawInput: () => Promise<unknown>,
): Promise<Caller> {
  const { secondFactorRequired = false, ...user } = await signedInUser(ctx);
  await assertSecondFactorPolicy(user, secondFactorRequired, { restPath: meta?.rest?.path, getRawInput });
  return user;
}

/** Who passes `access`, beyond being signed in. The role comes from the row, not the token. */
function admitted(user: Caller, access: 'user' | 'admin' | 'owner'): boolean {
  if (access === 'user') return true;
  return user.role === 'admin' && (access === 'admin' || user.isOwner);
}

/** A signed-in procedure for `access`: the user loaded fresh, then its role checked. */
function signedInProcedure(access: 'user' | 'admin' | 'owner') {
  return procedure.meta({ access }).use(({ ctx, meta, getRawInput, next }) =>
    settled(async () => {
      const user = await admittedCaller(ctx, meta, getRawInput);
      if (!admitted(user, access)) throw new TRPCError({ code: 'FORBIDDEN', message: apiMessages.forbidden });
      await assertStorable(getRawInput);
      return next({ ctx: { user } });
    }),
  );
}

export const protectedProcedure = signedInProcedure('user');

/**
 * A signed-in list whose own statement confirms the session: the call first runs with the user
 * the access token claims and `ctx.sessionToConfirm`, and its statement checks those claims
 * against the user's row in the same round trip (services/sessions.ts). Its answer is kept only
 * if that statement confirmed them. Any other outcome (a claim the row no longer bears, an error,
 * a service that did not check, input that cannot be stored) runs the call again the usual way,
 * which then answers what protectedProcedure would have: so the result is always what the full
 * check gives, at the cost of a second run when the token's claims are out of date. Only for
 * queries, which change nothing.
 */
export const protectedListProcedure = procedure
  .meta({ access: 'user' })
  .use(({ ctx, type, meta, getRawInput, next }) =>
    settled(async () => {
      if (type === 'query' && ctx.auth && !ctx.apiKey && !holdsLoneSurrogate(await getRawInput())) {
        const session = {
          id: ctx.auth.sub,
          role: ctx.auth.role,
          tokenVersion: ctx.auth.ver,
          officeId: ctx.auth.off ?? null,
          secondFactorProved: ctx.auth.mfa !== undefined,
          confirmed: false,
        };
        // What the statement confirms: not the owner, the token's office, no one coordinated for.
        const claimed = {
          id: session.id,
          role: session.role,
          isOwner: false,
          officeId: session.officeId,
          coordinatesFor: [],
        };
        const result = await next({ ctx: { user: claimed, sessionToConfirm: session } });
        if (session.confirmed && result.ok) return result;
      }
      const user = await admittedCaller(ctx, meta, getRawInput);
      await assertStorable(getRawInput);
      return next({ ctx: { user, sessionToConfirm: undefined } });
    }),
  );

export const adminProcedure = signedInProcedure('admin');

/** The "designated admin" of the product: the single owner account. */
export const ownerProcedure = signedInProcedure('owner');
