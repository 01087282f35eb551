import type { SecondFactor } from '../../security/access-tokens';

/**
 * Whether the provider's sign-in proved more than one factor, read from the ID token's `amr`
 * (Authentication Method Reference values, RFC 8176). The session then counts as having a second
 * factor ('sso'), as a TOTP code or a passkey would: it satisfies the admins' two-factor policy.
 *
 * Exactly: `amr` contains "mfa", or it names methods of at least two of these kinds:
 * - something known: pwd, pin, kba;
 * - something held: otp, sms, tel, hwk, swk, sc, pop;
 * - something the person is: fpt, face, iris, retina, vbm.
 * Anything else (no `amr`, one kind only such as ["pwd"] or ["otp"], or values not listed here)
 * counts as one factor: a provider that does not say it checked more did not, for us.
 */

const KINDS: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['pwd', 'pin', 'kba']),
  new Set(['otp', 'sms', 'tel', 'hwk', 'swk', 'sc', 'pop']),
  new Set(['fpt', 'face', 'iris', 'retina', 'vbm']),
];

export function secondFactorOfAmr(amr: unknown): SecondFactor | null {
  if (!Array.isArray(amr)) return null;
  const methods = amr.filter((value): value is string => typeof value === 'string');
  if (methods.includes('mfa')) return 'sso';
  const kinds = KINDS.filter((kind) => methods.some((method) => kind.has(method))).length;
  return kinds >= 2 ? 'sso' : null;
}
