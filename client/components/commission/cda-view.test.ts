import { describe, expect, it } from 'vitest';
import { localDay, paidAtOf, shortHash } from './cda-view';

describe('CDA helpers', () => {
  it('shortens a hash to its ends', () => {
    const hash = `${'a'.repeat(8)}${'0'.repeat(48)}${'b'.repeat(8)}`;
    expect(shortHash(hash)).toBe('aaaaaaaa…bbbbbbbb');
  });

  it('leaves today to the server and ends an earlier day in the browser’s zone', () => {
    const now = new Date(2026, 11, 3, 9, 30);
    expect(localDay(now)).toBe('2026-12-03');
    expect(paidAtOf('2026-12-03', now)).toBeUndefined();
    expect(paidAtOf('2026-11-30', now)).toBe(new Date(2026, 10, 30, 23, 59, 59).toISOString());
  });
});
