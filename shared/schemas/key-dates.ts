import { z } from 'zod';
import { keyDateMessages } from '../messages';
import { idSchema } from './common';

/**
 * Key dates of a transaction and the calendar. A date is a calendar day,
 * `YYYY-MM-DD`, with no time and no zone: "closing is Dec 12" wherever one reads it.
 */

export const KEY_DATE_KINDS = [
  'contract-acceptance',
  'inspection',
  'appraisal',
  'financing',
  'closing',
  'listing-expiration',
  'possession',
  'custom',
] as const;
export type KeyDateKind = (typeof KEY_DATE_KINDS)[number];
export const keyDateKind = z.enum(KEY_DATE_KINDS, { error: keyDateMessages.kindInvalid });

/** The label each kind has; `custom` takes the one its user gives. */
export const KEY_DATE_LABELS: Record<Exclude<KeyDateKind, 'custom'>, string> = {
  'contract-acceptance': 'Contract acceptance',
  inspection: 'Inspection deadline',
  appraisal: 'Appraisal deadline',
  financing: 'Financing contingency',
  closing: 'Closing',
  'listing-expiration': 'Listing expiration',
  possession: 'Possession',
};

export const MAX_KEY_DATES = 30;
const MAX_LABEL = 100;

/** A real calendar day between 1900 and 2199 ('2026-02-30' is refused, not rolled over). */
export function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900 || year > 2199) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const calendarDay = z
  .string({ error: keyDateMessages.dateInvalid })
  .refine(isCalendarDay, { error: keyDateMessages.dateInvalid })
  .meta({ format: 'date' });

/** A day as the API answers it, YYYY-MM-DD (`format: date` in the OpenAPI document). */
export const dayAnswer = z.string().meta({ format: 'date' });

export const keyDate = z.object({
  _id: idSchema,
  kind: keyDateKind,
  label: z.string(),
  date: dayAnswer,
  done: z.boolean(),
});
export type KeyDate = z.infer<typeof keyDate>;

export const keyDatesAnswer = z.object({
  dates: z.array(keyDate),
  /** Kinds the transaction's template starts with that have no date yet: the page offers them. */
  suggestedKinds: z.array(keyDateKind),
});
export type KeyDatesAnswer = z.infer<typeof keyDatesAnswer>;

export const keyDateInput = z
  .object({
    kind: keyDateKind,
    label: z
      .string()
      .trim()
      .max(MAX_LABEL, { error: `Cannot exceed ${MAX_LABEL} characters` })
      .optional(),
    date: calendarDay,
    done: z.boolean().optional(),
  })
  .refine((value) => value.kind !== 'custom' || (value.label ?? '') !== '', {
    error: keyDateMessages.customLabelRequired,
    path: ['label'],
  });
export type KeyDateInput = z.infer<typeof keyDateInput>;

export const keyDatesIdInput = z.object({ id: idSchema });

export const replaceKeyDatesInput = z.object({
  id: idSchema,
  dates: z.array(keyDateInput).max(MAX_KEY_DATES, { error: keyDateMessages.tooMany(MAX_KEY_DATES) }),
});
export type ReplaceKeyDatesInput = z.infer<typeof replaceKeyDatesInput>;

/** On every transaction answer and list row: the earliest date not done, today or later. */
export const nextDeadline = z.object({ kind: keyDateKind, label: z.string(), date: dayAnswer }).nullable();
export type NextDeadline = z.infer<typeof nextDeadline>;

/**
 * GET /api/calendar?from&to[&agentId][&officeId]: both days inclusive, at most a year and a bit
 * apart; `officeId` narrows a brokerage-wide admin's calendar to one office.
 */
export const MAX_CALENDAR_DAYS = 400;
export const calendarInput = z
  .object({ from: calendarDay, to: calendarDay, agentId: idSchema.optional(), officeId: idSchema.optional() })
  .refine((value) => value.from <= value.to, { error: keyDateMessages.rangeReversed, path: ['to'] })
  .refine(
    (value) =>
      Date.parse(`${value.to}T00:00:00Z`) - Date.parse(`${value.from}T00:00:00Z`) <=
      MAX_CALENDAR_DAYS * 86_400_000,
    { error: keyDateMessages.rangeTooLong(MAX_CALENDAR_DAYS), path: ['to'] },
  );
export type CalendarInput = z.infer<typeof calendarInput>;

export const calendarEvent = z.object({
  transactionId: idSchema,
  streetAddress: z.string(),
  kind: keyDateKind,
  label: z.string(),
  date: dayAnswer,
  done: z.boolean(),
});
export type CalendarEvent = z.infer<typeof calendarEvent>;
export const calendarAnswer = z.object({ events: z.array(calendarEvent) });
export type CalendarAnswer = z.infer<typeof calendarAnswer>;

/** POST /api/calendar/feed: a new secret address; the previous one stops working. */
export const calendarFeedAnswer = z.object({ url: z.string() });
