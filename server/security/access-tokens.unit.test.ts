import { describe, expect, test } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken, verifyAccessToken } from './access-tokens';

/**
 * verifyAccessToken remembers the tokens it has verified (checking the same HMAC on every
 * request cost more than the rest of the check). Remembering must never accept what a fresh
 * verification would refuse: the time claims still apply, and a token is remembered only as the
 * exact string, under the secret it was verified with.
 */

const SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
const OTHER_SECRET = 'another-secret-that-is-also-long-enough-987654';
const claims = { sub: '3f1c1e6a-5b0b-4e0e-9a53-0d3f7a1b2c3d', role: 'user' as const, ver: 2 };
const issued = new Date('2026-11-21T12:00:00.000Z');
const atSecond = (seconds: number) => new Date(issued.getTime() + seconds * 1000);

describe('a remembered token', () => {
  test('is still refused once expired, and before it is valid', async () => {
    const token = await signAccessToken(claims, SECRET, issued);
    expect(await verifyAccessToken(token, SECRET, atSecond(1))).toEqual(claims); // verified and remembered
    expect(await verifyAccessToken(token, SECRET, atSecond(ACCESS_TOKEN_TTL_SECONDS - 1))).toEqual(claims);
    expect(await verifyAccessToken(token, SECRET, atSecond(ACCESS_TOKEN_TTL_SECONDS))).toBeNull();
    expect(await verifyAccessToken(token, SECRET, atSecond(ACCESS_TOKEN_TTL_SECONDS + 60))).toBeNull();
    const later = await signAccessToken(claims, SECRET, atSecond(600));
    expect(await verifyAccessToken(later, SECRET, atSecond(600))).toEqual(claims);
    expect(await verifyAccessToken(later, SECRET, atSecond(599))).toBeNull(); // nbf is in the future
  });

  test('is refused under another secret, and any change to it is verified afresh', async () => {
    const token = await signAccessToken(claims, SECRET, issued);
    expect(await verifyAccessToken(token, SECRET, atSecond(1))).toEqual(claims);
    expect(await verifyAccessToken(token, OTHER_SECRET, atSecond(1))).toBeNull();
    const [header, payload, signature = ''] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'admin', exp: 9_999_999_999 })).toString(
      'base64url',
    );
    expect(await verifyAccessToken(`${header}.${forged}.${signature}`, SECRET, atSecond(1))).toBeNull();
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    expect(await verifyAccessToken(`${header}.${payload}.${flipped}`, SECRET, atSecond(1))).toBeNull();
  });

  test('gives every caller claims nobody can change', async () => {
    const token = await signAccessToken(claims, SECRET, issued);
    const first = await verifyAccessToken(token, SECRET, atSecond(1));
    expect(Object.isFrozen(first)).toBe(true);
    expect(await verifyAccessToken(token, SECRET, atSecond(2))).toEqual(claims);
  });
});
