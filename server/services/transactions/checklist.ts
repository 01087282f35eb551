import type { ChecklistChange } from '../../../shared/checklist-rules';
import {
  type ConditionalForm,
  type FactsInput,
  NO_FACTS,
  type TransactionFacts,
} from '../../../shared/schemas/facts';
import type { Tx } from '../../db/client';
import type { Prisma } from '../../db/generated/client';
import { type ChecklistPlan, isEmptyPlan, type PlanItem, planChecklist } from './checklist-plan';

/**
 * A transaction's facts as stored, and its checklist brought in line with them and its rules
 * (checklist-plan.ts decides; this writes). Callers hold the transactions' locks, so two changes to
 * one checklist run one after the other and each sees the other's result; the progress counters
 * follow by the statement trigger on transaction_forms, in the same database transaction.
 */

/** The columns the facts live in, as Prisma reads them. */
export const factsSelect = {
  salePriceCents: true,
  yearBuilt: true,
  financing: true,
  propertyType: true,
  hoa: true,
} as const satisfies Prisma.TransactionSelect;

export type FactsRow = {
  salePriceCents: bigint | number | null;
  yearBuilt: number | null;
  financing: string | null;
  propertyType: string | null;
  hoa: boolean | null;
};

export function toFacts(row: FactsRow): TransactionFacts {
  return {
    salePriceCents: row.salePriceCents === null ? null : Number(row.salePriceCents),
    yearBuilt: row.yearBuilt,
    financing: row.financing as TransactionFacts['financing'],
    propertyType: row.propertyType as TransactionFacts['propertyType'],
    hoa: row.hoa,
  };
}

/** The facts after a change: named facts take the given value (null clears), others stay. */
export function mergeFacts(before: TransactionFacts, change: FactsInput | undefined): TransactionFacts {
  const after = { ...before };
  for (const name of Object.keys(NO_FACTS) as Array<keyof TransactionFacts>) {
    const value = change?.[name];
    if (value !== undefined) (after as Record<string, unknown>)[name] = value;
  }
  return after;
}

export const sameFacts = (a: TransactionFacts, b: TransactionFacts) =>
  (Object.keys(NO_FACTS) as Array<keyof TransactionFacts>).every((name) => a[name] === b[name]);

/** The facts as columns, for a create or an update. */
export function factsData(facts: TransactionFacts) {
  return {
    salePriceCents: facts.salePriceCents === null ? null : BigInt(facts.salePriceCents),
    yearBuilt: facts.yearBuilt,
    financing: facts.financing,
    propertyType: facts.propertyType,
    hoa: facts.hoa,
  };
}

/** Rules as a transaction or template stores them (written only through the checked input). */
export const rulesOf = (stored: unknown): ConditionalForm[] =>
  Array.isArray(stored) ? (stored as ConditionalForm[]) : [];

/** A plan in the words the audit trail and notifications use. */
export function planSummary(plan: ChecklistPlan): ChecklistChange {
  return {
    added: plan.add.map((item) => item.label),
    removed: plan.remove.map((item) => item.label),
    nowRequired: plan.change.filter((item) => item.required && !item.wasRequired).map((item) => item.label),
    nowOptional: plan.change.filter((item) => !item.required && item.wasRequired).map((item) => item.label),
    /** Still required, for other facts (or now by a rule): the reason changed. */
    reasonChanged: plan.change.filter((item) => item.required && item.wasRequired).map((item) => item.label),
  };
}
export type PlanSummary = ChecklistChange;

type ItemRow = PlanItem & { transactionId: string; position: number };

export type ChecklistTarget = { id: string; facts: TransactionFacts; rules: readonly ConditionalForm[] };

/**
 * Brings each locked transaction's checklist in line with its facts and rules, in a handful of
 * statements whatever the number of transactions; answers the plan applied to each.
 */
export async function applyChecklists(
  tx: Tx,
  targets: readonly ChecklistTarget[],
): Promise<Map<string, ChecklistPlan>> {
  const plans = new Map<string, ChecklistPlan>();
  if (targets.length === 0) return plans;
  const rows = await tx.$queryRaw<ItemRow[]>`
    SELECT f.id::text AS id, f.transaction_id::text AS "transactionId", f.label, f.required,
           f.conditional, f.required_because AS "requiredBecause", f.position,
           f.version > 0 AS "hasFile",
           EXISTS (SELECT 1 FROM comments c WHERE c.form_id = f.id) AS "hasComments"
      FROM transaction_forms f
     WHERE f.transaction_id = ANY (${targets.map((target) => target.id)}::uuid[])
     ORDER BY f.transaction_id, f.position`;
  const itemsOf = new Map<string, ItemRow[]>();
  for (const row of rows) {
    const list = itemsOf.get(row.transactionId) ?? [];
    list.push(row);
    itemsOf.set(row.transactionId, list);
  }
  const removed: string[] = [];
  const changed: ChecklistPlan['change'] = [];
  const added: Prisma.TransactionFormCreateManyInput[] = [];
  for (const target of targets) {
    const items = itemsOf.get(target.id) ?? [];
    const plan = planChecklist(items, target.rules, target.facts);
    plans.set(target.id, plan);
    if (isEmptyPlan(plan)) continue;
    removed.push(...plan.remove.map((item) => item.id));
    changed.push(...plan.change);
    let next = items.reduce((max, item) => Math.max(max, item.position), -1) + 1;
    for (const item of plan.add)
      added.push({
        transactionId: target.id,
        label: item.label,
        required: true,
        conditional: true,
        requiredBecause: item.requiredBecause,
        position: next++,
      });
  }
  if (removed.length > 0)
    await tx.$executeRaw`DELETE FROM transaction_forms WHERE id = ANY (${removed}::uuid[])`;
  if (changed.length > 0)
    await tx.$executeRaw`
      UPDATE transaction_forms f
         SET required = c.required, required_because = c.because, conditional = true,
             updated_at = now()
        FROM unnest(${changed.map((c) => c.id)}::uuid[], ${changed.map((c) => c.required)}::boolean[],
                    ${changed.map((c) => c.requiredBecause)}::text[]) AS c(id, required, because)
       WHERE f.id = c.id`;
  if (added.length > 0) await tx.transactionForm.createMany({ data: added });
  return plans;
}

/** The items a new transaction starts with: its template's plain ones, then the rules that hold. */
export function initialItems(
  template: { documents: string[]; optionalDocuments: string[] },
  rules: readonly ConditionalForm[],
  facts: TransactionFacts,
) {
  const plain = [
    ...template.documents.map((label) => ({
      label,
      required: true,
      conditional: false,
      requiredBecause: null,
    })),
    ...template.optionalDocuments.map((label) => ({
      label,
      required: false,
      conditional: false,
      requiredBecause: null,
    })),
  ];
  const byRule = planChecklist([], rules, facts).add.map((item) => ({
    label: item.label,
    required: true,
    conditional: true,
    requiredBecause: item.requiredBecause as string | null,
  }));
  return [...plain, ...byRule].map((item, position) => ({ ...item, position }));
}
