import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { Db } from '../db/client';
import {
  assert,
  b64url,
  type Cbor,
  cbor,
  createCredential,
  type RegistrationResponse,
  type SoftwareCredential,
} from './software-authenticator';

/**
 * Passkey answers that are wrong by construction, for the fuzzer: a genuine answer of the software
 * authenticator to a challenge that was really handed out (so the answer gets past the challenge
 * and reaches @simplewebauthn/server), then one part of it broken: the authenticator data cut,
 * its flags or relying party changed, the signature garbage, the client data not JSON or of the
 * wrong type, origin or challenge, the attestation's CBOR of the wrong shape, a foreign user
 * handle or credential id. Every one must be refused with a 4xx, never a 500.
 */

const PAGE = { rpId: 'localhost', origin: 'http://localhost:3000' };

export type PasskeyPools = {
  /** Sign-in challenges handed out, each answered once at most. */
  login: Array<{ challengeId: string; challenge: string }>;
  /** Registration challenges of the signed-in agent. */
  register: string[];
  /** The agent's stored passkey, which signs the sign-in answers. */
  credential: SoftwareCredential;
  userHandle: string;
};

/** Stores `count` challenges of each kind and a passkey of the user's to answer with. */
export async function passkeyPools(db: Db, userId: string, count: number): Promise<PasskeyPools> {
  const userHandle = b64url(userId);
  const { credential } = createCredential({ ...PAGE, challenge: 'unused', userHandle });
  await db.passkey.create({
    data: {
      userId,
      credentialId: credential.id,
      publicKey: new Uint8Array(credential.cosePublicKey),
      counter: 0n,
      name: 'Fuzz pool key',
      deviceType: 'multiDevice',
    },
  });
  const expiresAt = new Date(Date.now() + 24 * 3_600_000);
  const challenge = () => b64url(randomBytes(32));
  const register = Array.from({ length: count }, challenge);
  await db.webauthnChallenge.createMany({
    data: register.map((text) => ({ purpose: 'register', userId, challenge: text, expiresAt })),
  });
  const loginTexts = Array.from({ length: count }, challenge);
  const rows = await db.webauthnChallenge.createManyAndReturn({
    data: loginTexts.map((text) => ({ purpose: 'login', challenge: text, expiresAt })),
    select: { id: true, challenge: true },
  });
  return {
    login: rows.map((row) => ({ challengeId: row.id, challenge: row.challenge })),
    register,
    credential,
    userHandle,
  };
}

const bytes = (text: string) => Buffer.from(text, 'base64url');
const clientData = (value: unknown) => b64url(JSON.stringify(value));

/** Client data made wrong, for `type` and `challenge`. */
function badClientData(type: string, challenge: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      b64url('not json'),
      b64url(''),
      clientData([type, challenge]),
      clientData(null),
      clientData({ type, challenge: 42, origin: PAGE.origin }),
      clientData({ type, challenge, origin: 'https://evil.example' }),
      clientData({ type, challenge, origin: PAGE.origin, crossOrigin: true }),
      clientData({
        type: type === 'webauthn.get' ? 'webauthn.create' : 'webauthn.get',
        challenge,
        origin: PAGE.origin,
      }),
      clientData({ type, challenge, origin: PAGE.origin, tokenBinding: { status: 'present', id: '' } }),
      clientData({ type, challenge }),
      clientData({ type, challenge: `${challenge}A`, origin: PAGE.origin }),
      clientData({ type, challenge, origin: `${PAGE.origin}/` }),
    ),
    fc.string({ maxLength: 40 }).map((origin) => clientData({ type, challenge, origin })),
  );
}

/** Authenticator data made wrong: cut, flags or relying party changed, junk appended. */
function badAuthenticatorData(data: Buffer): fc.Arbitrary<string> {
  return fc.oneof(
    fc.nat(data.length - 1).map((length) => b64url(data.subarray(0, length))),
    // Other flags than the answer's own: the same byte would leave the answer whole, and valid.
    fc
      .integer({ min: 0, max: 255 })
      .filter((flags) => flags !== data[32])
      .map((flags) => {
        const copy = Buffer.from(data);
        copy[32] = flags;
        return b64url(copy);
      }),
    fc
      .uint8Array({ minLength: 32, maxLength: 32 })
      .map((hash) => b64url(Buffer.concat([hash, data.subarray(32)]))),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((junk) => b64url(Buffer.concat([data, junk]))),
    fc.uint8Array({ minLength: 0, maxLength: 80 }).map((junk) => b64url(junk)),
  );
}

/** A sign-in answer to a pool challenge, one part broken. */
function badLogin(pools: PasskeyPools): fc.Arbitrary<{ path: string; body: object }> {
  return fc.nat(pools.login.length - 1).chain((index) => {
    const { challengeId, challenge } = pools.login[index] ?? { challengeId: '', challenge: '' };
    const good = assert(pools.credential, { ...PAGE, challenge });
    const part = (response: Partial<typeof good.response>) => ({
      ...good,
      response: { ...good.response, ...response },
    });
    return fc
      .oneof(
        badClientData('webauthn.get', challenge).map((clientDataJSON) => part({ clientDataJSON })),
        badAuthenticatorData(bytes(good.response.authenticatorData)).map((authenticatorData) =>
          part({ authenticatorData }),
        ),
        fc
          .uint8Array({ minLength: 1, maxLength: 80 })
          .map((signature) => part({ signature: b64url(signature) })),
        fc
          .constantFrom(b64url('someone else'), b64url(randomBytes(64)))
          .map((userHandle) => part({ userHandle })),
        fc
          .uint8Array({ minLength: 1, maxLength: 64 })
          .map((id) => ({ ...good, id: b64url(id), rawId: b64url(id) })),
        fc.constant({ ...good, rawId: b64url(randomBytes(16)) }),
      )
      .map((response) => ({ path: '/api/auth/passkeys/login/verify', body: { challengeId, response } }));
  });
}

/** An attestation object of the wrong shape for `authData`. */
function badAttestation(authData: Buffer): fc.Arbitrary<string> {
  const cut = (length: number) => authData.subarray(0, length);
  const object = (entries: Array<[string, Cbor]>) => cbor(new Map<string, Cbor>(entries));
  const none = (data: Cbor) =>
    object([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', data],
    ]);
  return fc.oneof(
    fc.uint8Array({ minLength: 1, maxLength: 120 }).map((junk) => b64url(junk)),
    fc
      .constantFrom<Buffer>(
        object([['fmt', 'none']]),
        object([
          ['fmt', 5],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
        object([
          ['fmt', 'packed'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
        none(cut(37)),
        none(cut(60)),
        none('text'),
        object([
          ['fmt', 'none'],
          ['attStmt', 1],
          ['authData', authData],
        ]),
        cbor('just a string'),
      )
      .map((value) => b64url(value)),
    fc.nat(authData.length - 1).map((length) => b64url(none(cut(length)))),
  );
}

/** A registration answer to one of the agent's pool challenges, one part broken. */
function badRegistration(pools: PasskeyPools): fc.Arbitrary<{ path: string; body: object }> {
  return fc.nat(pools.register.length - 1).chain((index) => {
    const challenge = pools.register[index] ?? '';
    const { response: good } = createCredential({ ...PAGE, challenge, userHandle: pools.userHandle });
    const authData = authDataOf(good);
    const part = (response: Partial<RegistrationResponse['response']>) => ({
      ...good,
      response: { ...good.response, ...response },
    });
    return fc
      .oneof(
        badClientData('webauthn.create', challenge).map((clientDataJSON) => part({ clientDataJSON })),
        badAttestation(authData).map((attestationObject) => part({ attestationObject })),
        fc
          .uint8Array({ minLength: 1, maxLength: 64 })
          .map((id) => ({ ...good, id: b64url(id), rawId: b64url(id) })),
      )
      .map((response) => ({ path: '/api/auth/passkeys/register/verify', body: { response, name: 'Fuzz' } }));
  });
}

/** The authenticator data inside a registration answer's attestation (its last CBOR value). */
function authDataOf(response: RegistrationResponse): Buffer {
  const attestation = bytes(response.response.attestationObject);
  // 'authData' is the last key: a byte string header of 2 or 3 bytes precedes the data itself.
  const marker = attestation.indexOf(Buffer.from('authData'));
  const head = attestation[marker + 8] ?? 0;
  const start = marker + 8 + (head === 0x58 ? 2 : head === 0x59 ? 3 : 1);
  return attestation.subarray(start);
}

/** A broken answer to a real challenge: a sign-in (anyone may send it) or the agent's registration. */
export function hostilePasskeyAnswer(pools: PasskeyPools): fc.Arbitrary<{ path: string; body: object }> {
  return fc.oneof(badLogin(pools), badRegistration(pools));
}
