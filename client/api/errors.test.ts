import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { trpcError } from '../test-utils/trpc-stub';
import { missingItemsOf } from './errors';

describe('the lists a refusal carries', () => {
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
});
