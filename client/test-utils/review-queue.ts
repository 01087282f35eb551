import type { RejectionReason, ReviewQueueItem, ReviewQueuePage } from '../../shared/schemas/compliance';
import { agent, checklistForm, uuid } from './transactions';

/** Answers shaped as the compliance desk's procedures give them (shared/schemas/compliance.ts). */

export const reasons: RejectionReason[] = [
  { code: 'missing-signature', label: 'Missing signature', active: true },
  { code: 'illegible', label: 'Illegible or incomplete scan', active: true },
  { code: 'old-reason', label: 'An old reason', active: false },
];

/** Item `n` of the queue: a document uploaded (version 2 by default) on transaction `n`. */
export function queueItem(n: number, overrides: Partial<ReviewQueueItem> = {}): ReviewQueueItem {
  const submittedAt = '2026-11-20T10:00:00.000Z';
  return {
    transaction: {
      _id: uuid(n),
      streetAddress: `${n} Main Street`,
      city: `City ${n}`,
      state: 'CA',
      zip: '90210',
      type: 'Sale',
      role: 'Buyer',
      user: agent,
    },
    form: checklistForm(n, {
      url: `/files/transactions/${n}/document-${n}.pdf?exp=1&sig=abc`,
      fileName: `document-${n}.pdf`,
      status: 'pending',
      submittedAt,
      version: 2,
    }),
    submittedAt,
    waitingSeconds: 300,
    kind: 'document',
    overdue: false,
    office: null,
    ...overrides,
  };
}

/** Item `n` as a requested waiver. */
export function waiverItem(
  n: number,
  reason = 'The buyer waived the inspection in writing',
): ReviewQueueItem {
  const requestedAt = '2026-11-21T10:00:00.000Z';
  const base = queueItem(n);
  return {
    ...base,
    form: {
      ...base.form,
      url: null,
      fileName: null,
      submittedAt: null,
      version: 0,
      waiver: { reason, status: 'requested', requestedAt, decidedAt: null },
    },
    submittedAt: requestedAt,
    kind: 'waiver',
  };
}

export function queuePage(items: ReviewQueueItem[], totalItems = items.length, limit = 10): ReviewQueuePage {
  return { items, totalItems, totalPages: Math.max(1, Math.ceil(totalItems / limit)) };
}
