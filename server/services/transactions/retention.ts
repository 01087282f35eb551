import type { LegalHoldInput } from '../../../shared/schemas/retention';
import type { Tx } from '../../db/client';
import { actorOf, recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { fileLinker } from '../file-links';
import { findVisible, notFound } from './access';
import { detailSelect, toTransaction } from './mappers';
import type { RetentionFacts } from './retention-rules';

/** A transaction's legal hold, and the lock every retention decision takes (rules: retention-rules.ts). */

export type LockedRetention = RetentionFacts & {
  id: string;
  userId: string;
  deletedAt: Date | null;
  purgedAt: Date | null;
  legalHoldReason: string | null;
};

/**
 * Locks the transaction's row until the end of the database transaction and reads its retention
 * facts as they are now: a hold placed while a delete or the purge decides waits for it, and the
 * other way round.
 */
export async function lockRetention(tx: Tx, id: string): Promise<LockedRetention | null> {
  const rows = await tx.$queryRaw<LockedRetention[]>`
    SELECT t.id::text AS id, t.user_id::text AS "userId", t.closed_at AS "closedAt",
           t.deleted_at AS "deletedAt", t.purged_at AS "purgedAt", t.legal_hold AS "legalHold",
           t.legal_hold_reason AS "legalHoldReason", o.retention_years AS "retentionYears"
      FROM transactions t LEFT JOIN offices o ON o.id = t.office_id
     WHERE t.id = ${id}::uuid
       FOR UPDATE OF t`;
  return rows[0] ?? null;
}

/**
 * An admin who reaches the file places or releases its legal hold. Placing one on a held file
 * replaces the reason; asking for the state the file is already in changes nothing and records
 * nothing.
 */
export async function setLegalHold(ctx: CallerContext, input: LegalHoldInput) {
  await findVisible(ctx, input.id);
  return ctx.db.$transaction(async (tx) => {
    const locked = await lockRetention(tx, input.id);
    if (!locked || locked.deletedAt) throw notFound();
    const reason = input.hold ? (input.reason ?? '') : null;
    const unchanged = locked.legalHold === input.hold && locked.legalHoldReason === reason;
    if (!unchanged) {
      const now = ctx.deps.clock.now();
      await tx.transaction.update({
        where: { id: input.id },
        data: input.hold
          ? { legalHold: true, legalHoldReason: reason, legalHoldById: ctx.user.id, legalHoldAt: now }
          : { legalHold: false, legalHoldReason: null, legalHoldById: null, legalHoldAt: null },
        select: { id: true },
      });
      await recordAudit(tx, {
        ...actorOf(ctx.user, { agentId: locked.userId }),
        action: input.hold ? 'transaction.legal-hold' : 'transaction.legal-hold-release',
        entity: 'Transaction',
        entityId: input.id,
        transactionId: input.id,
        before: { legalHold: locked.legalHold, reason: locked.legalHoldReason },
        after: input.hold
          ? { legalHold: true, reason }
          : { legalHold: false, ...(input.reason ? { note: input.reason } : {}) },
      });
    }
    const row = await tx.transaction.findUniqueOrThrow({ where: { id: input.id }, select: detailSelect });
    return toTransaction(fileLinker(ctx), row, ctx.deps.clock.now());
  });
}
