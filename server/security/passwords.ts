import argon2 from 'argon2';

/**
 * argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane). Tests use tiny parameters so a suite
 * that creates hundreds of users stays fast; the parameters travel inside each hash, so
 * verification works whichever way a hash was made.
 */
const PRODUCTION = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const CHEAP_FOR_TESTS = { type: argon2.argon2id, memoryCost: 1_024, timeCost: 1, parallelism: 1 } as const;

export type PasswordCost = 'production' | 'test';

export function passwordCostFor(env: string): PasswordCost {
  return env === 'test' ? 'test' : 'production';
}

export function hashPassword(password: string, cost: PasswordCost = 'production'): Promise<string> {
  return argon2.hash(password, cost === 'test' ? CHEAP_FOR_TESTS : PRODUCTION);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false; // a malformed stored hash is a failed sign-in, not a 500
  }
}

/**
 * What the app uses to hash and check passwords, passed in through AppDeps so a test can count
 * the (real) argon2 calls a request made, e.g. to prove a rate-limited sign-in hashed nothing.
 */
export type PasswordHasher = {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /**
   * Spends the time a real check would, for an account that does not exist, so an unknown
   * e-mail answers no faster than a wrong password.
   */
  verifyAgainstNothing(password: string): Promise<false>;
};

export function createPasswordHasher(cost: PasswordCost): PasswordHasher {
  // Made with the same parameters as real hashes, so verifying against it costs the same; made
  // at once, so not even the first unknown address answers slower than the others.
  const decoy = hashPassword('decoy password never assigned to anyone', cost);
  return {
    hash: (password) => hashPassword(password, cost),
    verify: verifyPassword,
    async verifyAgainstNothing(password) {
      await verifyPassword(await decoy, password);
      return false;
    },
  };
}
