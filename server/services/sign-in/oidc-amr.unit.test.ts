import { describe, expect, it } from 'vitest';
import { secondFactorOfAmr } from './oidc-amr';

describe("an ID token's amr as a second factor", () => {
  it('counts "mfa", and two kinds of factor, as a second factor', () => {
    expect(secondFactorOfAmr(['mfa'])).toBe('sso');
    expect(secondFactorOfAmr(['pwd', 'mfa', 'otp'])).toBe('sso');
    expect(secondFactorOfAmr(['pwd', 'otp'])).toBe('sso');
    expect(secondFactorOfAmr(['hwk', 'pin'])).toBe('sso');
    expect(secondFactorOfAmr(['swk', 'fpt'])).toBe('sso');
  });

  it('counts one kind, nothing, or anything unknown as one factor', () => {
    expect(secondFactorOfAmr(['pwd'])).toBeNull();
    expect(secondFactorOfAmr(['otp'])).toBeNull();
    expect(secondFactorOfAmr(['pwd', 'kba'])).toBeNull();
    expect(secondFactorOfAmr(['hwk', 'user'])).toBeNull();
    expect(secondFactorOfAmr([])).toBeNull();
    expect(secondFactorOfAmr(undefined)).toBeNull();
    expect(secondFactorOfAmr('mfa')).toBeNull();
    expect(secondFactorOfAmr([1, { mfa: true }])).toBeNull();
  });
});
