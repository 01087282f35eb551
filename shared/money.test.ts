import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCents } from './money';

describe('formatCents', () => {
  it('writes dollars with thousands separators and two decimals', () => {
    expect(formatCents(895_000)).toBe('$8,950.00');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(7)).toBe('$0.07');
    expect(formatCents(123_456_789_01)).toBe('$123,456,789.01');
    expect(formatCents(-1_050)).toBe('-$10.50');
    // 2^53 - 1 cents: divided as a float of dollars it would round its cents away.
    expect(formatCents(Number.MAX_SAFE_INTEGER)).toBe('$90,071,992,547,409.91');
  });

  it('reads back as the same cents for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        const digits = formatCents(cents).replace(/[$,.]/g, '');
        expect(BigInt(digits)).toBe(BigInt(cents));
      }),
    );
  });
});
