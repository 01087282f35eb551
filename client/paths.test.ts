import { describe, expect, it } from 'vitest';
import { decodeParam, isVerificationType, routeTo } from './paths';

describe('paths', () => {
  it('encodes what would break a path segment, and decodes it back', () => {
    const email = 'dana+1/x?y#z@example.com';
    const path = routeTo.verification('register', email);
    expect(path).toBe('/auth/verification/register/dana%2B1%2Fx%3Fy%23z%40example.com');
    expect(decodeParam(path.split('/').at(-1))).toBe(email);
  });

  it('shows a malformed escape as it stands instead of throwing', () => {
    expect(decodeParam('100%')).toBe('100%');
    expect(decodeParam(undefined)).toBe('');
  });

  it('knows the two verification types', () => {
    expect(isVerificationType('register')).toBe(true);
    expect(isVerificationType('reset')).toBe(true);
    expect(isVerificationType('other')).toBe(false);
    expect(isVerificationType(undefined)).toBe(false);
  });
});
