import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { assert, b64url, createCredential } from './software-authenticator';

/**
 * The fuzzer's passkey targets: a passkey of the agent's (renamed and removed by the samples), and
 * genuine answers of the software authenticator to challenges that were never handed out, so the
 * samples are well-formed, every bent copy is refused, and none of them spends a stored challenge.
 */

const PAGE = { rpId: 'localhost', origin: 'http://localhost:3000' };

export type PasskeySamples = {
  passkeyId: string;
  registration: unknown;
  login: { challengeId: string; response: unknown };
};

export async function fuzzPasskeys(db: Db, userId: string): Promise<PasskeySamples> {
  const userHandle = b64url(userId);
  const stored = createCredential({ ...PAGE, challenge: b64url(randomBytes(32)), userHandle });
  const row = await db.passkey.create({
    data: {
      userId,
      credentialId: stored.credential.id,
      publicKey: new Uint8Array(stored.credential.cosePublicKey),
      counter: 0n,
      name: 'Fuzz key',
      deviceType: 'multiDevice',
    },
  });
  const fresh = createCredential({ ...PAGE, challenge: b64url(randomBytes(32)), userHandle });
  return {
    passkeyId: row.id,
    registration: fresh.response,
    login: {
      challengeId: randomUUID(),
      response: assert(stored.credential, { ...PAGE, challenge: b64url(randomBytes(32)) }),
    },
  };
}
