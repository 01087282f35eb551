import fc from 'fast-check';
import {
  FACT_NAMES,
  FACTS,
  type FactName,
  MAX_CONDITIONAL_FORMS,
  OPS_OF_KIND,
} from '../../shared/schemas/facts';
import { unknownFactName, validCondition, validValue, validWhen, wrongValue } from './hostile-facts';

/**
 * A template's `conditionalForms` wrong by construction (hostile-facts.ts has the values): an
 * unknown fact, a value its fact never takes, an operator no rule has, `in` with no values or too
 * many, too many conditions or rules, a document on two lists. Every case must be refused with 400.
 */

const labelArb = fc.constantFrom('HOA Documents', 'Lead-Based Paint Disclosure', 'FHA Amendatory Clause');

/** A condition wrong in one way: its fact, its operator, its value or its shape. */
const badCondition: fc.Arbitrary<unknown> = fc.oneof(
  validCondition.chain((condition) =>
    fc
      .oneof(unknownFactName, fc.constantFrom<unknown>(1, null, true, [], {}, ['hoa']))
      .map((fact) => ({ ...condition, fact })),
  ),
  fc
    .constantFrom(...FACT_NAMES)
    .chain((fact) =>
      fc
        .tuple(
          fc.constantFrom(...OPS_OF_KIND[FACTS[fact].kind].filter((op) => op !== 'in')),
          wrongValue(fact, false),
        )
        .map(([op, value]) => ({ fact, op, value })),
    ),
  fc
    .constantFrom(...FACT_NAMES)
    .chain((fact) =>
      fc
        .tuple(fc.constantFrom(...badOps(fact)), validValue[fact])
        .map(([op, value]) => ({ fact, op, value })),
    ),
  // `in` with no values, too many, one not a list, or one wrong value among right ones.
  fc
    .constantFrom(...FACT_NAMES.filter((fact) => includes(OPS_OF_KIND[FACTS[fact].kind], 'in')))
    .chain((fact) =>
      fc
        .oneof(
          fc.constant<unknown>([]),
          fc.array(validValue[fact], { minLength: 21, maxLength: 60 }),
          validValue[fact],
          fc.constantFrom<unknown>(null, {}, 'fha,va'),
          fc
            .tuple(fc.array(validValue[fact], { maxLength: 5 }), wrongValue(fact, false))
            .map(([values, wrong]) => [...values, wrong]),
        )
        .map((value) => ({ fact, op: 'in', value })),
    ),
  validCondition.chain((condition) =>
    fc.constantFrom('fact', 'op', 'value').map((key) => {
      const { [key as 'fact']: _dropped, ...rest } = condition;
      return rest;
    }),
  ),
  fc.constantFrom<unknown>(null, 'hoa', 1, [], [{ fact: 'hoa', op: 'eq', value: true }]),
);

function includes(list: readonly string[], value: string) {
  return list.includes(value);
}

/** Operators no rule has, and those of other kinds of fact (an HOA is not "less than"). */
function badOps(fact: FactName): unknown[] {
  const others = ['lt', 'lte', 'gt', 'gte', 'in'].filter(
    (op) => !includes(OPS_OF_KIND[FACTS[fact].kind], op),
  );
  return ['EQ', '==', '=', '<', 'like', 'between', 'in ', '', 1, null, true, [], { eq: 1 }, ...others];
}

/** One rule wrong in one way: its label, its `when`, or one of its conditions. */
const badRule: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(labelArb, fc.array(validCondition, { maxLength: 9 }), badCondition, fc.nat())
      .map(([label, when, bad, at]) => {
        const conditions: unknown[] = [...when];
        conditions.splice(at % (when.length + 1), 0, bad);
        return { label, when: conditions };
      }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(labelArb, fc.array(validCondition, { minLength: 11, maxLength: 16 }))
      .map(([label, when]) => ({ label, when })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom<unknown>('', '   ', 'x'.repeat(201), 1, null, [], { label: 'x' }), validWhen)
      .map(([label, when]) => ({ label, when })),
  },
  { weight: 1, arbitrary: validWhen.map((when) => ({ when })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(labelArb, fc.constantFrom<unknown>([], {}, 'hoa', null, 1, true))
      .map(([label, when]) => ({ label, when })),
  },
  { weight: 1, arbitrary: labelArb.map((label) => ({ label })) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 'HOA Documents', 1, []) },
);

/** A template's lists with `conditionalForms` that must be refused. */
export type BadRules = { forms: string[]; optionalForms: string[]; conditionalForms: unknown };

const FORMS = ['Listing Agreement', 'Agency Disclosure'];
const OPTIONAL = ['Staging Agreement'];

const validRules = (count: number) =>
  fc
    .array(validWhen, { minLength: count, maxLength: count })
    .map((whens) => whens.map((when, index) => ({ label: `Rule document ${index + 1}`, when })));

export const badRules: fc.Arbitrary<BadRules> = fc
  .oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(validRules(2), badRule, fc.nat(2)).map(([rules, bad, at]) => {
        const list: unknown[] = [...rules];
        list.splice(at, 0, bad);
        return list;
      }),
    },
    // More rules than a template may hold, each of them right.
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: MAX_CONDITIONAL_FORMS + 1, max: MAX_CONDITIONAL_FORMS + 10 })
        .chain(validRules),
    },
    // The same document twice: on another list, or twice among the rules (case and spaces aside).
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          validRules(2),
          fc.constantFrom(...FORMS, ...OPTIONAL, 'Rule document 1'),
          fc.constantFrom(
            (name: string) => name,
            (name: string) => name.toUpperCase(),
            (name: string) => ` ${name.toLowerCase()} `,
          ),
          validWhen,
        )
        .map(([rules, name, spell, when]) => [...rules, { label: spell(name), when }]),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(null, {}, 'HOA Documents', 1, true, [[]], { 0: { label: 'x' } }),
    },
  )
  .map((conditionalForms) => ({ forms: FORMS, optionalForms: OPTIONAL, conditionalForms }));
