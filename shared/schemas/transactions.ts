import { z } from 'zod';
import { FORM_STATUSES, ROLES } from '../constants';
import { validation } from '../messages';
import { idSchema, pagingInput } from './common';

/**
 * Transactions, their checklist forms and comments (spec sections 2, 3, 5 and 7; DESIGN.md
 * section 5). The create and update inputs carry the spec's messages, so the dialog and the API
 * say the same thing.
 */

const MAX_FIELD = 200;
const required = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(MAX_FIELD, { error: `Cannot exceed ${MAX_FIELD} characters` });

export const addressFields = z.object({
  streetAddress: required(validation.streetAddressRequired),
  city: required(validation.cityRequired),
  state: required(validation.stateRequired),
  zip: required(validation.zipRequired),
});
export type AddressFields = z.infer<typeof addressFields>;

export const createTransactionInput = addressFields.extend({
  type: required(validation.typeRequired),
  role: required(validation.roleRequired),
  /** The spec's client sends its own id; anything else is refused (DESIGN.md section 11). */
  user: idSchema.optional(),
});
export type CreateTransactionInput = z.infer<typeof createTransactionInput>;

export const userTransactionInput = z.object({ id: idSchema, userId: idSchema });

export const updateTransactionInput = addressFields.extend({ id: idSchema, userId: idSchema });
export type UpdateTransactionInput = z.infer<typeof updateTransactionInput>;

export const adminUpdateTransactionInput = addressFields.extend({
  id: idSchema,
  isTransactionCoordinator: z.boolean().optional(),
  isTitleReport: z.boolean().optional(),
  isNaturalHazardDisclosure: z.boolean().optional(),
});
export type AdminUpdateTransactionInput = z.infer<typeof adminUpdateTransactionInput>;

export const transactionIdInput = z.object({ id: idSchema });

export const userListInput = pagingInput.extend({ userId: idSchema });
/** Search terms are trimmed; an empty term is the plain list (spec section 4). */
const searchTerm = z
  .string()
  .trim()
  .max(MAX_FIELD, { error: `Cannot exceed ${MAX_FIELD} characters` });
export const userSearchInput = userListInput.extend({ term: searchTerm });
export const adminListInput = pagingInput;
export const adminSearchInput = pagingInput.extend({ term: searchTerm });

export const setFormFileInput = z.object({
  id: idSchema,
  formId: idSchema,
  /** The url or key answered by the upload route. */
  url: z.string({ error: 'url is required' }).trim().min(1, { error: 'url is required' }).max(2000),
});

const MAX_COMMENT = 5000;
export const addCommentInput = z.object({
  id: idSchema,
  formId: idSchema,
  text: z
    .string({ error: 'Comment is required' })
    .trim()
    .min(1, { error: 'Comment is required' })
    .max(MAX_COMMENT, { error: `Cannot exceed ${MAX_COMMENT} characters` }),
});

export const formStatus = z.enum(FORM_STATUSES);
export type FormStatus = z.infer<typeof formStatus>;

/** An admin's review: a decision, a comment, or both (spec: empty comment without status warns). */
export const reviewInput = z
  .object({
    id: idSchema,
    formId: idSchema,
    status: z.enum(['accepted', 'rejected']).optional(),
    text: z
      .string()
      .trim()
      .max(MAX_COMMENT, { error: `Cannot exceed ${MAX_COMMENT} characters` })
      .optional(),
  })
  .refine((review) => review.status !== undefined || Boolean(review.text), {
    error: validation.commentRequired,
    path: ['text'],
  });
export type ReviewInput = z.infer<typeof reviewInput>;

const person = z.object({ _id: idSchema, firstName: z.string(), lastName: z.string() });

export const comment = z.object({
  _id: idSchema,
  text: z.string(),
  role: z.enum(ROLES),
  /** The review decision this comment carried, if any. */
  status: z.enum(['accepted', 'rejected']).nullable(),
  createdAt: z.iso.datetime(),
  user: person,
});
export type Comment = z.infer<typeof comment>;

export const transactionForm = z.object({
  _id: idSchema,
  label: z.string(),
  /** A signed link to the current file (valid 1 h), or null before the first upload. */
  url: z.string().nullable(),
  status: formStatus,
  comments: z.array(comment),
});
export type TransactionForm = z.infer<typeof transactionForm>;

const transactionFields = {
  _id: idSchema,
  streetAddress: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  type: z.string(),
  role: z.string(),
  isTransactionCoordinator: z.boolean(),
  isTitleReport: z.boolean(),
  isNaturalHazardDisclosure: z.boolean(),
  createdAt: z.iso.datetime(),
  user: person,
};

/** A row of a list: everything but the forms, which only the detail page needs. */
export const transactionSummary = z.object(transactionFields);
export type TransactionSummary = z.infer<typeof transactionSummary>;

export const transaction = z.object({ ...transactionFields, forms: z.array(transactionForm) });
export type Transaction = z.infer<typeof transaction>;

export const transactionsPage = z.object({
  transactions: z.array(transactionSummary),
  totalPages: z.number().int(),
  totalTransactions: z.number().int(),
});
export type TransactionsPage = z.infer<typeof transactionsPage>;

export const historyEntry = z.object({
  _id: idSchema,
  action: z.string(),
  entity: z.string(),
  entityId: idSchema,
  actor: person.nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  createdAt: z.iso.datetime(),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

/** The answer of both upload routes (DESIGN.md section 5). */
export const uploadAnswer = z.object({
  key: z.string(),
  url: z.string(),
  name: z.string(),
  size: z.number().int(),
  contentType: z.string(),
});
export type UploadAnswer = z.infer<typeof uploadAnswer>;
