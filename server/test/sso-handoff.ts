import type { Db } from '../db/client';
import { handOff } from '../services/sign-in/oidc-handoff';

/**
 * A one-time code of single sign-on for a user, as a finished callback leaves it, without a
 * provider: for the suites that call every path (authorization matrix, fuzz, OpenAPI).
 */
export async function ssoHandoffCode(db: Db, userId: string, now = new Date()): Promise<string> {
  const location = await db.$transaction((tx) => handOff(tx, now, { userId, secondFactor: null }, null));
  return new URLSearchParams(location.split('#')[1]).get('code') ?? '';
}
