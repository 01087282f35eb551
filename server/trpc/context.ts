import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps';
import { type AccessClaims, verifyAccessToken } from '../services/access-tokens';

/**
 * The per-call context. The bearer token is verified here (signature and expiry only);
 * protectedProcedure then loads the user fresh, so deactivation and role changes apply at once.
 */
export type Context = {
  db: AppDeps['db'];
  deps: AppDeps;
  /** Claims of a valid access token, or null (none sent, or not valid). */
  auth: AccessClaims | null;
  /** True when a token was sent but is not valid: the answer is "session expired". */
  tokenRejected: boolean;
  requestId: string;
  ip: string;
  log: FastifyBaseLogger;
  /** For a WebSocket call: ends the whole connection (a deactivated user's live socket). */
  closeConnection?: () => void;
};

function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

type Closable = { close(code?: number, reason?: string): void };

export async function createContext(
  deps: AppDeps,
  req: FastifyRequest,
  connectionParams?: Record<string, string | undefined> | null,
  socket?: Closable,
): Promise<Context> {
  // WebSocket clients cannot set headers; they send the token in tRPC's connectionParams.
  const token = bearerToken(req.headers.authorization) ?? connectionParams?.token ?? undefined;
  const auth = token ? await verifyAccessToken(token, deps.config.jwtSecret, deps.clock.now()) : null;
  return {
    db: deps.db,
    deps,
    auth,
    tokenRejected: Boolean(token) && auth === null,
    requestId: req.id,
    ip: req.ip,
    log: req.log,
    // 4001 is ours (4000-4999 are for applications): "signed out by the server".
    ...(socket ? { closeConnection: () => socket.close(4001, 'Session ended') } : {}),
  };
}
