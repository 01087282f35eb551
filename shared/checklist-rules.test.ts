import { describe, expect, it } from 'vitest';
import { allHold, conditionInWords, holds, requiredBecause, ruleInWords } from './checklist-rules';
import { type Condition, NO_FACTS } from './schemas/facts';

const facts = {
  ...NO_FACTS,
  yearBuilt: 1965,
  salePriceCents: 125_000_000,
  financing: 'fha' as const,
  hoa: true,
};

describe('when a condition holds', () => {
  it.each<[Condition, boolean]>([
    [{ fact: 'yearBuilt', op: 'lt', value: 1978 }, true],
    [{ fact: 'yearBuilt', op: 'lt', value: 1965 }, false],
    [{ fact: 'yearBuilt', op: 'lte', value: 1965 }, true],
    [{ fact: 'yearBuilt', op: 'gt', value: 1965 }, false],
    [{ fact: 'yearBuilt', op: 'gte', value: 1965 }, true],
    [{ fact: 'yearBuilt', op: 'eq', value: 1965 }, true],
    [{ fact: 'yearBuilt', op: 'ne', value: 1965 }, false],
    [{ fact: 'yearBuilt', op: 'in', value: [1964, 1965] }, true],
    [{ fact: 'financing', op: 'in', value: ['va', 'cash'] }, false],
    [{ fact: 'hoa', op: 'ne', value: false }, true],
  ])('%j is %s', (condition, expected) => {
    expect(holds(facts, condition)).toBe(expected);
  });

  it('never on a fact not set, whatever the operator', () => {
    for (const op of ['eq', 'ne', 'lt', 'gt'] as const)
      expect(holds(NO_FACTS, { fact: 'yearBuilt', op, value: 1978 })).toBe(false);
    expect(holds(NO_FACTS, { fact: 'hoa', op: 'ne', value: true })).toBe(false);
  });

  it('every condition must hold', () => {
    const when: Condition[] = [
      { fact: 'yearBuilt', op: 'lt', value: 1978 },
      { fact: 'financing', op: 'eq', value: 'va' },
    ];
    expect(allHold(facts, when)).toBe(false);
    expect(allHold({ ...facts, financing: 'va' }, when)).toBe(true);
  });
});

describe('in words', () => {
  it('says why an item is required, naming the facts', () => {
    expect(requiredBecause(facts, [{ fact: 'yearBuilt', op: 'lt', value: 1978 }])).toBe(
      'Year built 1965 is before 1978',
    );
    expect(requiredBecause(facts, [{ fact: 'hoa', op: 'eq', value: true }])).toBe('The property has an HOA');
    expect(requiredBecause(facts, [{ fact: 'financing', op: 'eq', value: 'fha' }])).toBe('Financing is FHA');
    expect(
      requiredBecause(facts, [
        { fact: 'salePriceCents', op: 'gt', value: 100_000_000 },
        { fact: 'financing', op: 'ne', value: 'cash' },
      ]),
    ).toBe('Sale price $1,250,000.00 is over $1,000,000.00 and financing is FHA, not Cash');
  });

  it('says when a template rule applies', () => {
    expect(ruleInWords([{ fact: 'yearBuilt', op: 'lt', value: 1978 }])).toBe(
      'Required when year built is before 1978',
    );
    expect(
      ruleInWords([
        { fact: 'hoa', op: 'eq', value: false },
        { fact: 'propertyType', op: 'in', value: ['condo', 'townhouse'] },
      ]),
    ).toBe('Required when the property has no HOA and property type is one of Condo, Townhouse');
    expect(conditionInWords({ fact: 'salePriceCents', op: 'lte', value: 50_000_000 })).toBe(
      'sale price is $500,000.00 or less',
    );
    expect(conditionInWords({ fact: 'yearBuilt', op: 'gte', value: 2000 })).toBe(
      'year built is 2000 or later',
    );
  });
});
