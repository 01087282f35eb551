import { retentionMessages } from '../../../shared/retention-messages';
import { OFFICE_DEFAULTS } from '../../../shared/schemas/offices';
import { AppError } from '../../errors';

/**
 * Records retention: a closed file is kept until its closing day plus its office's retention
 * years, and a legal hold keeps any file, whatever its date. The rules are plain functions of the
 * facts and the time, so the refusal of a delete, the answer's retainUntil and the purge (whose
 * statement in purge.ts says the same in SQL) are one rule, checked against each other by
 * retention.property.test.ts. Legal holds and the lock: retention.ts.
 */

/** A file outside any office follows the brokerage's default. */
export const DEFAULT_RETENTION_YEARS = OFFICE_DEFAULTS.retentionYears;

export type RetentionFacts = {
  closedAt: Date | null;
  legalHold: boolean;
  /** The office's retention; null when the file has no office. */
  retentionYears: number | null;
};

/** The UTC calendar day of an instant, YYYY-MM-DD. */
export const utcDayOf = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * The closing day (UTC) plus `years`, as YYYY-MM-DD. A file closed on 29 February is kept until
 * 28 February of a common year, as PostgreSQL's date + interval counts it, so the purge's SQL and
 * this agree on every day.
 */
export function retainUntilOf(closedAt: Date, years: number): string {
  const year = closedAt.getUTCFullYear() + years;
  const month = closedAt.getUTCMonth();
  const lastDayOfMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(closedAt.getUTCDate(), lastDayOfMonth);
  const until = new Date(0);
  until.setUTCFullYear(year, month, day);
  return utcDayOf(until);
}

/** retainUntil of a file: null while it is open. */
export const retainUntil = (facts: Pick<RetentionFacts, 'closedAt' | 'retentionYears'>): string | null =>
  facts.closedAt ? retainUntilOf(facts.closedAt, facts.retentionYears ?? DEFAULT_RETENTION_YEARS) : null;

/**
 * Why the file may not be deleted now, or null. The hold speaks first: it is the reason the file
 * would still be kept once its date has passed. On retainUntil itself the file may go.
 */
export function deletionRefusal(facts: RetentionFacts, now: Date): string | null {
  if (facts.legalHold) return retentionMessages.underLegalHold;
  const until = retainUntil(facts);
  return until !== null && utcDayOf(now) < until ? retentionMessages.keptUntil(until) : null;
}

/** Whether the daily purge may remove the file's stored documents: closed, past retention, not held. */
export const purgeable = (facts: RetentionFacts, now: Date): boolean =>
  facts.closedAt !== null && !facts.legalHold && deletionRefusal(facts, now) === null;

/** Refuses (409) the deletion of a file still kept; open files are deleted as before. */
export function assertDeletable(facts: RetentionFacts, now: Date): void {
  const refusal = deletionRefusal(facts, now);
  if (refusal) throw new AppError('CONFLICT', refusal);
}
