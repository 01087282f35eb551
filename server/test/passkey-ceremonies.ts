import type { FastifyInstance } from 'fastify';
import {
  type AssertionOptions,
  assert,
  b64url,
  createCredential,
  type SoftwareCredential,
} from './software-authenticator';

/**
 * Passkey ceremonies over the REST paths, with the software authenticator in the browser's
 * place: what a test needs to add a passkey and sign in with it in one line each.
 */

export type Page = { rpId: string; origin: string };

function post(app: FastifyInstance, url: string, payload: unknown, token?: string) {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

/** Asks for registration options and answers them with a new credential (not yet sent back). */
export async function startRegistration(app: FastifyInstance, token: string, page: Page) {
  const options = await post(app, '/api/auth/passkeys/register/options', {}, token);
  if (options.statusCode !== 200)
    throw new Error(`register/options answered ${options.statusCode}: ${options.body}`);
  const { challenge, user } = options.json() as { challenge: string; user: { id: string } };
  return createCredential({ ...page, challenge, userHandle: user.id });
}

/** Adds a passkey to the signed-in user's account; the credential signs in later. */
export async function registerPasskey(
  app: FastifyInstance,
  token: string,
  page: Page,
  name = 'Test key',
): Promise<{ credential: SoftwareCredential; id: string }> {
  const { credential, response } = await startRegistration(app, token, page);
  const verified = await post(app, '/api/auth/passkeys/register/verify', { response, name }, token);
  if (verified.statusCode !== 201)
    throw new Error(`register/verify answered ${verified.statusCode}: ${verified.body}`);
  return { credential, id: (verified.json() as { _id: string })._id };
}

/** Asks for sign-in options: the challenge and its id. */
export async function loginChallenge(
  app: FastifyInstance,
): Promise<{ challengeId: string; challenge: string }> {
  const answer = await post(app, '/api/auth/passkeys/login/options', {});
  if (answer.statusCode !== 200)
    throw new Error(`login/options answered ${answer.statusCode}: ${answer.body}`);
  const { challengeId, options } = answer.json() as { challengeId: string; options: { challenge: string } };
  return { challengeId, challenge: options.challenge };
}

/** A full passkey sign-in attempt: options, an assertion for `page`, verify. */
export async function signInWithPasskey(
  app: FastifyInstance,
  credential: SoftwareCredential,
  page: Page,
  options: AssertionOptions = {},
) {
  const { challengeId, challenge } = await loginChallenge(app);
  const response = assert(credential, { ...page, challenge }, options);
  return post(app, '/api/auth/passkeys/login/verify', { challengeId, response });
}

export { assert, b64url, post };
