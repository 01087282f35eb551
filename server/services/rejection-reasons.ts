import { complianceMessages } from '../../shared/messages';
import {
  type RejectionReason,
  reasonCodeOf,
  type UpdateRejectionReasonInput,
} from '../../shared/schemas/compliance';
import type { ReasonRef } from '../../shared/schemas/transactions';
import type { Tx } from '../db/client';
import { AppError } from '../errors';
import type { CallerContext } from './context';
import { assertBrokerageWide } from './reach';
import { notFound } from './transactions/access';

/**
 * The rejection reasons the desk picks from. A code is made once from the first
 * label and never changes (decisions quote it); a label may be reworded and a reason retired.
 * Changes are not audited one by one in the transaction trail: they belong to no transaction,
 * and the decisions that used a reason keep the label it had then.
 */

const reasonSelect = { code: true, label: true, active: true } as const;
const ORDER = [{ createdAt: 'asc' as const }, { code: 'asc' as const }];

export async function listReasons(ctx: CallerContext): Promise<RejectionReason[]> {
  return ctx.db.rejectionReason.findMany({ select: reasonSelect, orderBy: ORDER });
}

/**
 * Adding a reason and rewording one serialise on this lock (any 64-bit key unique to this
 * purpose, shared by every instance): the label check and the choice of a code read the table,
 * so two admins at once would otherwise both pass the check with one label, or both pick one
 * code for two labels (one of them then refused by the primary key).
 */
const REASONS_LOCK_KEY = 4_206_911_018;
const lockReasons = (tx: Tx) => tx.$executeRaw`SELECT pg_advisory_xact_lock(${REASONS_LOCK_KEY})`;

async function assertLabelFree(tx: Tx, label: string, exceptCode?: string) {
  // lower() = lower(), not Prisma's insensitive equals: that one is an ILIKE, where a label
  // ending in a backslash is a broken pattern (a 500) and '%' or '_' would match other labels.
  const taken = await tx.$queryRaw<{ code: string }[]>`
    SELECT code FROM rejection_reasons
    WHERE lower(label) = lower(${label}) AND code IS DISTINCT FROM ${exceptCode ?? null}::text
    LIMIT 1`;
  if (taken.length > 0) throw new AppError('CONFLICT', complianceMessages.reasonLabelTaken);
}

/** A new reason; its code is the label in kebab-case, made unique with -2, -3... */
export async function createReason(
  ctx: CallerContext,
  { label }: { label: string },
): Promise<RejectionReason> {
  assertBrokerageWide(ctx.user);
  return ctx.db.$transaction(async (tx) => {
    await lockReasons(tx);
    await assertLabelFree(tx, label);
    const base = reasonCodeOf(label);
    const existing = new Set(
      (
        await tx.rejectionReason.findMany({
          where: { code: { startsWith: base } },
          select: { code: true },
        })
      ).map((row) => row.code),
    );
    let code = base;
    for (let n = 2; existing.has(code); n++) code = `${base}-${n}`;
    return tx.rejectionReason.create({ data: { code, label }, select: reasonSelect });
  });
}

export async function updateReason(
  ctx: CallerContext,
  { code, label, active }: UpdateRejectionReasonInput,
): Promise<RejectionReason> {
  assertBrokerageWide(ctx.user);
  return ctx.db.$transaction(async (tx) => {
    if (label !== undefined) await lockReasons(tx);
    const before = await tx.rejectionReason.findUnique({ where: { code }, select: reasonSelect });
    if (!before) throw notFound();
    if (label !== undefined) await assertLabelFree(tx, label, code);
    return tx.rejectionReason.update({
      where: { code },
      data: { ...(label !== undefined ? { label } : {}), ...(active !== undefined ? { active } : {}) },
      select: reasonSelect,
    });
  });
}

/**
 * The codes of a rejection as [{code, label}], in the order given (each once). An unknown or
 * retired code is the client's mistake: 400, naming it.
 */
export async function resolveReasons(tx: Tx, codes: readonly string[] | undefined): Promise<ReasonRef[]> {
  const wanted = [...new Set(codes ?? [])];
  if (wanted.length === 0) return [];
  const rows = await tx.rejectionReason.findMany({
    where: { code: { in: wanted }, active: true },
    select: { code: true, label: true },
  });
  const byCode = new Map(rows.map((row) => [row.code, row]));
  return wanted.map((code) => {
    const row = byCode.get(code);
    if (!row) {
      const message = complianceMessages.unknownReason(code);
      throw new AppError('BAD_REQUEST', message, [{ path: 'reasons', message }]);
    }
    return row;
  });
}
