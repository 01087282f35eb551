import { type AnyProcedure, initTRPC, type TRPC_ERROR_CODE_KEY, TRPCError } from '@trpc/server';
import { apiMessages, integrationMessages } from '../../shared/messages';
import type { ApiErrorCode } from '../../shared/schemas/common';
import { classifyError } from '../errors';
import type { Caller } from '../services/context';
import { sessionUser } from '../services/sessions';
import type { Context } from './context';
import { prepareProcedures, procedureMetaOf } from './internals';

/**
 * The only initTRPC of the project (DESIGN.md section 10). Routers import the base
 * procedures below and `router`; nothing else from tRPC.
 */

export type Access = 'public' | 'user' | 'admin' | 'owner';
/** `access` documents who may call a procedure; the REST docs and the authorization matrix read it. */
export type Meta = { access: Access; summary?: string };

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
    // Dates travel as ISO strings (DESIGN.md section 5): no transformer, same JSON as REST.
    isDev: false,
    errorFormatter({ shape, error }) {
      const { status, body } = classifyError(error);
      // Built from scratch so nothing of the original (stack, library message) leaks.
      return {
        code: shape.code,
        message: body.message,
        data: {
          code: shape.data.code,
          httpStatus: status,
          appCode: body.code,
          path: shape.data.path,
          ...(body.issues ? { issues: body.issues } : {}),
        },
      };
    },
  });

/** Marks a subscription event with its id, so a reconnecting client resumes after it. */
export { tracked } from '@trpc/server';

/** Every router prepares its procedures to be called cheaply (prepareProcedures in internals.ts). */
export const router = ((record) => prepareProcedures(t.router(record))) as typeof t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Turns whatever a procedure threw (AppError, Prisma, pg...) into a TRPCError of the right code,
 * so tRPC derives the same status as REST does. The original stays as `cause` for the log.
 */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const { body } = classifyError(result.error);
    const code = TRPC_CODE[body.code];
    if (result.error.code !== code) {
      throw new TRPCError({ code, message: body.message, cause: result.error.cause ?? result.error });
    }
  }
  return result;
});

const base = t.procedure.use(mapErrors);

/**
 * Text with a lone UTF-16 surrogate (JSON can carry one, as "\ud800") has no UTF-8 form and
 * PostgreSQL refuses it inside arrays and JSON columns (the audit trail among them): a 500 unless
 * refused here, for every procedure, once who may call has been settled (DESIGN.md section 11).
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
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  if (holdsLoneSurrogate(await getRawInput())) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: apiMessages.unstorableText });
  }
  return next();
});

export const publicProcedure = base.meta({ access: 'public' }).use(storableInput);

/**
 * Signed in: a valid access token AND a user who still exists, is approved and has not changed
 * password since the token was issued. Loaded on every call, never cached.
 */
async function signedInUser(ctx: Context): Promise<Caller> {
  if (ctx.apiKey) {
    // A key acts as its creator, who must still be an active admin (DESIGN.md 12.3).
    const creator = await sessionUser(ctx, { id: ctx.apiKey.userId });
    if (!creator?.isAdminApproved || creator.role !== 'admin') {
      throw new TRPCError({ code: 'UNAUTHORIZED', message: integrationMessages.keyCreatorInactive });
    }
    const apiKey = { id: ctx.apiKey.id, name: ctx.apiKey.name };
    return { id: creator.id, role: creator.role, isOwner: creator.isOwner, apiKey };
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
  return { id: user.id, role: user.role, isOwner: user.isOwner };
}

const signedIn = base.use(async ({ ctx, next }) => next({ ctx: { user: await signedInUser(ctx) } }));

export const protectedProcedure = signedIn.meta({ access: 'user' }).use(storableInput);

/**
 * A signed-in list whose own statement confirms the session (issue 23): the call first runs with
 * the user the access token claims and `ctx.sessionToConfirm`, and its statement checks those
 * claims against the user's row in the same round trip (services/sessions.ts). Its answer is kept
 * only if that statement confirmed them. Any other outcome (a claim the row no longer bears, an
 * error, a service that did not check) runs the call again the usual way, which then answers what
 * signedIn would have: so the result is always what the full check gives, at the cost of a
 * second run when the token's claims are out of date. Only for queries, which change nothing.
 */
const signedInByStatement = base.use(async ({ ctx, next, type }) => {
  if (type === 'query' && ctx.auth && !ctx.apiKey) {
    const session = { id: ctx.auth.sub, role: ctx.auth.role, tokenVersion: ctx.auth.ver, confirmed: false };
    const claimed = { id: session.id, role: session.role, isOwner: false };
    const result = await next({ ctx: { user: claimed, sessionToConfirm: session } });
    if (session.confirmed && result.ok) return result;
  }
  return next({ ctx: { user: await signedInUser(ctx), sessionToConfirm: undefined } });
});

export const protectedListProcedure = signedInByStatement.meta({ access: 'user' }).use(storableInput);

/** The role comes from the database row, not the token, so a demotion applies at once. */
export const adminProcedure = signedIn
  .meta({ access: 'admin' })
  .use(({ ctx, next }) => {
    if (ctx.user.role !== 'admin') throw new TRPCError({ code: 'FORBIDDEN', message: apiMessages.forbidden });
    return next();
  })
  .use(storableInput);

/** The spec's "designated admin": the single owner account (DESIGN.md section 4). */
export const ownerProcedure = signedIn
  .meta({ access: 'owner' })
  .use(({ ctx, next }) => {
    if (!ctx.user.isOwner || ctx.user.role !== 'admin') {
      throw new TRPCError({ code: 'FORBIDDEN', message: apiMessages.forbidden });
    }
    return next();
  })
  .use(storableInput);
