import { randomId } from '@mantine/hooks';
import { ruleInWords } from '../../../shared/checklist-rules';
import {
  CHOICE_LABELS,
  type Condition,
  type ConditionalForm,
  conditionProblem,
  FACTS,
  type FactName,
  OPS_OF_KIND,
  type RuleOp,
} from '../../../shared/schemas/facts';

/**
 * A template's conditional items as the editor holds them, and back. Values are kept as the
 * inputs hold them: money in dollars, numbers as typed, "in" as a list of texts, HOA as yes/no.
 */

export type ConditionDraft = {
  key: string;
  fact: FactName;
  op: RuleOp;
  /** A number input's value, a select's value ('' for none), or the values of "in". */
  value: number | string | string[];
};

export type ItemDraft = { key: string; label: string; when: ConditionDraft[] };

export type RuleAnswer = { label: string; when: Condition[] };

const kindOf = (fact: FactName) => FACTS[fact].kind;

export const FACT_OPTIONS = (Object.keys(FACTS) as FactName[]).map((fact) => ({
  value: fact,
  label: FACTS[fact].label,
}));

/** An operator in the words of its fact's kind: a year is "before", a price "under". */
const OP_WORDS: Record<string, Partial<Record<RuleOp, string>>> = {
  money: { lt: 'under', lte: 'at most', gt: 'over', gte: 'at least' },
  year: { lt: 'before', lte: 'in or before', gt: 'after', gte: 'in or after' },
};
const COMMON_OP_WORDS: Record<RuleOp, string> = {
  eq: 'is',
  ne: 'is not',
  in: 'is one of',
  lt: 'less than',
  lte: 'at most',
  gt: 'more than',
  gte: 'at least',
};

/** The operators a fact can be compared with (OPS_OF_KIND of its kind), in words. */
export function opOptions(fact: FactName) {
  const kind = kindOf(fact);
  return OPS_OF_KIND[kind].map((op) => ({ value: op, label: OP_WORDS[kind]?.[op] ?? COMMON_OP_WORDS[op] }));
}

/** The choices of a choice fact, in words. */
export function choiceOptions(fact: FactName) {
  const definition = FACTS[fact];
  return 'values' in definition
    ? definition.values.map((value) => ({ value, label: CHOICE_LABELS[value] ?? value }))
    : [];
}

function emptyValue(fact: FactName, op: RuleOp): ConditionDraft['value'] {
  if (op === 'in') return [];
  return kindOf(fact) === 'boolean' ? 'yes' : '';
}

export function newCondition(): ConditionDraft {
  return { key: randomId(), fact: 'yearBuilt', op: 'lt', value: '' };
}

export function newItem(): ItemDraft {
  return { key: randomId(), label: '', when: [newCondition()] };
}

/** Another fact: its kind's first operator unless the one chosen fits, and an empty value. */
export function withFact(condition: ConditionDraft, fact: FactName): ConditionDraft {
  const ops: readonly RuleOp[] = OPS_OF_KIND[kindOf(fact)];
  const op = ops.includes(condition.op) ? condition.op : (ops[0] as RuleOp);
  return { ...condition, fact, op, value: emptyValue(fact, op) };
}

/** Another operator: a value carried over between one value and a list of them. */
export function withOp(condition: ConditionDraft, op: RuleOp): ConditionDraft {
  const { value } = condition;
  if (op === 'in' && !Array.isArray(value))
    return {
      ...condition,
      op,
      value: value === '' || kindOf(condition.fact) === 'boolean' ? [] : [String(value)],
    };
  if (op !== 'in' && Array.isArray(value)) {
    const first = value[0] ?? '';
    return {
      ...condition,
      op,
      value: kindOf(condition.fact) === 'choice' ? first : first === '' ? '' : Number(first),
    };
  }
  return { ...condition, op };
}

const centsOf = (dollars: number) => Math.round(dollars * 100);

function numberOf(value: number | string): number | undefined {
  if (typeof value === 'number') return value;
  if (value.trim() === '') return undefined;
  const parsed = Number(value.replace(/[$,\s]/g, ''));
  return Number.isFinite(parsed) ? parsed : Number.NaN;
}

/** One typed value as the rule holds it (cents for money); undefined when empty. */
function ruleValueOf(fact: FactName, value: number | string): unknown {
  const kind = kindOf(fact);
  if (kind === 'choice') return value === '' ? undefined : value;
  if (kind === 'boolean') return value === '' ? undefined : value === 'yes';
  const number = numberOf(value);
  return kind === 'money' && number !== undefined ? centsOf(number) : number;
}

/** The condition as the API takes it (unchecked: conditionProblem names what is wrong). */
export function conditionOf({ fact, op, value }: ConditionDraft): {
  fact: FactName;
  op: RuleOp;
  value: unknown;
} {
  if (Array.isArray(value)) return { fact, op, value: value.map((one) => ruleValueOf(fact, one)) };
  return { fact, op, value: ruleValueOf(fact, value) };
}

export function conditionalFormsOf(items: ItemDraft[]) {
  return items.map((item) => ({ label: item.label, when: item.when.map(conditionOf) }));
}

function draftValueOf(fact: FactName, value: Condition['value']): ConditionDraft['value'] {
  const kind = kindOf(fact);
  const one = (single: number | string | boolean) => {
    if (kind === 'boolean') return single === true ? 'yes' : 'no';
    if (kind === 'money') return (single as number) / 100;
    return single as number | string;
  };
  return Array.isArray(value) ? value.map((single) => String(one(single))) : one(value);
}

export function itemsOf(forms: ReadonlyArray<RuleAnswer | ConditionalForm>): ItemDraft[] {
  return forms.map((form) => ({
    key: randomId(),
    label: form.label,
    when: form.when.map((condition) => ({
      key: randomId(),
      fact: condition.fact,
      op: condition.op,
      value: draftValueOf(condition.fact, condition.value),
    })),
  }));
}

/** The rule in words while every condition is sound ("Required when ..."), else null. */
export function previewOf(item: ItemDraft): string | null {
  const when = item.when.map(conditionOf);
  if (when.length === 0 || when.some((condition) => conditionProblem(condition) !== null)) return null;
  return ruleInWords(when as Condition[]);
}
