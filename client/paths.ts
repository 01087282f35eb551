/**
 * Every client route, the e-mailed links included (verification and reset). A module
 * of its own, apart from routes.tsx, so code below the pages (token refresh, the shell) can name
 * a path without importing every page.
 */
export const paths = {
  root: '/',
  login: '/auth/login',
  register: '/auth/register',
  reset: '/auth/reset',
  verification: '/auth/verification/:type/:email',
  verifyEmail: '/auth/verify-email/:token',
  newPassword: '/auth/new-password/:token',
  // Where single sign-on's callback lands: trades its one-time code for the session.
  sso: '/auth/sso',
  // A mail's one-click unsubscribe, opened without signing in.
  unsubscribe: '/unsubscribe/:token',
  // A signer's mailed link to sign a document, opened without an account.
  sign: '/sign/:token',
  home: '/home',
  transaction: '/home/transactions/:id',
  // The other spelling of the transaction detail path, redirected to the one above.
  transactionAlias: '/transactions/:id',
  forms: '/forms',
  tutorials: '/tutorials',
  settings: '/settings',
  // Key dates in a month and the next 60 days.
  calendar: '/calendar',
  users: '/users',
  // The brokerage's offices.
  offices: '/admin/offices',
  adminTransactions: '/adminTransactions',
  adminTransaction: '/adminTransactions/transactions/:id',
  templates: '/admin/forms/transactions/view',
  // How agents' commissions split with the brokerage.
  commissionPlans: '/admin/commission-plans',
  // The broker dashboard.
  dashboard: '/admin/dashboard',
  // The compliance desk.
  reviewQueue: '/admin/review',
  rejectionReasons: '/admin/rejection-reasons',
  // Integrators.
  apiKeys: '/admin/api-keys',
  webhooks: '/admin/webhooks',
  // The audit trail: its events and its hash chain (brokerage-wide admins).
  audit: '/admin/audit',
  banner: '/banner',
  notifications: '/notifications',
  notFound: '/not-found',
} as const;

const VERIFICATION_TYPES = ['register', 'reset'] as const;
export type VerificationType = (typeof VERIFICATION_TYPES)[number];

export function isVerificationType(value: unknown): value is VerificationType {
  return VERIFICATION_TYPES.some((type) => type === value);
}

// Ids, tokens and e-mail addresses may hold characters that would split or end a path segment.
const segment = (text: string) => encodeURIComponent(text);

export const routeTo = {
  verification: (type: VerificationType, email: string) => `/auth/verification/${type}/${segment(email)}`,
  transaction: (id: string) => `/home/transactions/${segment(id)}`,
  adminTransaction: (id: string) => `/adminTransactions/transactions/${segment(id)}`,
};

/** A path parameter as typed: wouter hands them over still percent-encoded. */
export function decodeParam(value: string | undefined): string {
  if (value === undefined) return '';
  try {
    return decodeURIComponent(value);
  } catch {
    // A malformed escape (a hand-edited URL) is shown as it stands rather than crashing the page.
    return value;
  }
}
