/**
 * The spec's "long localized date-time" (section 2): the browser's locale and time zone, e.g.
 * "March 4, 2025 at 2:05 PM" in en-US. An unreadable value is shown as it came.
 */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' });
}
