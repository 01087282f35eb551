import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { configure } from 'safe-stable-stringify';
import { apiMessages, integrationMessages } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { verifyAccessToken } from '../security/access-tokens';
import { isApiKeyToken } from '../security/api-keys';
import { authenticateApiKey } from '../services/api-keys';
import type { ServiceContext } from '../services/context';
import {
  assertIdempotencyKey,
  claimIdempotencyKey,
  keepIdempotentAnswer,
  releaseIdempotencyKey,
} from '../services/idempotency';
import { bearerToken } from '../trpc/context';
import { routeHooks } from './route-hooks';

/**
 * The transport of Idempotency-Key for every POST under /api (the procedures' REST paths
 * and the uploads): installed on the REST plugin's own instance, whose POST routes then carry its
 * hooks. The rules (claiming a key, the 24 h window, racing requests) are in
 * services/idempotency.ts; this file only reads the request and writes the answer.
 */

type Claimed = { caller: string; key: string; ctx: ServiceContext };

/** Answers not worth repeating: the same request may succeed later (or as someone else). */
const RELEASED_STATUSES = new Set([401, 403, 408, 429]);

export function installIdempotency(app: FastifyInstance, deps: AppDeps): void {
  const claims = new WeakMap<FastifyRequest, Claimed>();

  const claimKey = async (req: FastifyRequest, reply: FastifyReply) => {
    const header = req.headers['idempotency-key'];
    if (header === undefined) return;
    if (typeof header !== 'string')
      throw new AppError('BAD_REQUEST', integrationMessages.idempotencyKeyInvalid);
    assertIdempotencyKey(header);
    const ctx: ServiceContext = { deps, db: deps.db, ip: req.ip, requestId: req.id, log: req.log };
    const caller = await callerOf(ctx, req);
    const claim = await claimIdempotencyKey(ctx, { caller, key: header, fingerprint: fingerprintOf(req) });
    if (claim.kind === 'replay') {
      const { statusCode, contentType, body } = claim.answer;
      reply.header('idempotent-replayed', 'true');
      if (contentType) reply.header('content-type', contentType);
      return reply.code(statusCode).send(body);
    }
    claims.set(req, { caller, key: header, ctx });
  };

  const keepAnswer = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claimed = claims.get(req);
    if (!claimed) return payload;
    claims.delete(req);
    const body =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    const status = reply.statusCode;
    if (body === null || status >= 500 || RELEASED_STATUSES.has(status)) {
      await releaseIdempotencyKey(claimed.ctx, claimed);
    } else {
      const contentType = reply.getHeader('content-type');
      await keepIdempotentAnswer(claimed.ctx, claimed, {
        statusCode: status,
        contentType: typeof contentType === 'string' ? contentType : null,
        body,
      });
    }
    return payload;
  };

  // A request that never answered (the client went away mid-upload): free its key at once.
  const releaseUnanswered = async (req: FastifyRequest) => {
    const claimed = claims.get(req);
    if (!claimed) return;
    claims.delete(req);
    await releaseIdempotencyKey(claimed.ctx, claimed).catch(() => undefined);
  };

  // On the POST routes only, as their own hooks: every other request of the API (the lists
  // among them) would otherwise run four hooks that return at once. The key is claimed before
  // the route's own preHandlers; the answer is kept before the route's own onSend hooks, among
  // them @fastify/compress's, so that a retry is compressed, or not, as the retry asks.
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST')) return;
    route.preHandler = [claimKey, ...routeHooks(route.preHandler)];
    route.onSend = [keepAnswer, ...routeHooks(route.onSend)];
    route.onResponse = [...routeHooks(route.onResponse), releaseUnanswered];
    route.onRequestAbort = [...routeHooks(route.onRequestAbort), releaseUnanswered];
  });
}

/**
 * Keys are per caller: a person (their user id), an API key (its id) or, on public paths, nobody
 * in particular. Only verified credentials count, so nobody can replay another caller's answer.
 */
async function callerOf(ctx: ServiceContext, req: FastifyRequest): Promise<string> {
  const token = bearerToken(req.headers.authorization);
  if (!token) return 'anonymous';
  if (isApiKeyToken(token)) {
    const check = await authenticateApiKey(ctx, token);
    return check.ok ? `key:${check.key.id}` : 'anonymous';
  }
  const claims = await verifyAccessToken(token, ctx.deps.config.jwtSecret, ctx.deps.clock.now());
  return claims ? `user:${claims.sub}` : 'anonymous';
}

/**
 * What makes two requests "the same": method, path with its query, and the body. A JSON body as
 * a JSON value: parsed, then written with its keys sorted, so neither whitespace nor the order of
 * an object's keys makes another request; a multipart upload by its type and length, since the
 * file streams to storage and is never held whole (documented in docs/API.md: an upload retried
 * with the same key and another file of the very same size would replay the first answer).
 */
function fingerprintOf(req: FastifyRequest): Buffer {
  const hash = createHash('sha256').update(`${req.method} ${req.url}\n`);
  const type = req.headers['content-type'] ?? '';
  if (type.toLowerCase().startsWith('multipart/')) {
    hash.update(`multipart ${req.headers['content-length'] ?? 'chunked'}`);
  } else {
    hash.update(bodyText(req.body));
  }
  return hash.digest();
}

const sortedJson = configure({ deterministic: true, bigint: false, circularValue: Error });

/** Writing overflows the stack on a body nested thousands deep: such a body is refused. */
function bodyText(body: unknown): string {
  try {
    return sortedJson(body ?? null) ?? 'null';
  } catch {
    throw new AppError('BAD_REQUEST', apiMessages.invalidInput);
  }
}
