import { commissionMessages } from '../../../shared/commission-messages';
import type { SetCommissionInput } from '../../../shared/schemas/commission';
import type { Transaction } from '../../../shared/schemas/transactions';
import { AppError } from '../../errors';
import { actorOf, recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { fileLinker } from '../file-links';
import { findVisible, lockForChange } from '../transactions/access';
import { detailSelect, toTransaction } from '../transactions/mappers';
import { emitTransactionEvents } from '../transactions/webhooks';
import { commissionSelect, toCommission } from './answer';
import { thousandthsOf } from './split';

/**
 * A transaction's commission, set by whoever works on the transaction: its agent, the agent's
 * coordinator, or an admin reaching it (findVisible: anyone else finds nothing, 404). It is set
 * under the transaction's lock, like a checklist change, and a closed file keeps its commission
 * (409) until an admin reopens it. A rate is stored as given; its gross follows the sale price.
 */
export async function setCommission(ctx: CallerContext, input: SetCommissionInput): Promise<Transaction> {
  await findVisible(ctx, input.id);
  return ctx.db.$transaction(async (tx) => {
    await lockForChange(tx, input.id);
    const before = await tx.transaction.findUniqueOrThrow({
      where: { id: input.id },
      select: commissionSelect,
    });
    if (input.ratePercent !== undefined && before.salePriceCents === null) {
      const message = commissionMessages.needsSalePrice;
      throw new AppError('BAD_REQUEST', message, [{ path: 'ratePercent', message }]);
    }
    const referral = input.referral ?? null;
    const row = await tx.transaction.update({
      where: { id: input.id },
      data: {
        commissionGrossCents:
          input.grossCommissionCents === undefined ? null : BigInt(input.grossCommissionCents),
        commissionRateThousandths: input.ratePercent === undefined ? null : thousandthsOf(input.ratePercent),
        commissionReferralName: referral?.name ?? null,
        commissionReferralThousandths: referral ? thousandthsOf(referral.percent) : null,
      },
      select: detailSelect,
    });
    await recordAudit(tx, {
      ...actorOf(ctx.user, { agentId: row.userId }),
      action: 'transaction.commission',
      entity: 'Transaction',
      entityId: row.id,
      transactionId: row.id,
      before: { commission: toCommission(before) },
      after: { commission: toCommission(row) },
    });
    // The commission is part of the transaction integrators receive, as its other changes are.
    await emitTransactionEvents(tx, ctx, ['transaction.updated'], row);
    return toTransaction(fileLinker(ctx), row, ctx.deps.clock.now());
  });
}
