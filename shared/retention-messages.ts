/**
 * The words of records retention and legal holds: the server's refusals and the transaction
 * pages' notes. A module of its own, not messages.ts: messages.ts travels in the first download of
 * every visit, which has a budget (scripts/check-bundle-budget.mjs), while only lazy pages and the
 * server read these.
 */
export const retentionMessages = {
  keptUntil: (date: string) => `This transaction is kept until ${date}`,
  underLegalHold: 'This transaction is under legal hold',
  holdReasonRequired: 'Give a reason for the legal hold',
  reasonTooLong: (max: number) => `Cannot exceed ${max} characters`,
  holdMustBeBoolean: 'hold must be true or false',
  purgedCannotReopen:
    'The documents of this transaction were purged after its retention: it cannot be reopened',
} as const;

/** The transaction pages' retention section (agent's and admin's). */
export const retentionLabels = {
  keptUntil: (date: string) => `Kept until ${date}`,
  underHold: (reason: string) => `Under legal hold: ${reason}`,
  purged: (date: string) => `Stored documents purged on ${date}`,
  holdSwitch: 'Legal hold',
  placeHoldTitle: 'Place a legal hold',
  releaseHoldTitle: 'Release the legal hold',
  reasonLabel: 'Reason',
  placeHold: 'Place hold',
  releaseHold: 'Release hold',
  holdPlaced: 'Legal hold placed',
  holdReleased: 'Legal hold released',
} as const;
