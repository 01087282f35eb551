import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { createSealer, type Sealer } from '../../security/sealing';

/**
 * The arithmetic of authenticator codes and recovery codes, with no database: RFC 6238 codes
 * (SHA-1, 6 digits, 30 s, the parameters every authenticator app reads from an otpauth URL),
 * checked one step either side of now, and the sealing of the shared secret.
 */

export const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one: a clock a little off, a code typed late. */
const TOTP_WINDOW = 1;
const ISSUER = 'Brokerage Portal';

function totpOf(secretBase32: string, label = 'account'): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new shared secret (160 bits, RFC 4226's recommended length) and the URL apps scan. */
export function newTotpSecret(accountLabel: string): { secret: string; otpauthUrl: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUrl: totpOf(secret, accountLabel).toString() };
}

/** The time step `now` falls in. */
export function stepAt(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/**
 * The time step whose code `code` is, within the window around `now`, or null. The caller
 * refuses a step at or before the last one used, so a code works once.
 */
export function matchingStep(secretBase32: string, code: string, now: Date): number | null {
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : stepAt(now) + delta;
}

/** The code of a step (tests and the decoy check). */
export function codeAt(secretBase32: string, at: Date): string {
  return totpOf(secretBase32).generate({ timestamp: at.getTime() });
}

const sealers = new Map<string, Sealer>();
/** The secrets' own key (HKDF from JWT_SECRET, a purpose of its own): a database copy holds no usable secret. */
export function totpSealer(jwtSecret: string): Sealer {
  let sealer = sealers.get(jwtSecret);
  if (!sealer) {
    sealer = createSealer(jwtSecret, 'totp-secret-v1');
    sealers.set(jwtSecret, sealer);
  }
  return sealer;
}

/**
 * The secret of a sealed value, or null when it cannot be opened: sealed under another JWT_SECRET
 * (rotated since) or damaged. The code step then refuses the code like a wrong one, never a 500;
 * recovery codes, hashed rather than sealed, still work.
 */
export function openTotpSecret(jwtSecret: string, sealed: string): string | null {
  try {
    return totpSealer(jwtSecret).open(sealed);
  } catch {
    return null;
  }
}

const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * A recovery code: 120 random bits as 24 base32 letters and digits in groups of four. With that
 * much entropy a plain SHA-256 stores it safely (nothing to brute-force), and a code is found by
 * its hash in one indexed lookup.
 */
export function newRecoveryCode(): string {
  const bytes = randomBytes(15);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += RECOVERY_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{4}/g)?.join('-') ?? out;
}

/** A code as typed, without case, spaces or dashes. */
export function normalizeRecoveryCode(typed: string): string {
  return typed.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function hashRecoveryCode(typed: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(typed), 'utf8').digest('hex');
}
