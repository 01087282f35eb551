import type {
  ComplianceStatus,
  FormStatus,
  Progress,
  TransactionForm,
} from '../../../shared/schemas/transactions';

/** A transaction's badge: its words and its colour, from the theme's checked pairs. */
export const COMPLIANCE_LABEL: Record<ComplianceStatus, string> = {
  compliant: 'Compliant',
  'needs-review': 'Needs review',
  rejected: 'Rejected',
  missing: 'Missing documents',
  closed: 'Closed',
};

export const COMPLIANCE_COLOR: Record<ComplianceStatus, string> = {
  compliant: 'green',
  'needs-review': 'blue',
  rejected: 'red',
  missing: 'yellow',
  closed: 'gray',
};

/** "5/8": the required items accepted or waived, over the required ones. */
export function progressText(progress: Progress): string {
  return `${progress.accepted + progress.waived}/${progress.required}`;
}

/**
 * A checklist item's status (pending, accepted, rejected), as every page words it: capitalised,
 * the same on the agent's card, the admin's, the review dialog and the version history.
 */
export const FORM_STATUS_LABEL: Record<FormStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

export const FORM_STATUS_COLOR: Record<FormStatus, string> = {
  pending: 'yellow',
  accepted: 'green',
  rejected: 'red',
};

/**
 * The finer state of a checklist item in words, shown beside its status (a pending item is
 * Missing or Awaiting review), the same words on every page.
 */
export type ItemState =
  | 'Missing'
  | 'Awaiting review'
  | 'Accepted'
  | 'Rejected'
  | 'Waived'
  | 'Waiver requested';

export function itemState(form: TransactionForm): ItemState {
  if (form.status === 'accepted') return 'Accepted';
  if (form.waiver?.status === 'approved') return 'Waived';
  if (form.waiver?.status === 'requested') return 'Waiver requested';
  if (form.status === 'rejected') return 'Rejected';
  return form.version > 0 ? 'Awaiting review' : 'Missing';
}

/** Whether the item holds a file back from being compliant: required, neither accepted nor waived. */
export function isOutstanding(form: TransactionForm): boolean {
  return form.required && form.status !== 'accepted' && form.waiver?.status !== 'approved';
}
