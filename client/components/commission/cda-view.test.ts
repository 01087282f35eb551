import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { trpcError } from '../../test-utils/trpc-stub';
import { localDay, missingItemsOf, paidAtOf, shortHash } from './cda-view';

describe('CDA helpers', () => {
  it('shortens a hash to its ends', () => {
    const hash = `${'a'.repeat(8)}${'0'.repeat(48)}${'b'.repeat(8)}`;
    expect(shortHash(hash)).toBe('aaaaaaaa…bbbbbbbb');
  });

  it('reads the missing items a refusal names, and nothing of another failure', () => {
    const refused = TRPCClientError.from({
      error: {
        code: -32009,
        message: 'This transaction is not compliant yet: 2 required documents are not accepted',
        data: {
          httpStatus: 409,
          missing: [
            { formId: 'f1', label: 'Purchase Agreement' },
            { formId: 'f2', label: 'Agency Disclosure' },
            { formId: 3, label: 'not an item' },
          ],
        },
      },
    });
    expect(missingItemsOf(refused)).toEqual([
      { formId: 'f1', label: 'Purchase Agreement' },
      { formId: 'f2', label: 'Agency Disclosure' },
    ]);
    expect(missingItemsOf(trpcError(409, 'Set the commission first'))).toEqual([]);
    expect(missingItemsOf(new Error('offline'))).toEqual([]);
  });

  it('leaves today to the server and ends an earlier day in the browser’s zone', () => {
    const now = new Date(2026, 11, 3, 9, 30);
    expect(localDay(now)).toBe('2026-12-03');
    expect(paidAtOf('2026-12-03', now)).toBeUndefined();
    expect(paidAtOf('2026-11-30', now)).toBe(new Date(2026, 10, 30, 23, 59, 59).toISOString());
  });
});
