import { z } from 'zod';
import { keyDateMessages } from '../messages';
import { idSchema } from './common';
import { deskTransaction, officeRef } from './compliance';
import { calendarDay, dayAnswer, keyDateKind } from './key-dates';
import { person } from './transactions';

/**
 * The broker dashboard and the agent's 'Needs your attention' strip.
 *
 * Definitions (the figures tests pin each one):
 * - the range is `from` to `to`, both days inclusive, in UTC; default the last 30 days ending today;
 * - queue: what the review queue holds now (undecided uploads and requested waivers of open,
 *   undeleted transactions), with how long its oldest item (whole seconds, rounded down, as the
 *   queue shows each wait) and its median item have waited, measured from the server's clock;
 * - turnaround: every file version decided within the range (its latest decision), from its upload
 *   to its decision, decisions on transactions deleted since included (the desk did the work);
 *   medians and p90 are percentile_cont (interpolated) rounded to whole seconds; byReviewer (the
 *   admins who decided, a handful, not capped) is sorted by reviewed, most first;
 * - rejections: of those decisions, the share that rejected, by checklist label (byDocument, at
 *   most DASHBOARD_ROWS) and by the transaction's agent (byAgent, at most DASHBOARD_ROWS), each
 *   sorted by rejected then reviewed, most first; and the reasons the rejections gave, each reason
 *   of each rejection counted once (topReasons, at most TOP_REASONS, most given first), named by
 *   the reason's current label, or by the label the rejections quoted when it was deleted;
 * - compliance: the undeleted transactions whose closing date (their earliest key date of kind
 *   'closing') falls within the range (and not after today), and how many of them were compliant
 *   by the end of that day in UTC (every required item accepted or waived, by the decision times);
 * - atRisk: open, undeleted transactions closing within 7 days (today included, UTC) that are not
 *   compliant, soonest first, at most AT_RISK_LIMIT;
 * - every figure is of what the caller reaches: an office admin's office; a brokerage-wide admin's
 *   whole brokerage, or one office with `officeId`. An office's decisions are those on the files of
 *   the agents now in it;
 * - money: the current CDA (issued or paid, never superseded) of each transaction the caller
 *   reaches, counted when its date falls within the range, the date being when it was paid, or for
 *   an unpaid one when its transaction closed (an unpaid CDA of an open or deleted file is not
 *   counted; a paid one counts even if its file was deleted since, as in the payouts CSV):
 *   grossCents the sum of their gross, brokerageCents of their brokerage and fee lines,
 *   agentCents of their agent lines, pendingCents the gross of those not paid yet; byMonth every
 *   month the range touches (`YYYY-MM`, oldest first, 0 for a month without any) with its gross;
 * - offices: one row per office the caller reaches (by name): how many items of its files the
 *   queue holds now and how many of them wait longer than its review target (`targetHours`), and
 *   the median turnaround (as above) of the range's decisions on its files.
 */

/** A custom range may span at most this many days: a year and a bit, as the calendar. */
export const MAX_DASHBOARD_DAYS = 400;
/** The range when none is given: the last 30 days, today included. */
export const DEFAULT_DASHBOARD_DAYS = 30;
/** Files closing within this many days that are not compliant are at risk. */
export const AT_RISK_DAYS = 7;
/** At most this many files at risk are listed, soonest first. */
export const AT_RISK_LIMIT = 100;
/** byDocument and byAgent list at most this many rows. */
export const DASHBOARD_ROWS = 50;
/** topReasons lists at most this many reasons. */
export const TOP_REASONS = 10;

export const dashboardInput = z
  .object({ from: calendarDay.optional(), to: calendarDay.optional(), officeId: idSchema.optional() })
  .refine((value) => !value.from || !value.to || value.from <= value.to, {
    error: keyDateMessages.rangeReversed,
    path: ['to'],
  })
  .refine(
    (value) =>
      !value.from ||
      !value.to ||
      Date.parse(`${value.to}T00:00:00Z`) - Date.parse(`${value.from}T00:00:00Z`) <
        MAX_DASHBOARD_DAYS * 86_400_000,
    { error: keyDateMessages.rangeTooLong(MAX_DASHBOARD_DAYS), path: ['to'] },
  );
export type DashboardInput = z.infer<typeof dashboardInput>;

const count = z.number().int().nonnegative();
const cents = z.number().int().nonnegative();
/** Seconds, whole; null when there is nothing to measure (an empty queue or range). */
const seconds = z.number().int().nonnegative().nullable();
/** rejected / reviewed, from 0 to 1; null when nothing was reviewed. */
const rate = z.number().min(0).max(1).nullable();

const atRiskFile = z.object({
  transaction: deskTransaction,
  closingDate: dayAnswer,
  missing: count,
  rejected: count,
  awaitingReview: count,
});

export const dashboardAnswer = z.object({
  /** The range the figures cover, as resolved (the default filled in). */
  from: dayAnswer,
  to: dayAnswer,
  queue: z.object({ size: count, oldestWaitingSeconds: seconds, medianWaitingSeconds: seconds }),
  turnaround: z.object({
    reviewed: count,
    medianSeconds: seconds,
    p90Seconds: seconds,
    byReviewer: z.array(z.object({ user: person, reviewed: count, medianSeconds: seconds })),
  }),
  rejections: z.object({
    rate,
    byDocument: z.array(z.object({ label: z.string(), reviewed: count, rejected: count, rate })),
    byAgent: z.array(z.object({ user: person, reviewed: count, rejected: count, rate })),
    topReasons: z.array(z.object({ code: z.string(), label: z.string(), count })),
  }),
  compliance: z.object({
    closed: count,
    compliantAtClose: count,
    /** One row per month of the range that has closings, `YYYY-MM`, oldest first. */
    byMonth: z.array(z.object({ month: z.string(), closed: count, compliantAtClose: count })),
  }),
  atRisk: z.array(atRiskFile),
  /** Integer cents. */
  money: z.object({
    grossCents: cents,
    brokerageCents: cents,
    agentCents: cents,
    pendingCents: cents,
    byMonth: z.array(z.object({ month: z.string(), grossCents: cents })),
  }),
  offices: z.array(
    z.object({
      office: officeRef,
      queueSize: count,
      overdue: count,
      medianTurnaroundSeconds: seconds,
      targetHours: z.number().int(),
    }),
  ),
});
export type DashboardAnswer = z.infer<typeof dashboardAnswer>;

/** The files at risk an admin's /home names (the dashboard lists them all). */
export const DESK_AT_RISK_ITEMS = 3;

/**
 * What waits for the compliance desk, for an admin's /home: the review queue's size and how long
 * its oldest item has waited (as the dashboard's queue), and the files at risk (as the
 * dashboard's), counted in full with the soonest few named.
 */
export const deskSummary = z.object({
  queue: z.object({ size: count, oldestWaitingSeconds: seconds }),
  atRisk: z.object({ total: count, items: z.array(atRiskFile) }),
});
export type DeskSummary = z.infer<typeof deskSummary>;

/** Each list of the strip shows at most this many items; `total` says how many there are. */
export const ATTENTION_ITEMS = 10;

const attentionPlace = z.object({
  transactionId: idSchema,
  streetAddress: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
});

/**
 * GET /api/attention: what the signed-in agent should do next, on their open, undeleted
 * transactions: required items rejected and not waived (to fix; oldest first), required items
 * with no file and no waiver asked for or granted (to upload; oldest transaction first), and key
 * dates not done that are overdue or fall within the next 7 days of the user's zone (soonest
 * first; `overdue` before today there).
 */
export const attentionAnswer = z.object({
  rejected: z.object({
    total: count,
    items: z.array(attentionPlace.extend({ formId: idSchema, label: z.string() })),
  }),
  missing: z.object({
    total: count,
    items: z.array(attentionPlace.extend({ formId: idSchema, label: z.string() })),
  }),
  deadlines: z.object({
    total: count,
    items: z.array(
      attentionPlace.extend({
        kind: keyDateKind,
        label: z.string(),
        date: dayAnswer,
        overdue: z.boolean(),
      }),
    ),
  }),
  /** For an admin, what waits for the desk; null for everyone else. */
  desk: deskSummary.nullable(),
});
export type AttentionAnswer = z.infer<typeof attentionAnswer>;
