import type {
  Comment,
  Transaction,
  TransactionForm,
  TransactionSummary,
} from '../../../shared/schemas/transactions';
import type { Prisma } from '../../db/generated/client';
import type { FileLinker } from '../file-links';

/** What is read of a transaction, its forms and comments, and how each becomes its answer. */

export const person = { select: { id: true, firstName: true, lastName: true } } as const;

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
  user: person,
} as const satisfies Prisma.TransactionSelect;

export const commentSelect = {
  id: true,
  text: true,
  role: true,
  status: true,
  createdAt: true,
  user: person,
} as const satisfies Prisma.CommentSelect;

export const formSelect = {
  id: true,
  label: true,
  fileKey: true,
  status: true,
  comments: { select: commentSelect, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
} as const satisfies Prisma.TransactionFormSelect;

export const detailSelect = {
  ...summarySelect,
  userId: true,
  forms: { select: formSelect, orderBy: { position: 'asc' } },
} as const satisfies Prisma.TransactionSelect;

type SummaryRow = Prisma.TransactionGetPayload<{ select: typeof summarySelect }>;
export type DetailRow = Prisma.TransactionGetPayload<{ select: typeof detailSelect }>;
type FormRow = Prisma.TransactionFormGetPayload<{ select: typeof formSelect }>;
type CommentRow = Prisma.CommentGetPayload<{ select: typeof commentSelect }>;
type PersonRow = { id: string; firstName: string; lastName: string };

export const toPerson = (row: PersonRow) => ({
  _id: row.id,
  firstName: row.firstName,
  lastName: row.lastName,
});

export function toSummary(row: SummaryRow): TransactionSummary {
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
  };
}

export function toComment(row: CommentRow): Comment {
  return {
    _id: row.id,
    text: row.text,
    role: row.role,
    status: row.status === 'accepted' || row.status === 'rejected' ? row.status : null,
    createdAt: row.createdAt.toISOString(),
    user: toPerson(row.user),
  };
}

export async function toForm(linkOf: FileLinker, row: FormRow): Promise<TransactionForm> {
  return {
    _id: row.id,
    label: row.label,
    url: row.fileKey ? await linkOf(row.fileKey) : null,
    status: row.status,
    comments: row.comments.map(toComment),
  };
}

export async function toTransaction(linkOf: FileLinker, row: DetailRow): Promise<Transaction> {
  return { ...toSummary(row), forms: await Promise.all(row.forms.map((form) => toForm(linkOf, form))) };
}
