import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX } from '../../shared/schemas/api-keys';

/**
 * The shape of an API key: `bpk_<id>_<secret>`. The id (a uuid, 32 hex digits)
 * finds the row in one primary-key lookup; the secret (32 random bytes, base64url) is kept only as
 * its SHA-256 and compared in constant time. A fast hash is right here, unlike for passwords: the
 * secret has 256 bits of entropy, so there is nothing to guess from the hash.
 */

export type ParsedApiKey = { id: string; secret: string };

const KEY_SHAPE = /^bpk_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export function isApiKeyToken(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

export function newApiKey(): { id: string; secret: string; key: string } {
  const id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  return { id, secret, key: `${API_KEY_PREFIX}${id.replaceAll('-', '')}_${secret}` };
}

/** The id and secret of a well-formed key, or null. */
export function parseApiKey(token: string): ParsedApiKey | null {
  const match = KEY_SHAPE.exec(token);
  if (!match?.[1] || !match[2]) return null;
  const hex = match[1];
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { id, secret: match[2] };
}

export function hashApiKeySecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Compared in constant time; a missing row is compared against a dummy, so both take as long. */
export function apiKeySecretMatches(secret: string, storedHash: Buffer | null): boolean {
  const given = hashApiKeySecret(secret);
  const expected = storedHash && storedHash.length === given.length ? storedHash : DUMMY_HASH;
  return timingSafeEqual(given, expected) && expected !== DUMMY_HASH;
}

const DUMMY_HASH = createHash('sha256').update('no such key', 'utf8').digest();
