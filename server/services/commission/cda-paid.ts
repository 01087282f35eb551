import { commissionMessages } from '../../../shared/commission-messages';
import type { Cda, MarkCdaPaidInput } from '../../../shared/schemas/commission';
import { AppError } from '../../errors';
import { actorOf, recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { fileLinker } from '../file-links';
import { findVisible, lockTransactions, notFound } from '../transactions/access';
import { placeOf } from '../transactions/notify';
import { cdaSelect, toCda } from './cda-answer';
import { emitCdaEvent, notifyAgentOfCda } from './cda-events';

/**
 * A transaction's CDAs, every version newest first, for whoever sees the transaction (its agent,
 * the agent's coordinators, the admins reaching it: findVisible), and an admin recording that the
 * current one was paid. A paid CDA is final: it is never replaced nor paid again.
 */

/** A payment time a little ahead of the server's clock is the payer's clock, not the future. */
const CLOCK_SKEW_MS = 60_000;

export async function listCdas(ctx: CallerContext, { id }: { id: string }): Promise<Cda[]> {
  await findVisible(ctx, id);
  const rows = await ctx.db.cda.findMany({
    where: { transactionId: id },
    select: cdaSelect,
    orderBy: { version: 'desc' },
  });
  const link = fileLinker(ctx);
  return Promise.all(rows.map((row) => toCda(link, row)));
}

const badPaidAt = (message: string) => new AppError('BAD_REQUEST', message, [{ path: 'paidAt', message }]);

export async function markCdaPaid(ctx: CallerContext, input: MarkCdaPaidInput): Promise<Cda> {
  await findVisible(ctx, input.id);
  return ctx.db.$transaction(async (tx) => {
    // The transaction's lock: a payment and a new version of its CDA never cross.
    const locked = (await lockTransactions(tx, [input.id])).get(input.id);
    if (!locked || locked.deletedAt) throw notFound();
    const before = await tx.cda.findFirst({
      where: { id: input.cdaId, transactionId: input.id },
      select: cdaSelect,
    });
    if (!before) throw new AppError('NOT_FOUND', commissionMessages.unknownCda);
    if (before.status === 'superseded') throw new AppError('CONFLICT', commissionMessages.cdaSuperseded);
    if (before.status === 'paid') throw new AppError('CONFLICT', commissionMessages.cdaPaidAlready);

    const now = ctx.deps.clock.now();
    const paidAt = input.paidAt === undefined ? now : new Date(input.paidAt);
    if (paidAt.getTime() > now.getTime() + CLOCK_SKEW_MS) throw badPaidAt(commissionMessages.paidAtFuture);
    if (paidAt.getTime() < before.issuedAt.getTime()) throw badPaidAt(commissionMessages.paidBeforeIssued);

    const row = await tx.cda.update({
      where: { id: before.id },
      data: { status: 'paid', paidAt, paidBy: ctx.user.id },
      select: cdaSelect,
    });
    const answer = await toCda(fileLinker(ctx), row);
    await recordAudit(tx, {
      ...actorOf(ctx.user, { agentId: row.agentId }),
      action: 'cda.paid',
      entity: 'Cda',
      entityId: row.id,
      transactionId: row.transactionId,
      before: { status: before.status, paidAt: null },
      after: { status: answer.status, paidAt: answer.paidAt, paidBy: answer.paidBy },
    });
    await emitCdaEvent(tx, ctx, 'cda.paid', row);
    await notifyAgentOfCda(
      tx,
      ctx,
      { id: row.transactionId, userId: row.agentId },
      commissionMessages.cdaPaidNotice(placeOf(locked), row.version),
    );
    return answer;
  });
}
