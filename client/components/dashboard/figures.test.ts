import { describe, expect, it } from 'vitest';
import {
  customRangeErrors,
  durationText,
  inputOfRange,
  monthLabel,
  percentText,
  rangeFromSearch,
  rangeMessages,
  searchOfRange,
} from './figures';

describe('durationText', () => {
  it.each([
    [null, 'No data'],
    [0, 'under 1 min'],
    [59, 'under 1 min'],
    [60, '1 min'],
    [45 * 60 + 59, '45 min'],
    [3_600, '1 h'],
    [3 * 3_600 + 20 * 60, '3 h 20 min'],
    [86_400, '1 d'],
    [2 * 86_400 + 4 * 3_600 + 59 * 60, '2 d 4 h'],
  ])('%s s -> %s', (seconds, text) => {
    expect(durationText(seconds)).toBe(text);
  });
});

describe('figures as text', () => {
  it('writes shares as percentages, and months by name', () => {
    expect(percentText(0.125)).toBe('12.5%');
    expect(percentText(1)).toBe('100%');
    expect(percentText(null)).toBe('No data');
    expect(monthLabel('2026-11')).toBe('Nov 2026');
  });
});

describe('the range in the address', () => {
  it('reads presets and custom ranges, and falls back to 30 days', () => {
    expect(rangeFromSearch('')).toEqual({ kind: 'preset', days: 30 });
    expect(rangeFromSearch('range=7')).toEqual({ kind: 'preset', days: 7 });
    expect(rangeFromSearch('range=90')).toEqual({ kind: 'preset', days: 90 });
    expect(rangeFromSearch('range=13')).toEqual({ kind: 'preset', days: 30 });
    expect(rangeFromSearch('from=2026-01-01&to=2026-01-31')).toEqual({
      kind: 'custom',
      from: '2026-01-01',
      to: '2026-01-31',
    });
    // Reversed is still a range the server gets to refuse, with its own message.
    expect(rangeFromSearch('from=2026-02-01&to=2026-01-01').kind).toBe('custom');
    // Not days at all: the default.
    expect(rangeFromSearch('from=2026-02-30&to=2026-03-01')).toEqual({ kind: 'preset', days: 30 });
    expect(rangeFromSearch('from=yesterday&to=today')).toEqual({ kind: 'preset', days: 30 });
  });

  it('writes what it reads', () => {
    for (const search of ['range=7', 'range=30', 'from=2026-01-01&to=2026-01-31'])
      expect(searchOfRange(rangeFromSearch(search))).toBe(search);
  });

  it('asks for whole days ending today for a preset', () => {
    expect(inputOfRange({ kind: 'preset', days: 7 }, '2026-03-02')).toEqual({
      from: '2026-02-24',
      to: '2026-03-02',
    });
    expect(inputOfRange({ kind: 'custom', from: '2026-01-01', to: '2026-01-02' })).toEqual({
      from: '2026-01-01',
      to: '2026-01-02',
    });
  });
});

describe('customRangeErrors', () => {
  it('needs both days, in order, at most 400 days apart', () => {
    expect(customRangeErrors(null, null)).toEqual({
      from: rangeMessages.fromRequired,
      to: rangeMessages.toRequired,
    });
    expect(customRangeErrors('2026-02-01', '2026-01-31')).toEqual({ to: rangeMessages.reversed });
    expect(customRangeErrors('2026-01-01', '2026-01-01')).toEqual({});
    // 400 days inclusive is the most the server takes; 401 is one too many.
    expect(customRangeErrors('2025-01-01', '2026-02-04')).toEqual({});
    expect(customRangeErrors('2025-01-01', '2026-02-05')).toEqual({ to: rangeMessages.tooLong });
  });
});
