import { createHash } from 'node:crypto';
import { DEFAULT_BYTE_RANGE_PLACEHOLDER } from '@signpdf/utils';
import type { SigningIdentity } from './identity';
import { detachedSignature } from './pkcs7';

/**
 * Fills the signature placeholder (@signpdf/placeholder-pdf-lib's) of a saved PDF, in the
 * saved bytes themselves: the /ByteRange written over its placeholder, the two ranges digested
 * where they lie, the PKCS#7 written into /Contents. @signpdf/signpdf does the same by copying
 * the whole document three times, which a 25 MB document cannot afford in memory.
 */

const PLACEHOLDER = `/${DEFAULT_BYTE_RANGE_PLACEHOLDER}`;

/** Where the placeholder is; ours is the last one (our objects are written after the document's). */
function placeholderOf(pdf: Buffer): {
  byteRangeAt: number;
  byteRangeEnd: number;
  contentsStart: number;
  contentsEnd: number;
} {
  const byteRangeAt = pdf.lastIndexOf('/ByteRange');
  const open = pdf.indexOf('[', byteRangeAt);
  const byteRangeEnd = pdf.indexOf(']', open) + 1;
  const values = pdf
    .subarray(open + 1, byteRangeEnd - 1)
    .toString('latin1')
    .split(/\s+/)
    .filter((value) => value !== '');
  if (byteRangeAt < 0 || values.join(' ') !== `0 ${PLACEHOLDER} ${PLACEHOLDER} ${PLACEHOLDER}`) {
    throw new Error('The prepared PDF has no signature placeholder');
  }
  const contentsStart = pdf.indexOf('<', pdf.indexOf('/Contents', byteRangeEnd));
  const contentsEnd = pdf.indexOf('>', contentsStart);
  if (contentsStart < 0 || contentsEnd < 0) throw new Error('The prepared PDF has no signature /Contents');
  return { byteRangeAt, byteRangeEnd, contentsStart, contentsEnd };
}

/** Signs the prepared PDF in place and returns it: everything but /Contents' hex digits is signed. */
export function signInPlace(prepared: Uint8Array, identity: SigningIdentity, signingTime: Date): Uint8Array {
  const pdf = Buffer.from(prepared.buffer, prepared.byteOffset, prepared.byteLength);
  const { byteRangeAt, byteRangeEnd, contentsStart, contentsEnd } = placeholderOf(pdf);
  // The signed ranges: up to and with the '<' of /Contents, and from its '>' to the end.
  const afterContents = contentsEnd + 1;
  const range = [0, contentsStart, afterContents, pdf.length - afterContents];
  const byteRange = `/ByteRange [${range.join(' ')}]`;
  const room = byteRangeEnd - byteRangeAt;
  if (byteRange.length > room) throw new Error('The signature placeholder has no room for the byte range');
  pdf.write(byteRange.padEnd(room, ' '), byteRangeAt, 'latin1');

  const digest = createHash('sha256')
    .update(pdf.subarray(0, contentsStart))
    .update(pdf.subarray(afterContents))
    .digest();
  const hex = detachedSignature(identity, digest, signingTime).toString('hex');
  const digits = contentsEnd - contentsStart - 1;
  if (hex.length > digits)
    throw new Error(`The signature needs ${hex.length} hex digits, the placeholder has ${digits}`);
  pdf.write(hex.padEnd(digits, '0'), contentsStart + 1, 'latin1');
  return prepared;
}
