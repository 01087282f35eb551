import { describe, expect, it } from 'vitest';
import { parseRangeHeader, resolveRange } from './byte-ranges';

describe('parseRangeHeader', () => {
  it('reads the three forms of one byte range', () => {
    expect(parseRangeHeader('bytes=0-65535')).toEqual({ first: 0, last: 65535 });
    expect(parseRangeHeader('bytes=100-')).toEqual({ first: 100, last: undefined });
    expect(parseRangeHeader('bytes=-500')).toEqual({ suffix: 500 });
    // The unit is case-insensitive, and the list syntax allows spaces and empty elements.
    expect(parseRangeHeader('Bytes= 7-7 ,')).toEqual({ first: 7, last: 7 });
  });

  it('ignores (null) what is absent, not one byte range, or not a range at all', () => {
    for (const header of [
      undefined,
      '',
      'bytes',
      'bytes=',
      'bytes=-',
      'bytes=0-1,5-6',
      'bytes=-1,0-',
      'items=0-5',
      'bytes 0-5',
      'bytes=5-4',
      'bytes=a-b',
      'bytes=1-2-3',
      'bytes=0x10-20',
      'bytes=1.5-2',
      'bytes=+1-2',
      'bytes=-+1',
      'bytes=1 -2',
      '=0-5',
    ]) {
      expect(parseRangeHeader(header), String(header)).toBeNull();
    }
  });

  it('takes positions longer than any file without failing: they are past its end', () => {
    const huge = '9'.repeat(400);
    expect(parseRangeHeader(`bytes=${huge}-`)).toEqual({ first: Infinity, last: undefined });
    expect(resolveRange({ first: Infinity, last: undefined }, 10)).toBe('unsatisfiable');
    expect(resolveRange({ first: 2, last: Number(huge) }, 10)).toEqual({ start: 2, end: 9 });
    expect(resolveRange({ suffix: Number(huge) }, 10)).toEqual({ start: 0, end: 9 });
  });
});

describe('resolveRange', () => {
  it('names the bytes within the file, stopping at its end', () => {
    expect(resolveRange({ first: 0, last: 0 }, 10)).toEqual({ start: 0, end: 0 });
    expect(resolveRange({ first: 3, last: 5 }, 10)).toEqual({ start: 3, end: 5 });
    expect(resolveRange({ first: 3, last: 50 }, 10)).toEqual({ start: 3, end: 9 });
    expect(resolveRange({ first: 9, last: undefined }, 10)).toEqual({ start: 9, end: 9 });
    expect(resolveRange({ suffix: 4 }, 10)).toEqual({ start: 6, end: 9 });
    expect(resolveRange({ suffix: 10 }, 10)).toEqual({ start: 0, end: 9 });
  });

  it('is unsatisfiable when it names no byte of the file', () => {
    expect(resolveRange({ first: 10, last: undefined }, 10)).toBe('unsatisfiable');
    expect(resolveRange({ first: 10, last: 20 }, 10)).toBe('unsatisfiable');
    expect(resolveRange({ suffix: 0 }, 10)).toBe('unsatisfiable');
    expect(resolveRange({ first: 0, last: undefined }, 0)).toBe('unsatisfiable');
    expect(resolveRange({ suffix: 5 }, 0)).toBe('unsatisfiable');
  });
});
