import type { ByteRange } from '../storage/storage';

/**
 * The Range header of a download (RFC 9110 section 14), for the /files route: pdf.js asks for a
 * large PDF 64 KiB at a time, so a 300-page scan shows its first page without the whole file.
 * Only single ranges are served. A header with several ranges, another unit or any syntax error
 * is ignored and the whole file is sent (RFC 9110 14.2: a server MAY ignore Range), so nothing a
 * client writes there can turn into an error.
 */

/** One range as asked: from `first` to `last` (or to the end), or the last `suffix` bytes. */
export type RangeRequest = { first: number; last: number | undefined } | { suffix: number };

const DIGITS = /^\d+$/;

/** The one range a header asks for, or null when the header is to be ignored. */
export function parseRangeHeader(header: string | undefined): RangeRequest | null {
  if (header === undefined) return null;
  const separator = header.indexOf('=');
  if (separator < 0 || header.slice(0, separator).trim().toLowerCase() !== 'bytes') return null;
  // An empty element of the list (`bytes=0-9,`) is allowed by the list syntax and means nothing.
  const specs = header
    .slice(separator + 1)
    .split(',')
    .map((spec) => spec.trim())
    .filter(Boolean);
  if (specs.length !== 1) return null;
  const [firstText = '', lastText = '', ...rest] = (specs[0] ?? '').split('-');
  if (rest.length > 0) return null;
  if (firstText === '') return DIGITS.test(lastText) ? { suffix: Number(lastText) } : null;
  if (!DIGITS.test(firstText) || (lastText !== '' && !DIGITS.test(lastText))) return null;
  const first = Number(firstText);
  const last = lastText === '' ? undefined : Number(lastText);
  // `bytes=9-3` is not a range at all (RFC 9110 14.1.1): the header is invalid, so ignored.
  if (last !== undefined && last < first) return null;
  return { first, last };
}

/**
 * The bytes of a file of `size` bytes that a range names (RFC 9110 14.1.2): a last position past
 * the end stops at the end, a suffix longer than the file is the whole file. `unsatisfiable`: it
 * names no byte of the file (it starts past the end, a suffix of 0, any range of an empty file),
 * answered 416.
 */
export function resolveRange(request: RangeRequest, size: number): ByteRange | 'unsatisfiable' {
  if ('suffix' in request) {
    if (request.suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - request.suffix), end: size - 1 };
  }
  if (request.first >= size) return 'unsatisfiable';
  return { start: request.first, end: Math.min(request.last ?? size - 1, size - 1) };
}
