import { allHold, requiredBecause } from '../../../shared/checklist-rules';
import type { ConditionalForm, TransactionFacts } from '../../../shared/schemas/facts';

/**
 * What a transaction's checklist must become for its facts and its rules, as a list of changes: no
 * database, so a property test can run it on any facts and rules.
 *
 * An item is governed by a rule when the rule has its label (case aside). While the rule's
 * conditions hold, the item is there and required, with the facts that require it in words.
 * When they stop holding, or the rule is gone, an item that never had a file and has no comments
 * is removed; one that has either stays, optional, so nothing anyone saved is lost.
 */

export type PlanItem = {
  id: string;
  label: string;
  required: boolean;
  conditional: boolean;
  requiredBecause: string | null;
  /** A file was attached at least once (its versions are on file). */
  hasFile: boolean;
  hasComments: boolean;
};

export type ItemChange = {
  id: string;
  label: string;
  required: boolean;
  requiredBecause: string | null;
  wasRequired: boolean;
};

export type ChecklistPlan = {
  add: Array<{ label: string; requiredBecause: string }>;
  change: ItemChange[];
  remove: Array<{ id: string; label: string }>;
};

export const isEmptyPlan = (plan: ChecklistPlan) =>
  plan.add.length === 0 && plan.change.length === 0 && plan.remove.length === 0;

export function planChecklist(
  items: readonly PlanItem[],
  rules: readonly ConditionalForm[],
  facts: TransactionFacts,
): ChecklistPlan {
  const ruleOf = new Map<string, ConditionalForm>();
  for (const rule of rules) {
    const key = rule.label.toLowerCase();
    if (!ruleOf.has(key)) ruleOf.set(key, rule);
  }
  const plan: ChecklistPlan = { add: [], change: [], remove: [] };
  const present = new Set<string>();
  for (const item of items) {
    const key = item.label.toLowerCase();
    present.add(key);
    const rule = ruleOf.get(key);
    if (!rule && !item.conditional) continue;
    if (rule && allHold(facts, rule.when)) {
      const because = requiredBecause(facts, rule.when);
      if (!item.conditional || !item.required || item.requiredBecause !== because)
        plan.change.push({
          id: item.id,
          label: item.label,
          required: true,
          requiredBecause: because,
          wasRequired: item.required,
        });
    } else if (item.hasFile || item.hasComments) {
      if (!item.conditional || item.required || item.requiredBecause !== null)
        plan.change.push({
          id: item.id,
          label: item.label,
          required: false,
          requiredBecause: null,
          wasRequired: item.required,
        });
    } else {
      plan.remove.push({ id: item.id, label: item.label });
    }
  }
  for (const [key, rule] of ruleOf) {
    if (!present.has(key) && allHold(facts, rule.when))
      plan.add.push({ label: rule.label, requiredBecause: requiredBecause(facts, rule.when) });
  }
  return plan;
}
