import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './range';
import { partsOf, type RangePart } from './rollups';

/** Every day a part covers, in order: a month part covers each day of its months. */
function daysOf(parts: RangePart[]): string[] {
  return parts.flatMap((part) => {
    const last = part.counts === 'days' ? part.to : addDays(`${addDays(part.to, 31).slice(0, 7)}-01`, -1);
    const days: string[] = [];
    for (let day = part.from; day <= last; day = addDays(day, 1)) days.push(day);
    return days;
  });
}

describe('partsOf: a range as whole months and the days around them', () => {
  it('reads a year as the days before its first whole month, its whole months and the days after', () => {
    expect(partsOf({ from: '2025-12-04', to: '2026-12-03' })).toEqual([
      { counts: 'days', from: '2025-12-04', to: '2025-12-31' },
      { counts: 'months', from: '2026-01-01', to: '2026-11-01' },
      { counts: 'days', from: '2026-12-01', to: '2026-12-03' },
    ]);
  });

  it('reads a range of whole months from the monthly counts alone, February of a leap year included', () => {
    expect(partsOf({ from: '2028-02-01', to: '2028-02-29' })).toEqual([
      { counts: 'months', from: '2028-02-01', to: '2028-02-01' },
    ]);
    expect(partsOf({ from: '2026-01-01', to: '2026-12-31' })).toEqual([
      { counts: 'months', from: '2026-01-01', to: '2026-12-01' },
    ]);
  });

  it('reads a range holding no whole month from the daily counts alone', () => {
    expect(partsOf({ from: '2026-02-02', to: '2026-03-30' })).toEqual([
      { counts: 'days', from: '2026-02-02', to: '2026-03-30' },
    ]);
    expect(partsOf({ from: '2026-11-04', to: '2026-12-03' })).toEqual([
      { counts: 'days', from: '2026-11-04', to: '2026-12-03' },
    ]);
  });

  it('covers every day of any range exactly once, in order', () => {
    const start = Date.parse('2024-01-01T00:00:00Z');
    fc.assert(
      fc.property(fc.nat(1200), fc.nat(400), (offset, length) => {
        const from = new Date(start + offset * 86_400_000).toISOString().slice(0, 10);
        const to = addDays(from, length);
        const expected = Array.from({ length: length + 1 }, (_, n) => addDays(from, n));
        expect(daysOf(partsOf({ from, to }))).toEqual(expected);
      }),
    );
  });
});
