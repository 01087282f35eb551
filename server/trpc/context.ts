import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps';
import { type AccessClaims, verifyAccessToken } from '../security/access-tokens';
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
  /** For a WebSocket call: ends the whole connection (a deactivated user's live socket). */
  closeConnection?: () => void;
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
};

/** Builds a context from facts alone: no request needed, so tests and scripts make their own. */
export async function createContext(deps: AppDeps, facts: CallFacts): Promise<Context> {
  const { token, socket } = facts;
  const auth = token ? await verifyAccessToken(token, deps.config.jwtSecret, deps.clock.now()) : null;
  return {
    deps,
    db: deps.db,
    ip: facts.ip,
    requestId: facts.requestId,
    log: facts.log,
    auth,
    tokenRejected: Boolean(token) && auth === null,
    ...(facts.fileLinks ? { fileLinks: facts.fileLinks } : {}),
    // 4001 is ours (4000-4999 are for applications): "signed out by the server".
    ...(socket ? { closeConnection: () => socket.close(4001, 'Session ended') } : {}),
  };
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/** The context of an HTTP request (a /trpc call, a REST route, an upload). */
export function contextOfRequest(
  deps: AppDeps,
  req: FastifyRequest,
  options: { fileLinks?: FileLinks } = {},
): Promise<Context> {
  return createContext(deps, {
    token: bearerToken(req.headers.authorization),
    requestId: req.id,
    ip: req.ip,
    log: req.log,
    ...options,
  });
}
