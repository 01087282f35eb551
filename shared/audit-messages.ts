/**
 * The words of the audit log: the server's refusals of its filters and the Audit page's labels.
 * A module of its own, not messages.ts: messages.ts travels in the first download of every visit,
 * which has a budget, while only the server and the lazy Audit page read these.
 */
export const auditMessages = {
  rangeBoundInvalid: 'Give a day written YYYY-MM-DD or an ISO 8601 date and time with its zone',
  rangeReversed: '"to" must not be before "from"',
  cursorInvalid: 'cursor is the nextCursor of an earlier page',
  nameInvalid: 'Give a name such as form.review: letters, digits, dots, dashes and underscores',
} as const;

/** The Audit page's labels. */
export const auditLabels = {
  title: 'Audit',
  chainHeading: 'Hash chain',
  chainIntro:
    'Every change is an event whose hash covers the one before it. Verifying recomputes every hash.',
  verify: 'Verify chain',
  verifying: 'Verifying…',
  chainValid: (events: string) => `Valid: ${events} events, every link and hash matches.`,
  chainBroken: (events: string) => `Broken: ${events} events, a link or a hash does not match.`,
  firstBroken: (id: string) => `First broken event: ${id}`,
  chainEndCut: 'Every link matches, but the last events are missing (the chain head is later).',
  verifyFailed: 'Could not verify the chain',
  filtersHeading: 'Filters',
  user: 'User',
  userPlaceholder: 'Anyone',
  entity: 'Record type',
  action: 'Action',
  any: 'Any',
  from: 'From (UTC day)',
  to: 'To (UTC day)',
  clearFilters: 'Clear filters',
  empty: 'No events match these filters.',
  loadFailed: 'The audit log could not be loaded.',
  newer: 'Newer',
  older: 'Older',
  when: 'When',
  who: 'Who',
  what: 'Action',
  record: 'Record',
  details: 'Details',
  system: 'System',
  show: 'Show',
  hide: 'Hide',
  before: 'Before',
  after: 'After',
  seq: 'Seq',
  hash: 'Hash',
  prevHash: 'Previous hash',
  apiKey: 'API key',
  onBehalfOf: 'On behalf of',
  transaction: 'Transaction',
  none: 'none',
} as const;
