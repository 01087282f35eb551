import { formatCents } from '../../../shared/money';

/**
 * Money and percents as people type and read them, exactly: "1,234.56" is 123456 cents and
 * "12.345" is 12345 thousandths of a percent, read digit by digit, never through a float that
 * could land a cent off.
 */

/** A dollar amount: digits with optional thousands commas (in threes), at most two decimals. */
const DOLLARS = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d{0,2}))?$/;
/** A percent: digits, at most three decimals, an optional % after. */
const PERCENT = /^(\d+)?(?:\.(\d{0,3}))?\s*%?$/;

/**
 * Typed dollars as integer cents: null for an empty field, NaN for text that is no amount
 * ("12.345", "1,23", "-5", "abc") or one too large to hold exactly.
 */
export function centsOfDollars(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const match = DOLLARS.exec(trimmed);
  const whole = match?.[1];
  const fraction = match?.[2];
  if (!match || (whole === undefined && !fraction)) return Number.NaN;
  const cents = Number((whole ?? '0').replaceAll(',', '')) * 100 + Number((fraction ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : Number.NaN;
}

/** A typed percent as a number with at most 3 decimals: null for an empty field, NaN for no percent. */
export function percentOfText(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const match = PERCENT.exec(trimmed);
  const whole = match?.[1];
  const fraction = match?.[2];
  if (!match || (whole === undefined && !fraction)) return Number.NaN;
  const thousandths = Number(whole ?? '0') * 1000 + Number((fraction ?? '').padEnd(3, '0'));
  // One division of an exact integer: the nearest number to what was typed, as JSON would read it.
  return Number.isSafeInteger(thousandths) ? thousandths / 1000 : Number.NaN;
}

/** Integer cents as dollars to type again, without the sign: 123456 -> "1,234.56". */
export function dollarsText(cents: number): string {
  return formatCents(cents).replace('$', '');
}

export { formatCents };

/** A percent as the fields show it again: 12.5 -> "12.5". */
export function percentText(percent: number): string {
  return String(percent);
}
