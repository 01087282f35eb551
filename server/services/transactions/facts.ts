import { checklistChangeInWords } from '../../../shared/checklist-rules';
import { complianceMessages } from '../../../shared/messages';
import type { FactsInput, TransactionFacts } from '../../../shared/schemas/facts';
import type { Tx } from '../../db/client';
import type { Prisma } from '../../db/generated/client';
import { AppError } from '../../errors';
import type { CallerContext } from '../context';
import { actsFor } from '../reach';
import {
  applyChecklists,
  factsData,
  factsSelect,
  mergeFacts,
  type PlanSummary,
  planSummary,
  rulesOf,
  sameFacts,
  toFacts,
} from './checklist';
import { notifyOtherSide, placeOf } from './notify';

/**
 * A change of a transaction's facts, with the checklist changes it brings, under the transaction's
 * lock: the facts are read after the lock, so two changes naming different facts both land.
 * `columns`, the request's other changes, are written with the facts.
 */

export type FactsChange = {
  before: TransactionFacts;
  after: TransactionFacts;
  /** Null when the facts did not change (nothing else did either). */
  checklist: PlanSummary | null;
};

export async function changeFacts(
  tx: Tx,
  locked: { id: string; closedAt: Date | null },
  change: FactsInput,
  columns: Prisma.TransactionUpdateInput = {},
): Promise<FactsChange> {
  const row = await tx.transaction.findUniqueOrThrow({
    where: { id: locked.id },
    select: { ...factsSelect, checklistRules: true },
  });
  const before = toFacts(row);
  const after = mergeFacts(before, change);
  const same = sameFacts(before, after);
  // A closed file's checklist is frozen: an admin reopens it first.
  if (!same && locked.closedAt) throw new AppError('CONFLICT', complianceMessages.closedFacts);
  // The other columns of the change in the same UPDATE: each UPDATE of a transaction writes a new
  // row version, and one that finds no room on its page an entry in each of its indexes too.
  await tx.transaction.update({
    where: { id: locked.id },
    data: same ? columns : { ...columns, ...factsData(after) },
    select: { id: true },
  });
  if (same) return { before, after, checklist: null };
  const plans = await applyChecklists(tx, [
    { id: locked.id, facts: after, rules: rulesOf(row.checklistRules) },
  ]);
  const plan = plans.get(locked.id);
  return { before, after, checklist: plan ? planSummary(plan) : null };
}

/** The other side hears when a fact change changed the checklist. */
export async function notifyChecklistChange(
  tx: Tx,
  ctx: CallerContext,
  transaction: { id: string; userId: string; streetAddress: string; city: string },
  summary: PlanSummary | null,
) {
  const words = checklistChangeInWords(summary);
  if (!words) return;
  // Admins follow uploads; agents follow what the desk asks of them.
  const event = actsFor(ctx.user, transaction.userId) ? 'documentUploaded' : 'documentReviewed';
  await notifyOtherSide(
    tx,
    ctx,
    transaction,
    `${placeOf(transaction)}: its facts changed, the checklist ${words}`,
    event,
  );
}
