import {
  KEY_DATE_KINDS,
  KEY_DATE_LABELS,
  type KeyDateKind,
  type NextDeadline,
} from '../../../shared/schemas/key-dates';

/**
 * Key dates as the pages show them. A key date is a calendar day with no zone,
 * 'YYYY-MM-DD': every computation here stays on whole days in UTC so no zone shifts one.
 */

const DAY_MS = 86_400_000;

/** The label a kind shows ('Inspection deadline'); `custom` is 'Custom' until its user names it. */
export function kindLabel(kind: KeyDateKind): string {
  return kind === 'custom' ? 'Custom' : KEY_DATE_LABELS[kind];
}

export const KIND_OPTIONS = KEY_DATE_KINDS.map((kind) => ({ value: kind, label: kindLabel(kind) }));

/** Today in the browser's zone, as a calendar day. */
export function today(now: Date = new Date()): string {
  return toDay(new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())));
}

/** A UTC midnight as 'YYYY-MM-DD'. */
export function toDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The UTC midnight of a calendar day. */
export function fromDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

export function addDays(day: string, days: number): string {
  return toDay(new Date(fromDay(day).getTime() + days * DAY_MS));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((fromDay(to).getTime() - fromDay(from).getTime()) / DAY_MS);
}

/** 'Dec 12' (with the year when it is not `thisYear`'s). */
export function shortDay(day: string, reference: string = today()): string {
  const date = fromDay(day);
  if (Number.isNaN(date.getTime())) return day;
  const sameYear = day.slice(0, 4) === reference.slice(0, 4);
  return date.toLocaleDateString('en-US', {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' }),
  });
}

/** 'Monday, December 1, 2025'. */
export function longDay(day: string): string {
  return fromDay(day).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
  });
}

export type DayState = { state: 'done' | 'overdue' | 'today' | 'upcoming'; text: string; color: string };

/** Where a date stands: 'in 3 days', 'tomorrow', 'today', 'overdue' (red) or 'done'. */
export function dayState(day: string, done: boolean, reference: string = today()): DayState {
  if (done) return { state: 'done', text: 'done', color: 'dimmed' };
  const days = daysBetween(reference, day);
  // Shades dark enough for small text on white (WCAG AA 4.5:1): red.9 5.5, #b34700 5.5, blue.8 5.0.
  if (days < 0) return { state: 'overdue', text: 'overdue', color: 'red.9' };
  if (days === 0) return { state: 'today', text: 'today', color: '#b34700' };
  return { state: 'upcoming', text: days === 1 ? 'tomorrow' : `in ${days} days`, color: 'blue.8' };
}

/** 'Inspection deadline · Dec 1', as the lists show a deadline. */
export function deadlineText(deadline: NonNullable<NextDeadline>, reference: string = today()): string {
  return `${deadline.label} · ${shortDay(deadline.date, reference)}`;
}

/**
 * The date pickers' placeholder is a text element, not an input's ::placeholder, so it must meet
 * the 4.5:1 contrast of text: Mantine's default (gray.5, 2.1:1) does not; gray.7 does (8.2:1).
 */
export const DATE_PICKER_STYLES = { placeholder: { color: 'var(--mantine-color-gray-7)' } } as const;

/** The clear button of a clearable date picker has no text: it needs a name (axe button-name). */
export const CLEAR_DATE_BUTTON_PROPS = { 'aria-label': 'Clear date' } as const;
