import type { FastifyRequest } from 'fastify';
import { integrationMessages } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { type AccessClaims, verifyAccessToken } from '../security/access-tokens';
import { isApiKeyToken } from '../security/api-keys';
import { type ApiKeyCheck, type ApiKeyIdentity, authenticateApiKey } from '../services/api-keys';
import type { FileLinks, ServiceContext, ServiceLog } from '../services/context';

/**
 * The per-call context: a ServiceContext (what every service receives) plus what the base
 * procedures need to authenticate. The bearer token is verified here (signature and expiry only);
 * protectedProcedure then loads the user fresh, so deactivation and role changes apply at once.
 */
export type Context = ServiceContext & {
  /** Claims of a valid access token, or null (none sent, or not valid). */
  auth: AccessClaims | null;
  /** True when a token was sent but is not valid: the answer is "session expired". */
  tokenRejected: boolean;
  /** A valid API key sent on a transport that takes them, else null. */
  apiKey: ApiKeyIdentity | null;
  /** Why an API key that was sent is refused (revoked, expired, not on this transport). */
  apiKeyRefusal?: string;
  /** For a WebSocket call: ends the whole connection (a deactivated user's live socket). */
  closeConnection?: () => void;
  /**
   * For a subscription over a WebSocket: sends one event of it now, in the frame a `yield
   * tracked(id, data)` of its generator would become. A stream that is caught up and idle
   * hands its live events to this instead of yielding them: a fan-out to thousands
   * of sockets then costs a frame each, not a trip through three async generators each.
   */
  sendTracked?: (id: string, data: unknown) => void;
};

type Closable = { close(code?: number, reason?: string): void };

/** What a context is made of: the facts of an HTTP request or a WebSocket, or what a test states. */
export type CallFacts = {
  /** The access token sent, if any (a bearer header, or the WebSocket's connectionParams). */
  token: string | undefined;
  requestId: string;
  ip: string;
  log: ServiceLog;
  /** The WebSocket of a call made over one. */
  socket?: Closable;
  /** How answers link to this server's files (ServiceContext.fileLinks); absolute if absent. */
  fileLinks?: FileLinks;
  /** The documented /api paths take API keys; /trpc and the live stream do not. */
  acceptsApiKeys?: boolean;
  /** The User-Agent header sent, if any: the signing certificate records it. */
  userAgent?: string;
};

/** Builds a context from facts alone: no request needed, so tests and scripts make their own. */
export async function createContext(deps: AppDeps, facts: CallFacts): Promise<Context> {
  const { token, socket } = facts;
  const service: ServiceContext = {
    deps,
    db: deps.db,
    ip: facts.ip,
    requestId: facts.requestId,
    log: facts.log,
  };
  const keyCheck = token && isApiKeyToken(token) ? await checkApiKey(service, token, facts) : undefined;
  const auth =
    token && !keyCheck ? await verifyAccessToken(token, deps.config.jwtSecret, deps.clock.now()) : null;
  // Written out rather than spread from `service`: on Node 20's V8 every property added to an
  // object made by a spread costs about half a microsecond, on every call.
  const context: Context = {
    deps: service.deps,
    db: service.db,
    ip: service.ip,
    requestId: service.requestId,
    log: service.log,
    auth,
    tokenRejected: Boolean(token) && auth === null && !keyCheck?.ok,
    apiKey: keyCheck?.ok ? keyCheck.key : null,
  };
  if (keyCheck && !keyCheck.ok) context.apiKeyRefusal = keyCheck.message;
  if (facts.fileLinks) context.fileLinks = facts.fileLinks;
  if (facts.userAgent) context.userAgent = facts.userAgent;
  // 4001 is ours (4000-4999 are for applications): "signed out by the server".
  if (socket) context.closeConnection = () => socket.close(4001, 'Session ended');
  return context;
}

/**
 * A `bpk_` key: verified, then counted against its own per-minute limit (shared by every
 * instance). Counted only once verified, so nobody can spend another integration's budget by
 * sending its key id with a wrong secret.
 */
async function checkApiKey(ctx: ServiceContext, token: string, facts: CallFacts): Promise<ApiKeyCheck> {
  if (!facts.acceptsApiKeys) return { ok: false, message: integrationMessages.keyOnlyOnApi };
  const check = await authenticateApiKey(ctx, token);
  // The key's own limit, in its 429's X-RateLimit-* headers (not the per-address limit's).
  if (check.ok) await ctx.deps.limits.check(['apiKeyCalls', check.key.id]);
  return check;
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/** The context of an HTTP request (a /trpc call, a REST route, an upload). */
export function contextOfRequest(
  deps: AppDeps,
  req: FastifyRequest,
  options: { fileLinks?: FileLinks; acceptsApiKeys?: boolean } = {},
): Promise<Context> {
  return createContext(deps, {
    token: bearerToken(req.headers.authorization),
    requestId: req.id,
    ip: req.ip,
    log: req.log,
    userAgent: req.headers['user-agent'],
    ...options,
  });
}
