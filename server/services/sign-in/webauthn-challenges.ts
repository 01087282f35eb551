import type { Db, Tx } from '../../db/client';

/**
 * The challenges of passkey ceremonies, kept in PostgreSQL: the answer may reach any instance
 * behind the load balancer, not only the one that handed the challenge out. Each is single use
 * (the first answer deletes it, whether or not it then verifies) and short-lived; expired ones
 * are swept whenever a new one is stored, so the table holds the last few minutes' at most.
 */

/** As long as a browser's passkey prompt may stay open, and a little more. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export type ChallengePurpose = 'register' | 'login';

export async function storeChallenge(
  db: Db | Tx,
  now: Date,
  entry: { purpose: ChallengePurpose; challenge: string; userId: string | null },
): Promise<string> {
  await db.webauthnChallenge.deleteMany({ where: { expiresAt: { lte: now } } });
  const row = await db.webauthnChallenge.create({
    data: { ...entry, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) },
    select: { id: true },
  });
  return row.id;
}

/**
 * Takes the challenge out of the store: its text when it was there, unexpired, for this purpose
 * (and this user, when adding a passkey). Of two answers to one challenge only one gets it.
 */
export async function takeChallenge(
  db: Db | Tx,
  now: Date,
  where: { id: string; purpose: 'login' } | { challenge: string; purpose: 'register'; userId: string },
): Promise<string | null> {
  const row = await db.webauthnChallenge.findFirst({
    where,
    select: { id: true, challenge: true, expiresAt: true },
  });
  if (!row) return null;
  const taken = await db.webauthnChallenge.deleteMany({ where: { id: row.id } });
  return taken.count === 1 && row.expiresAt > now ? row.challenge : null;
}
