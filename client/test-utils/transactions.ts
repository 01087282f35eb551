import type {
  Comment,
  Transaction,
  TransactionForm,
  TransactionSummary,
  TransactionsPage,
  UploadAnswer,
} from '../../shared/schemas/transactions';
import { setSession } from '../auth/session';
import { fakeAccessToken } from './tokens';
import { TEST_USER_ID } from './users';

/** Answers shaped as the transactions procedures give them (shared/schemas/transactions.ts). */

export const USER_ID = TEST_USER_ID;
export const ADMIN_ID = 'f3a1c2d4-0000-4000-8000-0000000000ad';
export const TRANSACTION_ID = '0b9e6a52-1111-4111-8111-000000000002';

export const agent = { _id: USER_ID, firstName: 'Dana', lastName: 'Agent' };
export const reviewer = { _id: ADMIN_ID, firstName: 'Rita', lastName: 'Reviewer' };

export function signInAs(role: 'user' | 'admin') {
  const userId = role === 'admin' ? ADMIN_ID : USER_ID;
  setSession({ accessToken: fakeAccessToken({ sub: userId, role }), refreshToken: 'refresh', userId });
}

/** Ids as the server makes them (UUIDs), numbered so tests can tell rows apart. */
export function uuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

export function summary(n: number, overrides: Partial<TransactionSummary> = {}): TransactionSummary {
  return {
    _id: uuid(n),
    streetAddress: `${n} Main Street`,
    city: `City ${n}`,
    state: 'CA',
    zip: '90210',
    type: 'Sale',
    role: 'Buyer',
    isTransactionCoordinator: false,
    isTitleReport: false,
    isNaturalHazardDisclosure: false,
    createdAt: '2025-03-04T14:05:00.000Z',
    user: agent,
    progress: {
      required: 2,
      accepted: 1,
      waived: 0,
      awaitingReview: 0,
      rejected: 0,
      missing: 1,
      percent: 50,
    },
    compliant: false,
    status: 'missing',
    closedAt: null,
    closingDate: null,
    nextDeadline: null,
    overdue: null,
    ...overrides,
  };
}

/** One page of the list; `total` is the number of transactions on all pages. */
export function page(rows: TransactionSummary[], total = rows.length): TransactionsPage {
  return { transactions: rows, totalPages: Math.max(1, Math.ceil(total / 10)), totalTransactions: total };
}

export function comment(n: number, overrides: Partial<Comment> = {}): Comment {
  return {
    _id: uuid(500 + n),
    text: `Comment ${n}`,
    role: 'user',
    status: null,
    reasons: [],
    createdAt: '2025-03-05T09:30:00.000Z',
    user: agent,
    ...overrides,
  };
}

export function checklistForm(n: number, overrides: Partial<TransactionForm> = {}): TransactionForm {
  return {
    _id: uuid(100 + n),
    label: `Document ${n}`,
    url: null,
    fileName: null,
    status: 'pending',
    required: true,
    requiredBecause: null,
    submittedAt: null,
    version: 0,
    pages: null,
    warnings: [],
    waiver: null,
    comments: [],
    ...overrides,
  };
}

export function transaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    ...summary(1),
    _id: TRANSACTION_ID,
    streetAddress: '12 Ocean Avenue',
    city: 'Santa Monica',
    state: 'CA',
    zip: '90401',
    facts: { salePriceCents: null, yearBuilt: null, financing: null, propertyType: null, hoa: null },
    commission: null,
    retainUntil: null,
    legalHold: false,
    legalHoldReason: null,
    purgedAt: null,
    forms: [
      checklistForm(1, {
        label: 'Purchase Agreement',
        url: '/files/transactions/x/agreement.pdf?exp=1&sig=abc',
        fileName: 'agreement.pdf',
        submittedAt: '2025-03-05T09:00:00.000Z',
        version: 1,
        status: 'accepted',
        comments: [
          comment(1, { text: 'Signed copy attached' }),
          comment(2, { text: 'Looks good', role: 'admin', status: 'accepted', user: reviewer }),
        ],
      }),
      checklistForm(2, { label: 'Disclosure Form' }),
    ],
    ...overrides,
  };
}

/** What an upload answers (a one-page PDF of the transaction, no finding), with `overrides`. */
export function uploadAnswer(name: string, overrides: Partial<UploadAnswer> = {}): UploadAnswer {
  return {
    key: `transactions/${TRANSACTION_ID}/${name}`,
    url: `/files/transactions/${TRANSACTION_ID}/${name}`,
    name,
    size: 8,
    contentType: 'application/pdf',
    sha256: 'a'.repeat(64),
    duplicateOf: null,
    pages: 1,
    warnings: [],
    suggestions: [],
    ...overrides,
  };
}
