import { randomBytes } from 'node:crypto';
import { DEFAULT_PASSWORD } from '../factories';
import { assert, b64url, createCredential, type SoftwareCredential } from '../software-authenticator';
import { A, type ActorName, clock, database, freshAgent, world } from './world';

/**
 * Valid passkey inputs for the matrix's cells: genuine answers of the software authenticator to
 * challenges stored for the cell, so authorization alone decides (testConfig's APP_URL is the page).
 */

const PAGE = { rpId: 'localhost', origin: 'http://localhost:3000' };
const inFiveMinutes = () => new Date(clock.now().getTime() + 5 * 60_000);

/** A registration answer for the actor's own challenge (anonymous: one of A's, never reached). */
export async function passkeyRegistration(actor: ActorName) {
  const userId = actor === 'anonymous' ? A().id : world.users[actor].id;
  const challenge = b64url(randomBytes(32));
  await database.db.webauthnChallenge.create({
    data: { purpose: 'register', userId, challenge, expiresAt: inFiveMinutes() },
  });
  const { response } = createCredential({ ...PAGE, challenge, userHandle: b64url(userId) });
  return { response, name: 'Matrix key' };
}

async function storedPasskey(userId: string): Promise<{ id: string; credential: SoftwareCredential }> {
  const { credential } = createCredential({ ...PAGE, challenge: 'unused', userHandle: b64url(userId) });
  const row = await database.db.passkey.create({
    data: {
      userId,
      credentialId: credential.id,
      publicKey: new Uint8Array(credential.cosePublicKey),
      counter: 0n,
      name: 'Matrix key',
      deviceType: 'multiDevice',
    },
  });
  return { id: row.id, credential };
}

/** A passkey of A's of its own, for a cell that renames or removes one. */
export const freshPasskeyOfA = async () => (await storedPasskey(A().id)).id;

/** The body that removes one of A's passkeys (with the password, in case it is A's last). */
export const passkeyRemoval = async () => ({ id: await freshPasskeyOfA(), password: DEFAULT_PASSWORD });

/** A passkey sign-in of a fresh North agent: a stored challenge and its signed answer. */
export async function passkeySignIn() {
  const { credential } = await storedPasskey((await freshAgent()).id);
  const challenge = b64url(randomBytes(32));
  const { id: challengeId } = await database.db.webauthnChallenge.create({
    data: { purpose: 'login', challenge, expiresAt: inFiveMinutes() },
  });
  return { challengeId, response: assert(credential, { ...PAGE, challenge }) };
}
