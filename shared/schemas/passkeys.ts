import { z } from 'zod';
import { PASSKEY_NAME_MAX, passkeyMessages } from '../passkey-messages';
import { idSchema } from './common';

/**
 * Passkeys (WebAuthn): the registration and sign-in ceremonies' options and responses, in the
 * JSON forms @simplewebauthn/browser produces and @simplewebauthn/server reads, and the list a
 * user manages. Bounded everywhere: a response is a few kilobytes at most.
 */

export { PASSKEY_NAME_MAX };

/** base64url text, as WebAuthn's JSON carries bytes. */
const base64url = (max: number) =>
  z
    .string({ error: passkeyMessages.responseInvalid })
    .min(1, { error: passkeyMessages.responseInvalid })
    .max(max, { error: passkeyMessages.responseInvalid })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: passkeyMessages.responseInvalid });

/** A credential id: at most 1023 bytes (WebAuthn Level 3), 1364 base64url characters. */
const credentialId = base64url(1400);
const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
const transports = z
  .array(z.enum(TRANSPORTS, { error: passkeyMessages.responseInvalid }))
  .max(TRANSPORTS.length);
const attachment = z.enum(['platform', 'cross-platform'], { error: passkeyMessages.responseInvalid });
/** What the client's extensions answered; the server asks for none, so nothing of it is read. */
const extensionResults = z
  .object({ credProps: z.object({ rk: z.boolean().optional() }).optional() })
  .default({});

export const passkeyName = z
  .string({ error: passkeyMessages.nameRequired })
  .trim()
  .min(1, { error: passkeyMessages.nameRequired })
  .max(PASSKEY_NAME_MAX, { error: passkeyMessages.nameTooLong });

export const registrationResponse = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key', { error: passkeyMessages.responseInvalid }),
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(32768),
    authenticatorData: base64url(16384).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4096).optional(),
  }),
  authenticatorAttachment: attachment.optional(),
  clientExtensionResults: extensionResults,
});

export const authenticationResponse = z.object({
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key', { error: passkeyMessages.responseInvalid }),
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(16384),
    signature: base64url(2048),
    userHandle: base64url(128).optional(),
  }),
  authenticatorAttachment: attachment.optional(),
  clientExtensionResults: extensionResults,
});

export const registerVerifyInput = z.object({
  response: registrationResponse,
  name: passkeyName.optional(),
});
export type RegisterVerifyInput = z.infer<typeof registerVerifyInput>;

export const loginVerifyInput = z.object({
  challengeId: idSchema,
  response: authenticationResponse,
});
export type LoginVerifyInput = z.infer<typeof loginVerifyInput>;

export const passkeyIdInput = z.object({ id: idSchema });
export const renamePasskeyInput = z.object({ id: idSchema, name: passkeyName });
/** The password is needed only to remove the last passkey. */
export const removePasskeyInput = z.object({
  id: idSchema,
  password: z.string().min(1, { error: passkeyMessages.passwordForLast }).max(256).optional(),
});

const descriptor = z.object({
  id: z.string(),
  type: z.literal('public-key'),
  transports: z.array(z.string()).optional(),
});

/** What navigator.credentials.create needs (PublicKeyCredentialCreationOptionsJSON). */
export const registrationOptions = z.object({
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal('public-key') })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(descriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.string().optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.string().optional(),
      userVerification: z.string().optional(),
    })
    .optional(),
  hints: z.array(z.string()).optional(),
  attestation: z.string().optional(),
  attestationFormats: z.array(z.string()).optional(),
  extensions: z.object({ credProps: z.boolean().optional() }).optional(),
});

/** What navigator.credentials.get needs (PublicKeyCredentialRequestOptionsJSON), and the challenge's id to answer with. */
export const loginOptionsAnswer = z.object({
  challengeId: idSchema,
  options: z.object({
    challenge: z.string(),
    timeout: z.number().optional(),
    rpId: z.string().optional(),
    allowCredentials: z.array(descriptor).optional(),
    userVerification: z.string().optional(),
    hints: z.array(z.string()).optional(),
  }),
});

export const passkeyAnswer = z.object({
  _id: idSchema,
  name: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type PasskeyAnswer = z.infer<typeof passkeyAnswer>;

export const passkeyList = z.object({ items: z.array(passkeyAnswer) });
