import {
  CHOICE_LABELS,
  type Condition,
  FACTS,
  type FactName,
  type FactValue,
  type TransactionFacts,
} from './schemas/facts';

/**
 * When a conditional checklist item applies, and why, in words. The server decides with these and
 * writes the reason on the item; the template editor shows the same words as its preview.
 */

/** Does this condition hold for these facts? Never while its fact is not set. */
export function holds(facts: TransactionFacts, { fact, op, value }: Condition): boolean {
  const actual = facts[fact];
  if (actual === null || actual === undefined) return false;
  switch (op) {
    case 'eq':
      return actual === value;
    case 'ne':
      return actual !== value;
    case 'in':
      return Array.isArray(value) && value.includes(actual as number | string);
    case 'lt':
      return (actual as number) < (value as number);
    case 'lte':
      return (actual as number) <= (value as number);
    case 'gt':
      return (actual as number) > (value as number);
    case 'gte':
      return (actual as number) >= (value as number);
  }
}

export const allHold = (facts: TransactionFacts, when: readonly Condition[]) =>
  when.every((condition) => holds(facts, condition));

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** A fact's value as words show it: $1,250,000.00, FHA, Condo, 1965. */
export function valueInWords(fact: FactName, value: FactValue): string {
  const kind = FACTS[fact].kind;
  if (kind === 'money') return dollars.format((value as number) / 100);
  if (kind === 'choice') return CHOICE_LABELS[value as string] ?? String(value);
  return String(value);
}

const listInWords = (fact: FactName, value: Condition['value']) =>
  (Array.isArray(value) ? value : [value]).map((one) => valueInWords(fact, one)).join(', ');

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** What an order comparison says of a fact of this kind. */
const ORDER_WORDS = {
  money: { lt: 'under', lte: 'or less', gt: 'over', gte: 'or more' },
  year: { lt: 'before', lte: 'or before', gt: 'after', gte: 'or later' },
} as const;

function hoaWanted(op: Condition['op'], value: Condition['value']) {
  return (op === 'eq') === (value === true);
}

/** A condition as a rule: "year built is before 1978", "the property has an HOA". */
export function conditionInWords({ fact, op, value }: Condition): string {
  const { label, kind } = FACTS[fact];
  const name = lowerFirst(label);
  if (kind === 'boolean') return hoaWanted(op, value) ? 'the property has an HOA' : 'the property has no HOA';
  const shown = listInWords(fact, value);
  if (op === 'eq') return `${name} is ${shown}`;
  if (op === 'ne') return `${name} is not ${shown}`;
  if (op === 'in') return `${name} is one of ${shown}`;
  const words = ORDER_WORDS[kind as 'money' | 'year'][op];
  return op === 'lt' || op === 'gt' ? `${name} is ${words} ${shown}` : `${name} is ${shown} ${words}`;
}

/** A template's rule in words, for its editor: "Required when year built is before 1978". */
export function ruleInWords(when: readonly Condition[]): string {
  return `Required when ${when.map(conditionInWords).join(' and ')}`;
}

/** Why a condition holds for these facts: "Year built 1965 is before 1978", "Financing is FHA". */
function reasonOf(facts: TransactionFacts, condition: Condition): string {
  const { fact, op } = condition;
  const { label, kind } = FACTS[fact];
  const actual = facts[fact] as FactValue;
  if (kind === 'boolean') return conditionInWords({ ...condition, op: 'eq', value: actual });
  const shownActual = valueInWords(fact, actual);
  const shown = listInWords(fact, condition.value);
  if (op === 'eq') return `${label} is ${shownActual}`;
  if (op === 'ne') return `${label} is ${shownActual}, not ${shown}`;
  if (op === 'in') return `${label} ${shownActual} is one of ${shown}`;
  const words = ORDER_WORDS[kind as 'money' | 'year'][op];
  return op === 'lt' || op === 'gt'
    ? `${label} ${shownActual} is ${words} ${shown}`
    : `${label} ${shownActual} is ${shown} ${words}`;
}

/** The sentence an item added by a rule carries, naming the facts that require it. */
export function requiredBecause(facts: TransactionFacts, when: readonly Condition[]): string {
  const [first, ...rest] = when.map((condition) => reasonOf(facts, condition));
  const sentence = [first, ...rest.map(lowerFirst)].join(' and ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** What a change of facts or rules did to a checklist, by item label (the audit trail keeps it). */
export type ChecklistChange = {
  added: string[];
  removed: string[];
  nowRequired: string[];
  nowOptional: string[];
  reasonChanged: string[];
};

/** A checklist change in words ("now requires HOA Documents; no longer needs ..."); null if none. */
export function checklistChangeInWords(change: Partial<ChecklistChange> | null | undefined): string | null {
  if (!change) return null;
  const list = (labels: string[] | undefined) =>
    Array.isArray(labels) && labels.length ? labels.join(', ') : null;
  const parts = [
    ['now requires', list(change.added)],
    ['requires again', list(change.nowRequired)],
    ['no longer needs', list(change.removed)],
    ['keeps as optional', list(change.nowOptional)],
  ]
    .filter(([, labels]) => labels !== null)
    .map(([words, labels]) => `${words} ${labels}`);
  return parts.length ? parts.join('; ') : null;
}
