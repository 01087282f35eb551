import type { Cda } from '../../../shared/schemas/commission';

/** What a CDA, its lines and its refusals read as on the page. */

export const CDA_STATUS_BADGES: Record<Cda['status'], { label: string; color: string }> = {
  issued: { label: 'Issued', color: 'blue' },
  paid: { label: 'Paid', color: 'green' },
  superseded: { label: 'Superseded', color: 'gray' },
};

export const CDA_LINE_KIND_LABELS: Record<Cda['lines'][number]['kind'], string> = {
  referral: 'Referral',
  brokerage: 'Brokerage share',
  agent: 'Agent share',
  fee: 'Transaction fee',
};

/** A SHA-256 as a glance tells it apart: its first and last characters. */
export function shortHash(sha256: string): string {
  return sha256.length > 16 ? `${sha256.slice(0, 8)}…${sha256.slice(-8)}` : sha256;
}

/** A calendar day (YYYY-MM-DD) in the browser's zone. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * When a CDA marked paid on `day` was paid: today is now (left to the server's clock, so it is
 * never after the server's now nor before an issue earlier today); an earlier day is the end of
 * that day in the browser's zone, so it stays after an issue that same day.
 */
export function paidAtOf(day: string, now: Date = new Date()): string | undefined {
  if (day === localDay(now)) return undefined;
  return new Date(`${day}T23:59:59`).toISOString();
}
