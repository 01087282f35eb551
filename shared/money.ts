/**
 * An amount of integer cents as people read it, $8,950.00, worked out from the digits alone: no
 * division in floating point, so no amount is ever off by a cent, however large.
 */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError('cents must be a whole number');
  const digits = Math.abs(cents).toString().padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}$${whole}.${digits.slice(-2)}`;
}
