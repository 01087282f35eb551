import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { ROLES } from '../../shared/constants';

/**
 * Short-lived access tokens: HS256, 15 minutes, claims `sub` and `role`,
 * plus `ver` (the user's tokenVersion) so a password change ends older tokens at once, and `off`
 * (the user's office when it was issued, absent for none), which lets a list's own statement
 * confirm an office member's session (services/sessions.ts); it grants nothing by itself; and
 * `mfa`, how the session's sign-in proved a second factor (absent: it did not).
 * Only HS256 is accepted: `alg: none` and every other algorithm are refused by jose.
 */

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/** How a sign-in proved a second factor: a code, a recovery code, a passkey, or the identity provider. */
export const SECOND_FACTORS = ['totp', 'recovery', 'passkey', 'sso'] as const;
export type SecondFactor = (typeof SECOND_FACTORS)[number];

const claimsSchema = z.object({
  sub: z.uuid(),
  role: z.enum(ROLES),
  ver: z.number().int().min(0),
  off: z.uuid().optional(),
  mfa: z.enum(SECOND_FACTORS).optional(),
});
export type AccessClaims = z.infer<typeof claimsSchema>;

/**
 * The secret as a WebCrypto HMAC key, imported once per secret: importing it again for every
 * token (what passing the raw bytes to jose does) costs about 5 times the verification itself,
 * on every authenticated request.
 */
const keys = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    keys.set(secret, key);
  }
  return key;
}

export async function signAccessToken(claims: AccessClaims, secret: string, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const payload = {
    role: claims.role,
    ver: claims.ver,
    ...(claims.off === undefined ? {} : { off: claims.off }),
    ...(claims.mfa === undefined ? {} : { mfa: claims.mfa }),
  };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
    .sign(await hmacKey(secret));
}

/**
 * Tokens whose signature and claims were verified, kept until they expire. A signed-in client
 * sends the same token with every request for 15 minutes; checking its HMAC again each time
 * would give the same answer at a cost that shows on every request. Only the exact string
 * verified before is found here (anything altered is verified afresh), under the secret it was
 * verified with; its time claims are checked against the caller's `now` on every use (the cache's
 * TTL runs on the process's clock and only frees the memory), and the user behind it is still
 * loaded on every call.
 */
type Remembered = { claims: AccessClaims; notBefore: number; expires: number };
const MAX_REMEMBERED = 10_000;
const verified = new Map<string, LRUCache<string, Remembered>>();

function remembered(secret: string, token: string, now: Date): AccessClaims | null | undefined {
  const entry = verified.get(secret)?.get(token);
  if (!entry) return undefined;
  const seconds = Math.floor(now.getTime() / 1000);
  // jose's rules: not yet valid while nbf > now; expired once exp <= now.
  if (entry.notBefore > seconds) return null;
  if (entry.expires <= seconds) {
    verified.get(secret)?.delete(token);
    return null;
  }
  return entry.claims;
}

function remember(secret: string, token: string, entry: Remembered, now: Date): void {
  let tokens = verified.get(secret);
  if (!tokens) {
    tokens = new LRUCache({ max: MAX_REMEMBERED });
    verified.set(secret, tokens);
  }
  tokens.set(token, entry, { ttl: entry.expires * 1000 - now.getTime() });
}

/** The claims of a valid token, or null for anything else (expired, tampered, malformed). */
export async function verifyAccessToken(
  token: string,
  secret: string,
  now: Date,
): Promise<AccessClaims | null> {
  const known = remembered(secret, token, now);
  if (known !== undefined) return known;
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), {
      algorithms: ['HS256'],
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const parsed = claimsSchema.safeParse(payload);
    if (!parsed.success) return null;
    // Shared by every request that brings this token: nobody may change it.
    const claims = Object.freeze(parsed.data);
    const entry = {
      claims,
      notBefore: typeof payload.nbf === 'number' ? payload.nbf : Number.NEGATIVE_INFINITY,
      expires: payload.exp ?? 0, // present: requiredClaims
    };
    remember(secret, token, entry, now);
    return claims;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}
