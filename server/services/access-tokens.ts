import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { ROLES } from '../../shared/constants';

/**
 * Short-lived access tokens (DESIGN.md section 4): HS256, 15 minutes, claims `sub` and `role`,
 * plus `ver` (the user's tokenVersion) so a password change ends older tokens at once.
 * Only HS256 is accepted: `alg: none` and every other algorithm are refused by jose.
 */

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

const claimsSchema = z.object({
  sub: z.uuid(),
  role: z.enum(ROLES),
  ver: z.number().int().min(0),
});
export type AccessClaims = z.infer<typeof claimsSchema>;

const encoder = new TextEncoder();

export async function signAccessToken(claims: AccessClaims, secret: string, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ role: claims.role, ver: claims.ver })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
    .sign(encoder.encode(secret));
}

/** The claims of a valid token, or null for anything else (expired, tampered, malformed). */
export async function verifyAccessToken(
  token: string,
  secret: string,
  now: Date,
): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secret), {
      algorithms: ['HS256'],
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const parsed = claimsSchema.safeParse(payload);
    return parsed.success ? parsed.data : null;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}
