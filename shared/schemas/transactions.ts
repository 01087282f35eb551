import { z } from 'zod';
import { FORM_STATUSES, ROLES } from '../constants';
import { complianceMessages, validation } from '../messages';
import { transactionCommission } from './commission';
import { idSchema, pagingInput } from './common';
import { factsInput, transactionFacts } from './facts';
import { intakeSuggestion, uploadWarning } from './intake';
import { calendarDay, dayAnswer, nextDeadline } from './key-dates';

/**
 * Transactions, their checklist forms and comments (docs/API.md). The create and update inputs
 * carry the product's messages, so the dialog and the API say the same thing.
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
  /** The client sends its own user's id; anything else is refused. */
  user: idSchema.optional(),
  /**
   * Whose transaction it is: a coordinator names one of the agents it coordinates for (or
   * itself); an admin (or an API key with transactions:write) any active agent it reaches; an
   * agent only itself. Absent: the caller's own.
   */
  agentId: idSchema.optional(),
  /** The closing date, if known: stored as the transaction's `closing` key date. */
  closingDate: calendarDay.nullish(),
  /** What is known of the property and the deal; the checklist follows them. */
  facts: factsInput.optional(),
});
export type CreateTransactionInput = z.infer<typeof createTransactionInput>;

export const userTransactionInput = z.object({ id: idSchema, userId: idSchema });

/** `facts` changes only the facts it names; null clears one. */
const factsChange = { facts: factsInput.optional() };

export const updateTransactionInput = addressFields.extend({
  id: idSchema,
  userId: idSchema,
  ...factsChange,
});
export type UpdateTransactionInput = z.infer<typeof updateTransactionInput>;

export const adminUpdateTransactionInput = addressFields.extend({
  id: idSchema,
  isTransactionCoordinator: z.boolean().optional(),
  isTitleReport: z.boolean().optional(),
  isNaturalHazardDisclosure: z.boolean().optional(),
  ...factsChange,
});
export type AdminUpdateTransactionInput = z.infer<typeof adminUpdateTransactionInput>;

export const transactionIdInput = z.object({ id: idSchema });

/**
 * An agent's list. A coordinator's own list holds its agents' transactions too; `agentId` narrows
 * it to one of them (or to the coordinator's own).
 */
export const userListInput = pagingInput.extend({ userId: idSchema, agentId: idSchema.optional() });
/** Search terms are trimmed; an empty term is the plain list. */
const searchTerm = z
  .string()
  .trim()
  .max(MAX_FIELD, { error: `Cannot exceed ${MAX_FIELD} characters` });
export const userSearchInput = userListInput.extend({ term: searchTerm });
/** The states a transaction's badge shows and the admin list filters by. */
export const COMPLIANCE_STATUSES = ['needs-review', 'rejected', 'missing', 'compliant', 'closed'] as const;
export const complianceStatus = z.enum(COMPLIANCE_STATUSES);
export type ComplianceStatus = z.infer<typeof complianceStatus>;

const statusFilter = { status: complianceStatus.optional() };
/** A brokerage-wide admin's lists may be narrowed to one office; an office admin's always are. */
export const officeFilter = { officeId: idSchema.optional() };
export const adminListInput = pagingInput.extend({ ...statusFilter, ...officeFilter });
export const adminSearchInput = pagingInput.extend({ term: searchTerm, ...statusFilter, ...officeFilter });

export const setFormFileInput = z.object({
  id: idSchema,
  formId: idSchema,
  /** The url or key answered by the upload route. */
  url: z
    .string({ error: 'url is required' })
    .trim()
    .min(1, { error: 'url is required' })
    .max(2000)
    .describe(
      "The `url` or `key` answered by POST /api/uploads/transactions/{id} for this same transaction (another transaction's file is refused)",
    ),
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

/** A rejection reason's code, as GET /api/admin/rejection-reasons lists them. */
export const reasonCode = z
  .string({ error: 'A reason is a code such as missing-signature' })
  .trim()
  .min(1, { error: 'A reason is a code such as missing-signature' })
  .max(100, { error: 'Cannot exceed 100 characters' });

/**
 * The version of the item's file the reviewer looked at (its `version`). Optional: given, a
 * decision on an item whose file was replaced since is refused (409) instead of landing on a
 * file nobody opened.
 */
const reviewedVersion = z.coerce.number().int().min(1).optional();

/**
 * An admin's review: a decision, a comment, or both (an empty comment without a status warns).
 * A rejection needs a reason or a text.
 */
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
    /** Codes of rejection reasons (with a rejection only). */
    reasons: z.array(reasonCode).max(20, { error: 'At most 20 reasons' }).optional(),
    version: reviewedVersion,
  })
  .refine((review) => review.status !== undefined || Boolean(review.text), {
    error: validation.commentRequired,
    path: ['text'],
  })
  .refine((review) => review.status === 'rejected' || !review.reasons?.length, {
    error: complianceMessages.reasonsOnlyWithRejection,
    path: ['reasons'],
  })
  .refine(
    (review) => review.status !== 'rejected' || Boolean(review.text) || Boolean(review.reasons?.length),
    {
      error: complianceMessages.rejectionNeedsReason,
      path: ['reasons'],
    },
  );
export type ReviewInput = z.infer<typeof reviewInput>;

/** POST /api/transactions/{id}/forms/{formId}/waiver: the agent (or an admin) asks. */
export const waiverRequestInput = z.object({
  id: idSchema,
  formId: idSchema,
  reason: z
    .string({ error: complianceMessages.waiverReasonRequired })
    .trim()
    .min(1, { error: complianceMessages.waiverReasonRequired })
    .max(1000, { error: 'Cannot exceed 1000 characters' }),
});
export type WaiverRequestInput = z.infer<typeof waiverRequestInput>;

/** POST /api/admin/transactions/{id}/forms/{formId}/waiver: an admin decides. */
export const waiverDecisionInput = z.object({
  id: idSchema,
  formId: idSchema,
  approve: z.boolean({ error: 'approve must be true or false' }),
  text: z
    .string()
    .trim()
    .max(MAX_COMMENT, { error: `Cannot exceed ${MAX_COMMENT} characters` })
    .optional(),
});
export type WaiverDecisionInput = z.infer<typeof waiverDecisionInput>;

export const formIdInput = z.object({ id: idSchema, formId: idSchema });

export const person = z.object({ _id: idSchema, firstName: z.string(), lastName: z.string() });
export type Person = z.infer<typeof person>;

/** A rejection reason as a decision quotes it: its code and the label it had then. */
export const reasonRef = z.object({ code: z.string(), label: z.string() });
export type ReasonRef = z.infer<typeof reasonRef>;

export const comment = z.object({
  _id: idSchema,
  text: z.string(),
  role: z.enum(ROLES),
  /** The review decision this comment carried, if any. */
  status: z.enum(['accepted', 'rejected']).nullable(),
  /** The rejection reasons given with it ([] when none). */
  reasons: z.array(reasonRef),
  createdAt: z.iso.datetime(),
  user: person,
});
export type Comment = z.infer<typeof comment>;

export const WAIVER_STATUSES = ['requested', 'approved', 'denied'] as const;
export const waiver = z.object({
  reason: z.string(),
  status: z.enum(WAIVER_STATUSES),
  requestedAt: z.iso.datetime(),
  /** When an admin approved or denied it; null while requested. */
  decidedAt: z.iso.datetime().nullable(),
});
export type Waiver = z.infer<typeof waiver>;

export const transactionForm = z.object({
  _id: idSchema,
  label: z.string(),
  /** A signed link to the current file (valid 1 h); null before the first upload, and once the
   * transaction's documents were purged after retention. */
  url: z.string().nullable(),
  /** The current file's name, or null before the first upload. */
  fileName: z.string().nullable(),
  status: formStatus,
  /** Optional items never hold a file back from being compliant. */
  required: z.boolean(),
  /**
   * Why the item is on the checklist when a template's rule put it there: the facts that require
   * it ("Year built 1965 is before 1978"). Null for plain items, and for an item kept (optional)
   * with its file after its rule stopped applying.
   */
  requiredBecause: z.string().nullable(),
  /** When the current file was attached, or null. */
  submittedAt: z.iso.datetime().nullable(),
  /** How many files have been attached (0 before the first): the current file's version. */
  version: z.number().int(),
  /** The current file's page count when it is a PDF that could be read, else null. */
  pages: z.number().int().nullable(),
  /** What the pre-checks found in the current file when it was uploaded. */
  warnings: z.array(uploadWarning),
  waiver: waiver.nullable(),
  comments: z.array(comment),
});
export type TransactionForm = z.infer<typeof transactionForm>;

/** The checklist's progress over its required items. */
export const progress = z.object({
  required: z.number().int(),
  accepted: z.number().int(),
  waived: z.number().int(),
  /** A file uploaded and not yet decided. */
  awaitingReview: z.number().int(),
  rejected: z.number().int(),
  /** No file yet. */
  missing: z.number().int(),
  /** round(100 x (accepted + waived) / required); 100 when nothing is required. */
  percent: z.number().int(),
});
export type Progress = z.infer<typeof progress>;

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
  progress,
  /** Every required item accepted or waived. */
  compliant: z.boolean(),
  /** The badge: needs-review, rejected, missing, compliant or closed. */
  status: complianceStatus,
  /** When an admin closed the file; null while it is open. */
  closedAt: z.iso.datetime().nullable(),
  /** The `closing` key date, YYYY-MM-DD, or null. */
  closingDate: dayAnswer.nullable(),
  /** The earliest key date not done, today or later, in the agent's timezone. */
  nextDeadline,
  /** The earliest key date not done before today (the lists show it in red), or null. */
  overdue: nextDeadline,
};

/** A row of a list: everything but the forms, which only the detail page needs. */
export const transactionSummary = z.object(transactionFields);
export type TransactionSummary = z.infer<typeof transactionSummary>;

export const transaction = z.object({
  ...transactionFields,
  /** What is known of the property and the deal: each null until set. */
  facts: transactionFacts,
  /** The commission as given (a gross amount or a rate of the sale price); null until set. */
  commission: transactionCommission.nullable(),
  /** A closed file's last day of retention (YYYY-MM-DD, UTC): closedAt plus its office's retention years. */
  retainUntil: dayAnswer.nullable(),
  /** Kept whatever retainUntil says until an admin releases it. */
  legalHold: z.boolean(),
  /** Why the hold was placed; null without one. */
  legalHoldReason: z.string().nullable(),
  /** When the daily purge removed its stored documents; null before. */
  purgedAt: z.iso.datetime().nullable(),
  forms: z.array(transactionForm),
});
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
  /** The API key the actor acted through, or null for a person at the portal. */
  apiKey: z.object({ _id: idSchema, name: z.string() }).nullable(),
  /** The agent the actor acted for, as their coordinator; null when the actor acted for itself. */
  onBehalfOf: person.nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  createdAt: z.iso.datetime(),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

/** The answer of both upload routes. */
export const uploadAnswer = z.object({
  key: z.string(),
  url: z.string(),
  name: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  /** Hex SHA-256 of the bytes. */
  sha256: z.string(),
  /** An item of the same transaction whose current file has these very bytes, or null. */
  duplicateOf: z.object({ formId: idSchema, label: z.string() }).nullable(),
  /** The page count of a PDF that could be read, else null. */
  pages: z.number().int().nullable(),
  /** The pre-checks' findings: unsigned signature fields, blank pages, a duplicate. */
  warnings: z.array(uploadWarning),
  /** The checklist items the document's text most likely is, best first ([] for the library). */
  suggestions: z.array(intakeSuggestion),
});
export type UploadAnswer = z.infer<typeof uploadAnswer>;

/** GET /api/transactions/{id}/forms/{formId}/versions: every file of an item, newest first. */
export const formVersion = z.object({
  _id: idSchema,
  number: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  /** Null for a file stored before checksums were kept. */
  sha256: z.string().nullable(),
  /** A signed link to the file; null once the transaction's documents were purged after retention. */
  url: z.string().nullable(),
  uploadedAt: z.iso.datetime(),
  /** Null when the system stored the file itself (demo data, files older than this record). */
  uploadedBy: person.nullable(),
  /** As in the upload answer: the page count of a readable PDF, and the pre-checks' findings. */
  pages: z.number().int().nullable(),
  warnings: z.array(uploadWarning),
  /** `esign`: the signed file of a completed signature request; `upload` otherwise. */
  source: z.enum(['upload', 'esign']),
  decision: z
    .object({
      status: z.enum(['accepted', 'rejected']),
      reasons: z.array(reasonRef),
      text: z.string(),
      at: z.iso.datetime(),
      /** Null only for a decision recorded before reviewers were (migrated data). */
      by: person.nullable(),
    })
    .nullable(),
});
export type FormVersion = z.infer<typeof formVersion>;
export const formVersionsAnswer = z.object({ versions: z.array(formVersion) });
