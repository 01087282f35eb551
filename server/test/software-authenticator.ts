import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A passkey authenticator in software, for tests: an ES256 key pair per credential, real
 * authenticatorData, clientDataJSON, 'none' attestation and signed assertions, in the JSON
 * shapes a browser's navigator.credentials hands to @simplewebauthn/browser. The server checks
 * them with @simplewebauthn/server exactly as it checks a phone's or a security key's.
 */

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_BACKUP_ELIGIBLE = 0x08;
const FLAG_BACKED_UP = 0x10;
const FLAG_ATTESTED_DATA = 0x40;

export const b64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string): Buffer => createHash('sha256').update(bytes).digest();

// --- A little CBOR: what an attestation object and a COSE key need, no more -------------------

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const head = Buffer.alloc(5);
  head[0] = (major << 5) | 26;
  head.writeUInt32BE(length, 1);
  return head;
}

export type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  const parts = [cborHead(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

// --- The authenticator ------------------------------------------------------------------------

export type SoftwareCredential = {
  /** base64url, as the server stores and the browser reports it. */
  id: string;
  privateKey: KeyObject;
  /** The COSE form of the public key, as registration carries it. */
  cosePublicKey: Buffer;
  /** The user handle the credential was made for (base64url), answered back on sign-in. */
  userHandle: string;
  signCount: number;
};

export type Ceremony = { rpId: string; origin: string; challenge: string };

export type AssertionOptions = {
  /** Leave the user-verified flag off (a tap without a PIN or a fingerprint). */
  unverified?: boolean;
  /** The counter to report; by default one more than the last. */
  signCount?: number;
};

function coseKeyOf(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x ?? '', 'base64url');
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  // kty EC2 (1: 2), alg ES256 (3: -7), crv P-256 (-1: 1), x (-2), y (-3).
  return cbor(
    new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, x],
      [-3, y],
    ]),
  );
}

function authenticatorData(rpId: string, flags: number, signCount: number, attested?: Buffer): Buffer {
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(signCount >>> 0, 0);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
}

function clientData(type: 'webauthn.create' | 'webauthn.get', ceremony: Ceremony): Buffer {
  return Buffer.from(
    JSON.stringify({ type, challenge: ceremony.challenge, origin: ceremony.origin, crossOrigin: false }),
  );
}

/** A new discoverable credential, and the registration response answering `ceremony`. */
export function createCredential(ceremony: Ceremony & { userHandle: string }): {
  credential: SoftwareCredential;
  response: RegistrationResponse;
} {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rawId = randomBytes(32);
  const cosePublicKey = coseKeyOf(publicKey);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(rawId.length, 0);
  const attested = Buffer.concat([Buffer.alloc(16), idLength, rawId, cosePublicKey]);
  const flags =
    FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_BACKUP_ELIGIBLE | FLAG_BACKED_UP | FLAG_ATTESTED_DATA;
  const authData = authenticatorData(ceremony.rpId, flags, 0, attested);
  const attestationObject = cbor(
    new Map<string, Cbor>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', authData],
    ]),
  );
  const id = b64url(rawId);
  return {
    credential: { id, privateKey, cosePublicKey, userHandle: ceremony.userHandle, signCount: 0 },
    response: {
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(clientData('webauthn.create', ceremony)),
        attestationObject: b64url(attestationObject),
        transports: ['internal', 'hybrid'],
      },
    },
  };
}

/** A sign-in assertion with `credential`, answering `ceremony`; its counter moves on. */
export function assert(
  credential: SoftwareCredential,
  ceremony: Ceremony,
  options: AssertionOptions = {},
): AuthenticationResponse {
  const signCount = options.signCount ?? credential.signCount + 1;
  credential.signCount = signCount;
  const flags =
    FLAG_USER_PRESENT | (options.unverified ? 0 : FLAG_USER_VERIFIED) | FLAG_BACKUP_ELIGIBLE | FLAG_BACKED_UP;
  const authData = authenticatorData(ceremony.rpId, flags, signCount);
  const clientDataJSON = clientData('webauthn.get', ceremony);
  const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
  return {
    id: credential.id,
    rawId: credential.id,
    type: 'public-key',
    clientExtensionResults: {},
    authenticatorAttachment: 'platform',
    response: {
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: credential.userHandle,
    },
  };
}

export type RegistrationResponse = {
  id: string;
  rawId: string;
  type: 'public-key';
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'platform';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
};

export type AuthenticationResponse = {
  id: string;
  rawId: string;
  type: 'public-key';
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'platform';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string };
};
