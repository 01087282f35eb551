import { hashSecretToken, newSecretToken } from '../../security/secret-tokens';
import { codeAt, newTotpSecret, totpSealer } from '../../services/sign-in/totp-codes';
import { TEST_JWT_SECRET } from '../test-config';
import { type ActorName, clock, database, freshAgent, world } from './world';

/**
 * Two-factor sign-in's targets of the matrix: each cell sets the actor's own authenticator to
 * what its call needs (none, pending with a known secret, on), so every cell sends a valid input.
 */

const sealed = (secret: string) => totpSealer(TEST_JWT_SECRET).seal(secret);

async function authenticatorFor(userId: string, enabled: boolean): Promise<string> {
  const { secret } = newTotpSecret('matrix');
  const data = { sealedSecret: sealed(secret), enabledAt: enabled ? clock.now() : null, lastUsedStep: null };
  await database.db.totpAuthenticator.upsert({
    where: { userId },
    create: { userId, ...data },
    update: data,
  });
  return secret;
}

/** The actor without an authenticator: a setup is valid. */
export async function withoutTotp(actor: ActorName): Promise<void> {
  if (actor === 'anonymous') return;
  await database.db.totpAuthenticator.deleteMany({ where: { userId: world.users[actor].id } });
}

/** The actor's setup pending, and the code that enables it. */
export async function enablingCode(actor: ActorName): Promise<{ code: string }> {
  if (actor === 'anonymous') return { code: '123456' };
  return { code: codeAt(await authenticatorFor(world.users[actor].id, false), clock.now()) };
}

/** The actor with two-factor sign-in on: turning it off with the password is valid. */
export async function withTotpOn(actor: ActorName): Promise<void> {
  if (actor === 'anonymous') return;
  await authenticatorFor(world.users[actor].id, true);
}

/** A fresh agent's sign-in awaiting its code, and the right code. */
export async function freshChallenge(): Promise<{ challenge: string; code: string }> {
  const agent = await freshAgent();
  const secret = await authenticatorFor(agent.id, true);
  const challenge = newSecretToken();
  await database.db.loginChallenge.create({
    data: {
      userId: agent.id,
      tokenHash: hashSecretToken(challenge),
      expiresAt: new Date(clock.now().getTime() + 60_000),
    },
  });
  return { challenge, code: codeAt(secret, clock.now()) };
}
