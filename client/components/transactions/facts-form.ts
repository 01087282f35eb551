import {
  CHOICE_LABELS,
  FACT_NAMES,
  type FactName,
  type FactsInput,
  type TransactionFacts,
} from '../../../shared/schemas/facts';
import type { Transaction } from '../../../shared/schemas/transactions';

/**
 * The Facts card's fields as the inputs hold them, and the facts they mean: money is typed in
 * dollars and sent in integer cents; an empty field is a fact not known (null).
 */

export type FactsDraft = {
  /** Dollars, as the number input holds them ('' when not known). */
  salePrice: number | string;
  yearBuilt: number | string;
  /** '' when not known. */
  financing: string;
  propertyType: string;
  hoa: '' | 'yes' | 'no';
};

export type FactErrors = Partial<Record<FactName, string>>;

const NOT_KNOWN = 'Not known';

/** A select's options: "Not known" first, then the values in words. */
export function choiceOptions(values: readonly string[]) {
  return [
    { value: '', label: NOT_KNOWN },
    ...values.map((value) => ({ value, label: CHOICE_LABELS[value] ?? value })),
  ];
}

export const HOA_OPTIONS = [
  { value: '', label: NOT_KNOWN },
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

export function draftOf(facts: TransactionFacts): FactsDraft {
  return {
    salePrice: facts.salePriceCents === null ? '' : facts.salePriceCents / 100,
    yearBuilt: facts.yearBuilt ?? '',
    financing: facts.financing ?? '',
    propertyType: facts.propertyType ?? '',
    hoa: facts.hoa === null ? '' : facts.hoa ? 'yes' : 'no',
  };
}

/** A number input's value as a number, or null when empty; text that is no number stays as is. */
function numberOf(value: number | string): number | string | null {
  if (typeof value === 'number') return value;
  if (value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : value;
}

/** What the fields say, as facts (unchecked: a wrong year stays wrong for validation to name). */
export function factsOfDraft(draft: FactsDraft): Record<FactName, unknown> {
  const dollars = numberOf(draft.salePrice);
  return {
    // Rounded to the cent: 0.1 + 0.2 dollars is 30 cents, not 30.000000000000004.
    salePriceCents: typeof dollars === 'number' ? Math.round(dollars * 100) : dollars,
    yearBuilt: numberOf(draft.yearBuilt),
    financing: draft.financing || null,
    propertyType: draft.propertyType || null,
    hoa: draft.hoa === '' ? null : draft.hoa === 'yes',
  };
}

/** Only the facts the fields changed: a save names nothing else. */
export function changedFacts(before: TransactionFacts, draft: FactsDraft): Record<string, unknown> {
  const after = factsOfDraft(draft);
  return Object.fromEntries(
    FACT_NAMES.filter((name) => after[name] !== before[name]).map((name) => [name, after[name]]),
  );
}

/**
 * Issues, the client's own or the server's, by the fact they name ('facts.yearBuilt' or
 * 'yearBuilt'); `other` holds what names no fact.
 */
export function errorsByFact(issues: ReadonlyArray<{ path: string; message: string }>): {
  fields: FactErrors;
  other: string[];
} {
  const fields: FactErrors = {};
  const other: string[] = [];
  for (const { path, message } of issues) {
    const name = path.replace(/^facts\.?/, '').split('.')[0] as FactName;
    if ((FACT_NAMES as string[]).includes(name)) fields[name] ??= message;
    else other.push(message);
  }
  return { fields, other };
}

/** What a save did to the checklist, in words: items added, removed, or now optional. */
export function checklistChange(before: Transaction, after: Transaction): string | null {
  const labels = (transaction: Transaction) => new Set(transaction.forms.map((form) => form.label));
  const was = labels(before);
  const is = labels(after);
  const added = [...is].filter((label) => !was.has(label));
  const removed = [...was].filter((label) => !is.has(label));
  const optional = after.forms
    .filter((form) => !form.required && before.forms.some((old) => old.label === form.label && old.required))
    .map((form) => form.label);
  const parts = [
    added.length ? `added ${added.join(', ')}` : null,
    removed.length ? `removed ${removed.join(', ')}` : null,
    optional.length ? `now optional ${optional.join(', ')}` : null,
  ].filter(Boolean);
  return parts.length ? `Checklist: ${parts.join('; ')}` : null;
}

export type { FactsInput };
