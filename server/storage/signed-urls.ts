import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed download links of the local driver: `/files/<key>?exp=<unix seconds>&sig=<hmac>`.
 * HMAC-SHA256 over key and expiry with a key derived from JWT_SECRET, so every instance sharing
 * the secret accepts the links of every other.
 */

export function fileSigningKey(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('file-download-links').digest();
}

function signature(signingKey: Buffer, key: string, expires: number): string {
  return createHmac('sha256', signingKey).update(`${key}\n${expires}`).digest('base64url');
}

export function signFilePath(signingKey: Buffer, key: string, expires: number): string {
  const encodedKey = key.split('/').map(encodeURIComponent).join('/');
  return `/files/${encodedKey}?exp=${expires}&sig=${signature(signingKey, key, expires)}`;
}

export function verifyFileSignature(
  signingKey: Buffer,
  key: string,
  expires: string | undefined,
  sig: string | undefined,
  nowSeconds: number,
): 'ok' | 'expired' | 'invalid' {
  if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return 'invalid';
  const expected = Buffer.from(signature(signingKey, key, Number(expires)));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
  return Number(expires) <= nowSeconds ? 'expired' : 'ok';
}
