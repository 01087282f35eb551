import { describe, expect, it } from 'vitest';
import { centsOfDollars, dollarsText, formatCents, percentOfText } from './money';

describe('dollars typed into cents', () => {
  it('reads commas, a dollar sign and up to two decimals exactly', () => {
    expect(centsOfDollars('1,234.56')).toBe(123456);
    expect(centsOfDollars('$1,234.56')).toBe(123456);
    expect(centsOfDollars('1234.5')).toBe(123450);
    expect(centsOfDollars('1234.')).toBe(123400);
    expect(centsOfDollars('.07')).toBe(7);
    expect(centsOfDollars(' 0 ')).toBe(0);
    expect(centsOfDollars('1,000,000,000')).toBe(100_000_000_000);
  });

  it('is exact where a float is not: 0.29, 4.35 and 1,005.10', () => {
    // 0.29 * 100 is 28.999999999999996 and 4.35 * 100 is 434.99999999999994 as floats.
    expect(centsOfDollars('0.29')).toBe(29);
    expect(centsOfDollars('4.35')).toBe(435);
    expect(centsOfDollars('1,005.10')).toBe(100510);
  });

  it('is null for an empty field', () => {
    expect(centsOfDollars('')).toBeNull();
    expect(centsOfDollars('   ')).toBeNull();
  });

  it('refuses what is no amount', () => {
    for (const text of [
      '12.345',
      '1,23',
      '12,34.5',
      '-5',
      'abc',
      '.',
      '$',
      '1.2.3',
      '1e5',
      '99999999999999999',
    ])
      expect(centsOfDollars(text), text).toBeNaN();
  });
});

describe('percents typed', () => {
  it('reads up to three decimals and an optional percent sign', () => {
    expect(percentOfText('3')).toBe(3);
    expect(percentOfText('2.5%')).toBe(2.5);
    expect(percentOfText('12.345')).toBe(12.345);
    expect(percentOfText('.125')).toBe(0.125);
    expect(percentOfText('')).toBeNull();
  });

  it('refuses a fourth decimal and what is no number', () => {
    for (const text of ['1.2345', 'x', '-1', '.', '1,5']) expect(percentOfText(text), text).toBeNaN();
  });
});

describe('cents shown as dollars', () => {
  it('puts commas in the dollars and always two decimals', () => {
    expect(dollarsText(123456)).toBe('1,234.56');
    expect(dollarsText(5)).toBe('0.05');
    expect(formatCents(100_000_000_00)).toBe('$100,000,000.00');
    expect(formatCents(0)).toBe('$0.00');
  });

  it('reads back as the same cents', () => {
    for (const cents of [0, 1, 99, 100, 123456, 98765432101])
      expect(centsOfDollars(dollarsText(cents))).toBe(cents);
  });
});
