import { z } from 'zod';
import { esignMessages } from '../esign-messages';
import { validation } from '../messages';
import { idSchema } from './common';

/**
 * Electronic signatures: a checklist item's current PDF sent to signers (who need no account),
 * the requests a transaction lists, and the public signing page's reads and answers.
 * Coordinates are PDF points from the page's top-left corner.
 */

export const FIELD_KINDS = ['signature', 'initials', 'date', 'text'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];
export const REQUEST_STATUSES = ['sent', 'completed', 'declined', 'voided'] as const;
export const SIGNER_STATUSES = ['pending', 'viewed', 'signed', 'declined'] as const;

export const MAX_SIGNERS = 10;
export const MAX_FIELDS = 200;
/** The largest page a field may sit on, in points (A0 is 2384 high): beyond it, a mistake. */
const MAX_POINTS = 14_400;
/** A drawn signature: a PNG data URL of at most this many characters (about 200 KB). */
export const MAX_SIGNATURE_DATA_URL = 200 * 1024;
/** A typed value (a text field, a typed signature or initials). */
export const MAX_TYPED_VALUE = 200;

const text = (max: number, requiredMessage?: string) => {
  const base = z.string(requiredMessage ? { error: requiredMessage } : undefined).trim();
  return (requiredMessage ? base.min(1, { error: requiredMessage }) : base).max(max, {
    error: `Cannot exceed ${max} characters`,
  });
};
const points = z.number().finite().min(0).max(MAX_POINTS);

export const signerInput = z.strictObject({
  name: text(100, esignMessages.signerNameRequired),
  email: text(254, validation.emailRequired).regex(z.regexes.email, { error: validation.invalidEmailFormat }),
});

export const fieldInput = z.strictObject({
  /** The signer's 0-based index in `signers`. */
  signer: z
    .number()
    .int()
    .min(0)
    .max(MAX_SIGNERS - 1),
  /** 1-based. */
  page: z.number().int().min(1).max(10_000),
  kind: z.enum(FIELD_KINDS),
  x: points,
  y: points,
  width: points.gt(0),
  height: points.gt(0),
});

export const createSignatureRequestInput = z.strictObject({
  id: idSchema,
  formId: idSchema,
  subject: text(200, esignMessages.subjectRequired),
  message: text(2000).optional(),
  signers: z
    .array(signerInput, { error: esignMessages.noSigner })
    .min(1, { error: esignMessages.noSigner })
    .max(MAX_SIGNERS, { error: `At most ${MAX_SIGNERS} signers` }),
  /** Mail the signers one after the other, each once the one before has signed. */
  ordered: z.boolean().default(false),
  fields: z.array(fieldInput).max(MAX_FIELDS, { error: `At most ${MAX_FIELDS} fields` }),
});
export type CreateSignatureRequestInput = z.infer<typeof createSignatureRequestInput>;

export const signatureRequestIdInput = z.strictObject({ id: idSchema, reqId: idSchema });
export const voidSignatureRequestInput = z.strictObject({
  id: idSchema,
  reqId: idSchema,
  reason: text(500, esignMessages.reasonRequired),
});

export const signerAnswer = z.object({
  _id: idSchema,
  name: z.string(),
  email: z.string(),
  status: z.enum(SIGNER_STATUSES),
  signedAt: z.iso.datetime().nullable(),
});

export const signatureRequest = z.object({
  _id: idSchema,
  status: z.enum(REQUEST_STATUSES),
  formId: idSchema,
  subject: z.string(),
  message: z.string().nullable(),
  ordered: z.boolean(),
  signers: z.array(signerAnswer),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
  /** Hex SHA-256 of the PDF as it was sent, before anything was drawn on it. */
  documentSha256: z.string(),
  /** Set when voided or declined: why. */
  closedReason: z.string().nullable(),
});
export type SignatureRequest = z.infer<typeof signatureRequest>;
export const signatureRequestsAnswer = z.array(signatureRequest);

/** The token of a signing link: 32 random bytes in base64url (43 characters). */
export const signingTokenInput = z.strictObject({
  token: z.string({ error: 'Token is required' }).min(1, { error: 'Token is required' }).max(200, {
    error: 'Invalid token',
  }),
});

export const signingField = z.object({
  _id: idSchema,
  page: z.number().int(),
  kind: z.enum(FIELD_KINDS),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  /** Filled once signed (a date field by the portal). */
  value: z.string().nullable(),
});

export const signingView = z.object({
  request: z.object({ subject: z.string(), message: z.string().nullable(), from: z.string() }),
  signer: z.object({ name: z.string(), email: z.string() }),
  /** The PDF being signed, for this link only. */
  documentUrl: z.string(),
  fields: z.array(signingField),
  /** This signer's status; `closed` when the request no longer takes signatures. */
  status: z.enum([...SIGNER_STATUSES, 'closed']),
});
export type SigningView = z.infer<typeof signingView>;

export const signInput = z.strictObject({
  token: signingTokenInput.shape.token,
  /** The signer agrees to sign electronically: must be true. */
  consent: z.boolean().optional(),
  values: z
    .array(
      z.strictObject({
        fieldId: idSchema,
        value: z.string().max(MAX_SIGNATURE_DATA_URL, { error: esignMessages.signatureImageTooLarge }),
      }),
    )
    .max(MAX_FIELDS),
});
export type SignInput = z.infer<typeof signInput>;

export const declineInput = z.strictObject({
  token: signingTokenInput.shape.token,
  reason: text(500, esignMessages.reasonRequired),
});

export const signingAnswer = z.object({ status: z.enum([...SIGNER_STATUSES, 'closed']) });
