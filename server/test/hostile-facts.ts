import fc from 'fast-check';
import {
  FACT_NAMES,
  FACTS,
  type FactName,
  OPS_OF_KIND,
  SALE_PRICE_MAX_CENTS,
  YEAR_BUILT_MAX,
  YEAR_BUILT_MIN,
} from '../../shared/schemas/facts';
import { RawJson, setOwn, toJsonText } from './hostile-inputs';

/**
 * fast-check arbitraries of a transaction's `facts` that are wrong by construction, never by chance:
 * every case must be refused with 400. Each bad part sits among valid ones, so the schema cannot
 * stop at the first field it reads. hostile-rules.ts builds a template's wrong rules from these.
 */

/** A string of hostile characters (NUL, a lone surrogate) is refused before the schema reads it. */
export const plainText = (value: unknown) => !/\\u0000|\\ud[89a-f][0-9a-f]{2}/i.test(toJsonText(value));

// --- Valid parts ---

export const validValue: Record<FactName, fc.Arbitrary<number | string | boolean>> = {
  salePriceCents: fc.integer({ min: 0, max: SALE_PRICE_MAX_CENTS }),
  yearBuilt: fc.integer({ min: YEAR_BUILT_MIN, max: YEAR_BUILT_MAX }),
  financing: fc.constantFrom(...FACTS.financing.values),
  propertyType: fc.constantFrom(...FACTS.propertyType.values),
  hoa: fc.boolean(),
};

/** Some facts set right (null clears one, also valid). */
const validFacts: fc.Arbitrary<Record<string, unknown>> = fc.record(
  Object.fromEntries(FACT_NAMES.map((name) => [name, fc.option(validValue[name], { nil: null })])),
  { requiredKeys: [] },
);

export const validCondition = fc
  .constantFrom(...FACT_NAMES)
  .chain((fact) =>
    fc
      .constantFrom(...OPS_OF_KIND[FACTS[fact].kind])
      .chain((op) =>
        (op === 'in'
          ? fc.array(validValue[fact], { minLength: 1, maxLength: 20 })
          : (validValue[fact] as fc.Arbitrary<unknown>)
        ).map((value) => ({ fact, op, value })),
      ),
  );

export const validWhen = fc.array(validCondition, { minLength: 1, maxLength: 10 });

// --- Wrong values ---

/** Numbers that JSON carries but no count or year is: fractions, Infinity (1e999), beyond 2^53. */
export const HUGE = ['1e999', '-1e999', '123456789012345678901234567890', '9007199254740993.5'].map(
  (text) => new RawJson(text),
);
/** Strings that look like numbers or words to a lenient parser. */
const NUMBER_LIKE = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e3',
  '0x10',
  '1965',
  ' 1965',
  '1_965',
  '',
  '-0',
  'null',
];
export const SHAPES: unknown[] = [[], [1965], {}, { value: 1965 }, { $gt: 1 }, { eq: true }, [[[]]]];
export const hostileStrings = fc.oneof(
  fc.constantFrom(
    ...NUMBER_LIKE,
    'true',
    'false',
    'yes',
    'FHA',
    'Condo',
    ' fha',
    'fha ',
    'a\u0000b',
    '\ud800',
  ),
  fc.string({ maxLength: 30 }),
);

export const wrongNumber = (min: number, max: number, nullOk: boolean): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.integer({ min: Number.MIN_SAFE_INTEGER, max: min - 1 }),
    fc.integer({ min: max + 1, max: Number.MAX_SAFE_INTEGER }),
    fc.double({ min, max, noNaN: true }).filter((n) => !Number.isInteger(n)),
    fc.constantFrom(...HUGE, 1e308, -1e308, 2 ** 53 + 2, min - 0.5, max + 0.5),
    hostileStrings,
    fc.constantFrom(true, false, ...SHAPES, ...(nullOk ? [] : [null])),
  );

const wrongChoice = (values: readonly string[], nullOk: boolean): fc.Arbitrary<unknown> =>
  fc.oneof(
    hostileStrings.filter((text) => !values.includes(text)),
    fc.constantFrom(...values).map((value) => value.toUpperCase()),
    fc.constantFrom(...values).map((value) => [value]),
    fc.constantFrom(0, 1, true, false, ...HUGE, ...SHAPES, ...(nullOk ? [] : [null])),
  );

const wrongBoolean = (nullOk: boolean): fc.Arbitrary<unknown> =>
  fc.oneof(
    hostileStrings,
    fc.constantFrom(0, 1, -1, ...HUGE, [true], { value: true }, ...SHAPES, ...(nullOk ? [] : [null])),
  );

/** A value the fact never takes; in a body null clears a fact, in a rule it is wrong too. */
export function wrongValue(fact: FactName, nullOk: boolean): fc.Arbitrary<unknown> {
  if (fact === 'salePriceCents') return wrongNumber(0, SALE_PRICE_MAX_CENTS, nullOk);
  if (fact === 'yearBuilt') return wrongNumber(YEAR_BUILT_MIN, YEAR_BUILT_MAX, nullOk);
  if (fact === 'hoa') return wrongBoolean(nullOk);
  return wrongChoice(FACTS[fact].values, nullOk);
}

/** Names that are no fact: near misses, inherited names of every object, anything. */
export const unknownFactName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'bedrooms',
    'YearBuilt',
    'year_built',
    'sale_price_cents',
    'HOA',
    'hoa ',
    ' hoa',
    '',
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'isPrototypeOf',
    '__defineGetter__',
    'prototype',
    'isAdmin',
    'facts',
    'userId',
    'closedAt',
    'checklistRules',
  ),
  fc.string({ maxLength: 20 }).filter((name) => !(FACT_NAMES as string[]).includes(name)),
);

// --- facts in a transaction body ---

/** `facts` that must be refused, and the names its answer must carry (when they can be read). */
export type BadFacts = { facts: unknown; names: string[] };

const oneWrongFact: fc.Arbitrary<BadFacts> = fc
  .tuple(validFacts, fc.constantFrom(...FACT_NAMES))
  .chain(([valid, fact]) =>
    wrongValue(fact, true).map((value) => {
      const facts = { ...valid };
      setOwn(facts, fact, value);
      return { facts, names: plainText(value) ? [fact] : [] };
    }),
  );

const unknownFact: fc.Arbitrary<BadFacts> = fc
  .tuple(validFacts, unknownFactName, fc.jsonValue({ maxDepth: 2 }))
  .map(([valid, name, value]) => {
    const facts = { ...valid };
    setOwn(facts, name, value);
    // Fastify refuses a body holding __proto__ anywhere, before anything reads it.
    const proto = name === '__proto__' || JSON.stringify(value ?? null).includes('"__proto__"');
    return { facts, names: plainText(name) && plainText(value) && !proto ? [name] : [] };
  });

const notAnObject: fc.Arbitrary<BadFacts> = fc
  .oneof(
    fc.constantFrom<unknown>(null, 'hoa=true', '', 0, true, [], [{ hoa: true }], ...HUGE),
    validFacts.map((facts) => ({ facts })),
    validFacts.map((facts) => [facts]),
    validFacts.map((facts) => JSON.stringify(facts)),
  )
  .map((facts) => ({ facts, names: [] }));

/** Facts nested a level too deep: `{"yearBuilt": {"yearBuilt": 1965}}`. */
const nested: fc.Arbitrary<BadFacts> = fc
  .tuple(fc.constantFrom(...FACT_NAMES), validFacts)
  .map(([fact, inner]) => ({ facts: { [fact]: { ...inner, [fact]: null } }, names: [fact] }));

export const badFacts: fc.Arbitrary<BadFacts> = fc.oneof(
  { weight: 6, arbitrary: oneWrongFact },
  { weight: 3, arbitrary: unknownFact },
  { weight: 1, arbitrary: notAnObject },
  { weight: 1, arbitrary: nested },
);
