import { integrationMessages } from '../../shared/messages';
import type { ApiKeyAnswer, ApiKeyScope, CreatedApiKeyAnswer } from '../../shared/schemas/api-keys';
import { Prisma } from '../db/generated/client';
import { sqlRows } from '../db/sql';
import { AppError } from '../errors';
import { apiKeySecretMatches, hashApiKeySecret, newApiKey, parseApiKey } from '../security/api-keys';
import { actorOf, recordAudit } from './audit';
import type { CallerContext, ServiceContext } from './context';
import { reachedUsersWhere, reachesUser } from './reach';
import { notFound } from './transactions/access';

/**
 * API keys. Admins make them for integrators; a key acts with its creator's
 * rights narrowed to its scopes (the REST adapter checks the scope of each path, see
 * server/rest/scopes.ts), so a key can never do more than the admin who made it, and it stops
 * working the moment that admin is deactivated or demoted, as well as when revoked or expired.
 * A key of an office admin is an office key: it reaches that office only, and is listed and
 * revoked by that office's admins and brokerage-wide admins (services/reach.ts on its creator).
 */

const keySelect = {
  id: true,
  name: true,
  scopes: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
  creator: { select: { id: true, firstName: true, lastName: true, officeId: true, isOwner: true } },
} as const;

type KeyRow = {
  id: string;
  name: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  creator: { id: string; firstName: string; lastName: string; officeId: string | null; isOwner: boolean };
};

function toAnswer(row: KeyRow): ApiKeyAnswer {
  return {
    _id: row.id,
    name: row.name,
    scopes: row.scopes as ApiKeyScope[],
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdBy: { _id: row.creator.id, name: `${row.creator.firstName} ${row.creator.lastName}` },
    // The owner is brokerage-wide whatever office it belongs to.
    officeId: row.creator.isOwner ? null : row.creator.officeId,
  };
}

/**
 * Every key the admin reaches (an office admin: those its office's users made), newest first,
 * revoked ones included (they explain old audit lines).
 */
export async function listApiKeys(ctx: CallerContext): Promise<{ items: ApiKeyAnswer[] }> {
  const rows = await ctx.db.apiKey.findMany({
    where: { creator: reachedUsersWhere(ctx.user) },
    select: keySelect,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return { items: rows.map(toAnswer) };
}

export async function createApiKey(
  ctx: CallerContext,
  input: { name: string; scopes: ApiKeyScope[]; expiresAt: string | null },
): Promise<CreatedApiKeyAnswer> {
  const expiresAt = input.expiresAt === null ? null : new Date(input.expiresAt);
  if (expiresAt && expiresAt.getTime() <= ctx.deps.clock.now().getTime()) {
    throw new AppError('BAD_REQUEST', integrationMessages.expiryInPast);
  }
  const { id, secret, key } = newApiKey();
  const row = await ctx.db.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        id,
        name: input.name,
        scopes: input.scopes,
        secretHash: new Uint8Array(hashApiKeySecret(secret)),
        createdBy: ctx.user.id,
        createdAt: ctx.deps.clock.now(),
        expiresAt,
      },
      select: keySelect,
    });
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'apiKey.create',
      entity: 'ApiKey',
      entityId: created.id,
      after: { name: created.name, scopes: created.scopes, expiresAt: created.expiresAt },
    });
    return created;
  });
  return { ...toAnswer(row), key };
}

/**
 * Revokes at once: the next call with the key is a 401. Revoking twice changes nothing. A key
 * made in another office is not found.
 */
export async function revokeApiKey(ctx: CallerContext, { id }: { id: string }): Promise<ApiKeyAnswer> {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.apiKey.findUnique({ where: { id }, select: keySelect });
    if (!before || !reachesUser(ctx.user, before.creator)) throw notFound();
    if (before.revokedAt) return toAnswer(before);
    const after = await tx.apiKey.update({
      where: { id },
      data: { revokedAt: ctx.deps.clock.now() },
      select: keySelect,
    });
    await recordAudit(tx, {
      ...actorOf(ctx.user),
      action: 'apiKey.revoke',
      entity: 'ApiKey',
      entityId: id,
      before: { revokedAt: null },
      after: { revokedAt: after.revokedAt },
    });
    return toAnswer(after);
  });
}

/** A verified key: who it acts as and what it may do. */
export type ApiKeyIdentity = { id: string; name: string; scopes: readonly string[]; userId: string };

export type ApiKeyCheck = { ok: true; key: ApiKeyIdentity } | { ok: false; message: string };

type KeyAuthRow = {
  id: string;
  name: string;
  scopes: string[];
  secret_hash: Buffer;
  created_by: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  /** The creator is still an approved admin. */
  creator_active: boolean;
};

/** last_used_at is written at most once a minute per key: a busy integration is not a write each call. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Checks a `bpk_` key: one primary-key lookup in hand-written SQL (it runs on every call of an
 * integration), the secret compared in constant time, then revocation, expiry and its creator's
 * standing (still an approved admin). The creator's standing is decided here, with the key, so
 * that a key whose admin lost their rights is refused on every path that takes keys, public ones
 * too, and never replays an answer kept under its Idempotency-Key; the base procedures load the
 * creator again for the rights the key acts with.
 */
export async function authenticateApiKey(ctx: ServiceContext, token: string): Promise<ApiKeyCheck> {
  const parsed = parseApiKey(token);
  const [row] = parsed
    ? await sqlRows<KeyAuthRow>(
        ctx.db,
        Prisma.sql`SELECT k.id, k.name, k.scopes, k.secret_hash, k.created_by, k.expires_at, k.revoked_at,
                          (u.is_admin_approved AND u.role = 'admin') AS creator_active
                     FROM api_keys k JOIN users u ON u.id = k.created_by
                    WHERE k.id = ${parsed.id}::uuid`,
        { prepared: true },
      )
    : [];
  // Compared even when there is no row (against a dummy), so timing does not tell ids apart.
  const matches = apiKeySecretMatches(parsed?.secret ?? '', row?.secret_hash ?? null);
  if (!row || !matches) return { ok: false, message: integrationMessages.keyInvalid };
  if (row.revoked_at) return { ok: false, message: integrationMessages.keyRevoked };
  const now = ctx.deps.clock.now();
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) {
    return { ok: false, message: integrationMessages.keyExpired };
  }
  if (!row.creator_active) return { ok: false, message: integrationMessages.keyCreatorInactive };
  await sqlRows(
    ctx.db,
    Prisma.sql`UPDATE api_keys SET last_used_at = ${now}::timestamptz
                WHERE id = ${row.id}::uuid
                  AND (last_used_at IS NULL OR last_used_at <= ${new Date(now.getTime() - LAST_USED_RESOLUTION_MS)}::timestamptz)`,
    { prepared: true },
  );
  return { ok: true, key: { id: row.id, name: row.name, scopes: row.scopes, userId: row.created_by } };
}
