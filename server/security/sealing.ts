import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/**
 * Secrets at rest and in links that need no table, keyed from JWT_SECRET by HKDF so
 * each purpose has its own key and none is the JWT key itself.
 *
 * - sealing: AES-256-GCM for the queued mails, which may carry a verification or reset link
 *   (a copy of the database then holds no usable link), and for webhook signing secrets (the
 *   server must sign with them, so they cannot be hashed); one key per purpose.
 * - signing: HMAC-SHA256 for the unsubscribe links, valid without signing in.
 */

function keyFor(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'brokerage-portal', purpose, 32));
}

export type Sealer = { seal(plain: string): string; open(sealed: string): string };

export function createSealer(secret: string, purpose = 'mail-outbox-v1'): Sealer {
  const key = keyFor(secret, purpose);
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1.${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== 'v1' || !iv || body === undefined || !tag) throw new Error('not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

const sealers = new Map<string, Sealer>();
/** One sealer per secret, made once (deriving the key is not free). */
export function sealerFor(secret: string): Sealer {
  let sealer = sealers.get(secret);
  if (!sealer) {
    sealer = createSealer(secret);
    sealers.set(secret, sealer);
  }
  return sealer;
}

/** `<payload>.<mac>`, payload base64url: for links that carry what they are about. */
export function signValue(secret: string, purpose: string, value: string): string {
  const payload = Buffer.from(value, 'utf8').toString('base64url');
  const mac = createHmac('sha256', keyFor(secret, purpose)).update(payload).digest('base64url');
  return `${payload}.${mac}`;
}

/** The value of a signed token, or null when it was not made with this secret and purpose. */
export function verifySigned(secret: string, purpose: string, token: string): string | null {
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined) return null;
  const expected = createHmac('sha256', keyFor(secret, purpose)).update(payload).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  // Only the one spelling we issue: base64url's last character of 32 bytes carries 2 spare bits,
  // and the decoder ignores them, so 'x...A' and 'x...B' could decode to the same MAC. The same
  // holds for the payload. (Compared after the MAC: nothing here depends on the secret.)
  if (given.toString('base64url') !== mac) return null;
  const value = Buffer.from(payload, 'base64url');
  if (value.toString('base64url') !== payload) return null;
  return value.toString('utf8');
}
