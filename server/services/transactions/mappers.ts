import { z } from 'zod';
import { type UploadWarning, uploadWarning } from '../../../shared/schemas/intake';
import type { KeyDateKind } from '../../../shared/schemas/key-dates';
import type {
  Comment,
  ComplianceStatus,
  FormVersion,
  Progress,
  ReasonRef,
  Transaction,
  TransactionForm,
  TransactionSummary,
} from '../../../shared/schemas/transactions';
import type { Prisma } from '../../db/generated/client';
import { downloadName } from '../../storage/keys';
import { calendarDayOf, todayIn } from '../calendar-days';
import { commissionSelect, toCommission } from '../commission/answer';
import type { FileLinker } from '../file-links';
import { factsSelect, toFacts } from './checklist';
import { retainUntil } from './retention-rules';

/** What is read of a transaction, its forms and comments, and how each becomes its answer. */

export const person = { select: { id: true, firstName: true, lastName: true } } as const;

/** The progress counters the database keeps on every transaction. */
export const progressSelect = {
  requiredCount: true,
  acceptedCount: true,
  waivedCount: true,
  awaitingReviewCount: true,
  rejectedCount: true,
  missingCount: true,
  complianceState: true,
  closedAt: true,
} as const satisfies Prisma.TransactionSelect;

/** What closingDate, nextDeadline and overdue are made of: a handful of rows each. */
export const keyDatesSelect = {
  keyDates: {
    select: { kind: true, label: true, date: true, done: true },
    orderBy: [{ date: 'asc' }, { position: 'asc' }],
  },
} as const satisfies Prisma.TransactionSelect;

export const summarySelect = {
  id: true,
  streetAddress: true,
  city: true,
  state: true,
  zip: true,
  type: true,
  role: true,
  isTransactionCoordinator: true,
  isTitleReport: true,
  isNaturalHazardDisclosure: true,
  createdAt: true,
  user: { select: { id: true, firstName: true, lastName: true, timezone: true } },
  ...progressSelect,
  ...keyDatesSelect,
} as const satisfies Prisma.TransactionSelect;

export const commentSelect = {
  id: true,
  text: true,
  role: true,
  status: true,
  reasons: true,
  createdAt: true,
  user: person,
} as const satisfies Prisma.CommentSelect;

export const formSelect = {
  id: true,
  label: true,
  required: true,
  fileKey: true,
  status: true,
  submittedAt: true,
  version: true,
  filePages: true,
  fileWarnings: true,
  waiverStatus: true,
  waiverReason: true,
  waiverRequestedAt: true,
  waiverDecidedAt: true,
  requiredBecause: true,
  comments: { select: commentSelect, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
} as const satisfies Prisma.TransactionFormSelect;

export const detailSelect = {
  ...summarySelect,
  userId: true,
  officeId: true,
  ...factsSelect,
  ...commissionSelect,
  legalHold: true,
  legalHoldReason: true,
  purgedAt: true,
  office: { select: { retentionYears: true } },
  forms: { select: formSelect, orderBy: { position: 'asc' } },
} as const satisfies Prisma.TransactionSelect;

type SummaryRow = Prisma.TransactionGetPayload<{ select: typeof summarySelect }>;
export type DetailRow = Prisma.TransactionGetPayload<{ select: typeof detailSelect }>;
export type FormRow = Prisma.TransactionFormGetPayload<{ select: typeof formSelect }>;
type CommentRow = Prisma.CommentGetPayload<{ select: typeof commentSelect }>;
type PersonRow = { id: string; firstName: string; lastName: string };

export const toPerson = (row: PersonRow) => ({
  _id: row.id,
  firstName: row.firstName,
  lastName: row.lastName,
});

/** The counters as the database keeps them, by whatever names a query gave them. */
export type ProgressCounts = {
  required: number;
  accepted: number;
  waived: number;
  awaitingReview: number;
  rejected: number;
  missing: number;
};

export function toProgress(counts: ProgressCounts): Progress {
  const done = counts.accepted + counts.waived;
  const percent = counts.required === 0 ? 100 : Math.round((100 * done) / counts.required);
  // Field by field: a spread followed by a new field costs about half a microsecond on Node 20's
  // V8, and every row of every list makes one of these.
  return {
    required: counts.required,
    accepted: counts.accepted,
    waived: counts.waived,
    awaitingReview: counts.awaitingReview,
    rejected: counts.rejected,
    missing: counts.missing,
    percent,
  };
}

/** Prisma names the enum's values as identifiers; the API spells them as the database does. */
export const complianceStatusOf = (state: SummaryRow['complianceState']): ComplianceStatus =>
  state === 'needs_review' ? 'needs-review' : state;

/** progress, compliant, status and closedAt of a transaction answer. */
export function complianceOf(row: Pick<SummaryRow, keyof typeof progressSelect>) {
  const progress = toProgress({
    required: row.requiredCount,
    accepted: row.acceptedCount,
    waived: row.waivedCount,
    awaitingReview: row.awaitingReviewCount,
    rejected: row.rejectedCount,
    missing: row.missingCount,
  });
  return {
    progress,
    compliant: progress.accepted + progress.waived >= progress.required,
    status: complianceStatusOf(row.complianceState),
    closedAt: row.closedAt?.toISOString() ?? null,
  };
}

export function toSummary(row: SummaryRow, now: Date): TransactionSummary {
  return {
    _id: row.id,
    streetAddress: row.streetAddress,
    city: row.city,
    state: row.state,
    zip: row.zip,
    type: row.type,
    role: row.role,
    isTransactionCoordinator: row.isTransactionCoordinator,
    isTitleReport: row.isTitleReport,
    isNaturalHazardDisclosure: row.isNaturalHazardDisclosure,
    createdAt: row.createdAt.toISOString(),
    user: toPerson(row.user),
    ...complianceOf(row),
    ...deadlinesOf(row.keyDates, todayIn(row.user.timezone, now)),
  };
}

type DeadlineRow = { kind: string; label: string; date: Date; done: boolean };

/**
 * closingDate, nextDeadline and overdue from a transaction's dates in date order.
 * "Today" is the agent's: a deadline is theirs to meet, wherever the reader sits.
 */
export function deadlinesOf(dates: readonly DeadlineRow[], today: string) {
  const open = dates.filter((row) => !row.done).map(toDeadline);
  const closing = dates.find((row) => row.kind === 'closing');
  return {
    closingDate: closing ? calendarDayOf(closing.date) : null,
    nextDeadline: open.find((row) => row.date >= today) ?? null,
    overdue: open.find((row) => row.date < today) ?? null,
  };
}

const toDeadline = (row: DeadlineRow) => ({
  kind: row.kind as KeyDateKind,
  label: row.label,
  date: calendarDayOf(row.date),
});

/** Reasons as stored ([{code, label}] JSON); anything else reads as none. */
export function toReasons(value: Prisma.JsonValue): ReasonRef[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) =>
    entry && typeof entry === 'object' && !Array.isArray(entry) && 'code' in entry && 'label' in entry
      ? [{ code: String(entry.code), label: String(entry.label) }]
      : [],
  );
}

export function toComment(row: CommentRow): Comment {
  return {
    _id: row.id,
    text: row.text,
    role: row.role,
    status: row.status === 'accepted' || row.status === 'rejected' ? row.status : null,
    reasons: toReasons(row.reasons),
    createdAt: row.createdAt.toISOString(),
    user: toPerson(row.user),
  };
}

export function toWaiver(row: Omit<FormRow, 'comments'>): TransactionForm['waiver'] {
  if (!row.waiverStatus || !row.waiverRequestedAt) return null;
  return {
    reason: row.waiverReason ?? '',
    status: row.waiverStatus,
    requestedAt: row.waiverRequestedAt.toISOString(),
    decidedAt: row.waiverDecidedAt?.toISOString() ?? null,
  };
}

/** Warnings as stored (jsonb written by services/intake): anything unexpected reads as none. */
export function toWarnings(json: Prisma.JsonValue): UploadWarning[] {
  const parsed = z.array(uploadWarning).safeParse(json);
  return parsed.success ? parsed.data : [];
}

/**
 * `linkOf` is null once the file's documents were purged after retention: the stored objects are
 * gone, so no link is given; the names and checksums stay as the record of what was there.
 */
export async function toForm(linkOf: FileLinker | null, row: FormRow): Promise<TransactionForm> {
  return {
    _id: row.id,
    label: row.label,
    url: row.fileKey && linkOf ? await linkOf(row.fileKey) : null,
    fileName: row.fileKey ? downloadName(row.fileKey) : null,
    status: row.status,
    required: row.required,
    requiredBecause: row.requiredBecause,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    version: row.version,
    pages: row.fileKey ? row.filePages : null,
    warnings: row.fileKey ? toWarnings(row.fileWarnings) : [],
    waiver: toWaiver(row),
    comments: row.comments.map(toComment),
  };
}

export async function toTransaction(linkOf: FileLinker, row: DetailRow, now: Date): Promise<Transaction> {
  return {
    ...toSummary(row, now),
    facts: toFacts(row),
    commission: toCommission(row),
    retainUntil: retainUntil({ closedAt: row.closedAt, retentionYears: row.office?.retentionYears ?? null }),
    legalHold: row.legalHold,
    legalHoldReason: row.legalHoldReason,
    purgedAt: row.purgedAt?.toISOString() ?? null,
    forms: await Promise.all(row.forms.map((form) => toForm(row.purgedAt ? null : linkOf, form))),
  };
}

export const versionSelect = {
  id: true,
  number: true,
  fileKey: true,
  size: true,
  contentType: true,
  sha256: true,
  uploadedAt: true,
  uploadedBy: person,
  pages: true,
  warnings: true,
  decisionStatus: true,
  decisionReasons: true,
  decisionText: true,
  decidedAt: true,
  decidedBy: person,
  source: true,
} as const satisfies Prisma.FormVersionSelect;
type VersionRow = Prisma.FormVersionGetPayload<{ select: typeof versionSelect }>;

/** `linkOf` is null once the file's documents were purged, as for `toForm`. */
export async function toVersion(linkOf: FileLinker | null, row: VersionRow): Promise<FormVersion> {
  const status = row.decisionStatus;
  return {
    _id: row.id,
    number: row.number,
    name: downloadName(row.fileKey),
    size: row.size,
    contentType: row.contentType,
    sha256: row.sha256,
    url: linkOf ? await linkOf(row.fileKey) : null,
    uploadedAt: row.uploadedAt.toISOString(),
    uploadedBy: row.uploadedBy ? toPerson(row.uploadedBy) : null,
    pages: row.pages,
    warnings: toWarnings(row.warnings),
    source: row.source === 'esign' ? 'esign' : 'upload',
    decision:
      (status === 'accepted' || status === 'rejected') && row.decidedAt
        ? {
            status,
            reasons: toReasons(row.decisionReasons),
            text: row.decisionText ?? '',
            at: row.decidedAt.toISOString(),
            by: row.decidedBy ? toPerson(row.decidedBy) : null,
          }
        : null,
  };
}
