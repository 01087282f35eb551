/**
 * The "long localized date-time" every date is shown in: the browser's locale and time zone, e.g.
 * "March 4, 2025 at 2:05 PM" in en-US. An unreadable value is shown as it came.
 */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' });
}

/**
 * A moment of the next hours as the user reads it: the time alone when it falls today ("11:32 AM"
 * in en-US), else with its date. The browser's locale and time zone.
 */
export function formatTimeSoon(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  if (date.toDateString() === now.toDateString())
    return date.toLocaleTimeString(undefined, { timeStyle: 'short' });
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
