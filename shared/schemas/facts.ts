import { z } from 'zod';

/**
 * A transaction's facts, and the rules of a template's conditional items that read them. Each
 * fact is null until someone sets it; a condition on a fact not set never holds, so an item that
 * depends on it is not asked for until the fact is known.
 */

export const FINANCING = ['cash', 'conventional', 'fha', 'va', 'other'] as const;
export const PROPERTY_TYPES = [
  'single-family',
  'condo',
  'townhouse',
  'multi-family',
  'land',
  'commercial',
] as const;
export const RULE_OPS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in'] as const;
export type RuleOp = (typeof RULE_OPS)[number];

/** The oldest and newest year built the portal takes: wide enough for any building on record. */
export const YEAR_BUILT_MIN = 1600;
export const YEAR_BUILT_MAX = 2100;
/** A hundred billion dollars: past any sale, and exact as a JavaScript number. */
export const SALE_PRICE_MAX_CENTS = 10_000_000_000_000;

/** Each fact as words show it, and the kind of value it holds. */
export const FACTS = {
  salePriceCents: { label: 'Sale price', kind: 'money' },
  yearBuilt: { label: 'Year built', kind: 'year' },
  financing: { label: 'Financing', kind: 'choice', values: FINANCING },
  propertyType: { label: 'Property type', kind: 'choice', values: PROPERTY_TYPES },
  hoa: { label: 'HOA', kind: 'boolean' },
} as const;
export type FactName = keyof typeof FACTS;
export const FACT_NAMES = Object.keys(FACTS) as FactName[];

/** The operators each kind of fact can be compared with. */
export const OPS_OF_KIND = {
  money: RULE_OPS,
  year: RULE_OPS,
  choice: ['eq', 'ne', 'in'],
  boolean: ['eq', 'ne'],
} as const satisfies Record<string, readonly RuleOp[]>;

export const CHOICE_LABELS: Record<string, string> = {
  cash: 'Cash',
  conventional: 'Conventional',
  fha: 'FHA',
  va: 'VA',
  other: 'Other',
  'single-family': 'Single-family',
  condo: 'Condo',
  townhouse: 'Townhouse',
  'multi-family': 'Multi-family',
  land: 'Land',
  commercial: 'Commercial',
};

const factMessages = {
  salePriceCents: `Sale price (salePriceCents) is a whole number of cents from 0 to ${SALE_PRICE_MAX_CENTS}`,
  yearBuilt: `Year built (yearBuilt) is a year from ${YEAR_BUILT_MIN} to ${YEAR_BUILT_MAX}`,
  financing: `Financing (financing) is one of ${FINANCING.join(', ')}`,
  propertyType: `Property type (propertyType) is one of ${PROPERTY_TYPES.join(', ')}`,
  hoa: 'HOA (hoa) is true or false',
} as const satisfies Record<FactName, string>;

const unknownFact = (name: string) => `Unknown fact "${name}": the facts are ${FACT_NAMES.join(', ')}`;

const factSchemas = {
  salePriceCents: z
    .number({ error: factMessages.salePriceCents })
    .int({ error: factMessages.salePriceCents })
    .min(0, { error: factMessages.salePriceCents })
    .max(SALE_PRICE_MAX_CENTS, { error: factMessages.salePriceCents }),
  yearBuilt: z
    .number({ error: factMessages.yearBuilt })
    .int({ error: factMessages.yearBuilt })
    .min(YEAR_BUILT_MIN, { error: factMessages.yearBuilt })
    .max(YEAR_BUILT_MAX, { error: factMessages.yearBuilt }),
  financing: z.enum(FINANCING, { error: factMessages.financing }),
  propertyType: z.enum(PROPERTY_TYPES, { error: factMessages.propertyType }),
  hoa: z.boolean({ error: factMessages.hoa }),
};

/** A transaction's facts as every answer shows them: all five, null where not set. */
export const transactionFacts = z.object({
  salePriceCents: factSchemas.salePriceCents.nullable(),
  yearBuilt: factSchemas.yearBuilt.nullable(),
  financing: factSchemas.financing.nullable(),
  propertyType: factSchemas.propertyType.nullable(),
  hoa: factSchemas.hoa.nullable(),
});
export type TransactionFacts = z.infer<typeof transactionFacts>;
export const NO_FACTS: TransactionFacts = {
  salePriceCents: null,
  yearBuilt: null,
  financing: null,
  propertyType: null,
  hoa: null,
};

/** Facts in a create or update body: any of them; left out keeps a fact, null clears it. */
export const factsInput = z.strictObject(
  {
    salePriceCents: factSchemas.salePriceCents.nullable().optional(),
    yearBuilt: factSchemas.yearBuilt.nullable().optional(),
    financing: factSchemas.financing.nullable().optional(),
    propertyType: factSchemas.propertyType.nullable().optional(),
    hoa: factSchemas.hoa.nullable().optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? issue.keys.map(unknownFact).join('; ') : 'facts is an object',
  },
);
export type FactsInput = z.infer<typeof factsInput>;

export type FactValue = number | string | boolean;
export type Condition = { fact: FactName; op: RuleOp; value: FactValue | Array<number | string> };

const MAX_IN_VALUES = 20;

/** Why a condition cannot be: its fact, its operator or its value, named; null when it is sound. */
export function conditionProblem(condition: { fact: unknown; op: unknown; value: unknown }): {
  path: 'fact' | 'op' | 'value';
  message: string;
} | null {
  const { fact, op, value } = condition;
  // Own keys only: `in` would take constructor or toString, which every object inherits.
  if (typeof fact !== 'string' || !Object.hasOwn(FACTS, fact))
    return { path: 'fact', message: unknownFact(String(fact)) };
  const definition = FACTS[fact as FactName];
  const ops: readonly string[] = OPS_OF_KIND[definition.kind];
  if (typeof op !== 'string' || !ops.includes(op))
    return {
      path: 'op',
      message: `${definition.label} (${fact}) is compared with ${ops.join(', ')}`,
    };
  const single = factSchemas[fact as FactName];
  const wrongValue = { path: 'value' as const, message: `A rule on ${factMessages[fact as FactName]}` };
  if (op === 'in') {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IN_VALUES)
      return {
        path: 'value',
        message: `"in" takes a list of 1 to ${MAX_IN_VALUES} values of ${definition.label} (${fact})`,
      };
    return value.every((one) => single.safeParse(one).success) ? null : wrongValue;
  }
  return single.safeParse(value).success ? null : wrongValue;
}

const condition = z
  .object({
    fact: z.string({ error: unknownFact('') }),
    op: z.string({ error: `op is one of ${RULE_OPS.join(', ')}` }),
    value: z.unknown(),
  })
  .superRefine((given, ctx) => {
    const problem = conditionProblem(given);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.message, path: [problem.path] });
  })
  .transform((given) => given as Condition);

const MAX_CONDITIONS = 10;
export const MAX_CONDITIONAL_FORMS = 50;

/** A template's conditional item: on the checklist, and required, while every condition holds. */
export const conditionalForm = z.object({
  label: z
    .string({ error: 'Document name is required' })
    .trim()
    .min(1, { error: 'Document name is required' })
    .max(200, { error: 'Cannot exceed 200 characters' }),
  when: z
    .array(condition, { error: 'when is a list of conditions' })
    .min(1, { error: 'A conditional document needs at least one condition' })
    .max(MAX_CONDITIONS, { error: `At most ${MAX_CONDITIONS} conditions` }),
});
export type ConditionalForm = z.infer<typeof conditionalForm>;

export const conditionalForms = z
  .array(conditionalForm, { error: 'conditionalForms is a list' })
  .max(MAX_CONDITIONAL_FORMS, { error: `At most ${MAX_CONDITIONAL_FORMS} conditional documents` });

/** The answer's view of a rule, as stored: the same shape, without input checks. */
export const conditionalFormAnswer = z.object({
  label: z.string(),
  when: z.array(
    z.object({
      fact: z.enum(FACT_NAMES as [FactName, ...FactName[]]),
      op: z.enum(RULE_OPS),
      value: z.union([z.number(), z.string(), z.boolean(), z.array(z.union([z.number(), z.string()]))]),
    }),
  ),
});
