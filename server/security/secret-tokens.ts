import { createHash, randomBytes } from 'node:crypto';

/**
 * Opaque secrets we hand out (refresh tokens, e-mailed links): 32 random bytes, base64url.
 * Only their SHA-256 is stored, so a copy of the database cannot be replayed as a session or a
 * link. A fast hash is right here: the input has 256 bits of entropy, nothing to brute-force.
 */

export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
