import { inflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from 'pdf-lib';
import { looksBlank } from './images';

/**
 * What a PDF says about itself before anyone reviews it, read with pdf-lib: its
 * page count, whether it is encrypted, its unsigned signature fields and its blank pages. No
 * caller, no storage: bytes in, facts out. Every walk below is bounded (depth, count, bytes),
 * since the file is whatever a client sent.
 */

export type PdfFacts =
  | { kind: 'encrypted' }
  /** Built to exhaust a reader: a stream that inflates past MAX_INFLATED_BYTES, say. */
  | { kind: 'hostile' }
  /** Not a PDF pdf-lib can read (damaged, or only its first bytes are PDF). */
  | { kind: 'unreadable' }
  | { kind: 'pdf'; pages: number; unsignedSignatureFields: number; blankPages: number[] };

/** One page's content may inflate to this much; more is a decompression bomb, not a document. */
export const MAX_INFLATED_BYTES = 32 * 1024 * 1024;
/** Form fields nest; a real form is a few levels deep. */
const MAX_FIELD_DEPTH = 16;
const MAX_FIELDS = 10_000;
/** Blank scans are checked only for pages painted by one JPEG no larger than this. */
const MAX_SCAN_BYTES = 8 * 1024 * 1024;

class HostilePdf extends Error {}

/** pdf-lib's parse, with the options that read a document without changing it. */
export function loadPdf(bytes: Uint8Array): Promise<PDFDocument> {
  return PDFDocument.load(bytes, {
    ignoreEncryption: true,
    updateMetadata: false,
    throwOnInvalidObject: false,
  });
}

/**
 * Bytes outside any object (between one object's `endobj` and the next `N G obj`) a real PDF may
 * have: its header, cross-reference tables (20 bytes an object) and trailers.
 */
const LOOSE_BYTES_ALLOWED = 64 * 1024;
const LOOSE_BYTES_PER_OBJECT = 24;

/**
 * Whether pdf-lib may be given these bytes. Its parser reads a PDF from the first byte to the
 * last, and between objects it crawls: a megabyte of bytes that are no object costs it seconds
 * (7 MiB took 167 s here). A PDF is objects end to end, so the bytes outside them are counted
 * first (native searches, linear) and a file that is mostly something else is not parsed.
 */
export function objectsEndToEnd(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const objectStart = /\d+[ \t\r\n\f\0]+\d+[ \t\r\n\f\0]+obj\b/g;
  let loose = 0;
  let objects = 0;
  let position = 0;
  for (;;) {
    objectStart.lastIndex = position;
    const match = objectStart.exec(text);
    const start = match ? match.index : text.length;
    loose += start - position;
    if (loose > LOOSE_BYTES_ALLOWED + LOOSE_BYTES_PER_OBJECT * objects) return false;
    if (!match) return objects > 0;
    objects += 1;
    const end = text.indexOf('endobj', start);
    if (end < 0) return false;
    position = end + 'endobj'.length;
  }
}

export async function inspectPdf(bytes: Uint8Array): Promise<PdfFacts> {
  if (!objectsEndToEnd(bytes)) return { kind: 'unreadable' };
  let doc: PDFDocument;
  let pageCount: number;
  try {
    doc = await loadPdf(bytes);
    if (doc.isEncrypted) return { kind: 'encrypted' };
    pageCount = doc.getPageCount();
  } catch (error) {
    // A page tree that loops or nests without end overflows the stack: hostile, not merely damaged.
    return error instanceof RangeError ? { kind: 'hostile' } : { kind: 'unreadable' };
  }
  if (pageCount === 0) return { kind: 'unreadable' };
  return inspectDocument(doc);
}

/**
 * The facts of a document pdf-lib holds. `blankPages`, when known (a packet's part: its pages
 * were checked when the packet was uploaded), is taken as given: the scans are not decoded again.
 */
export async function inspectDocument(
  doc: PDFDocument,
  known: { blankPages?: number[] } = {},
): Promise<PdfFacts> {
  const pageCount = doc.getPageCount();
  try {
    const unsignedSignatureFields = countUnsignedSignatureFields(doc);
    let blankPages = known.blankPages;
    if (!blankPages) {
      blankPages = [];
      for (const [index, page] of doc.getPages().entries()) {
        if (await pageLooksBlank(doc, page.node)) blankPages.push(index + 1);
      }
    }
    return { kind: 'pdf', pages: pageCount, unsignedSignatureFields, blankPages };
  } catch (error) {
    if (error instanceof HostilePdf || error instanceof RangeError) return { kind: 'hostile' };
    // Readable enough to count its pages, not to check them: its page count still helps.
    return { kind: 'pdf', pages: pageCount, unsignedSignatureFields: 0, blankPages: [] };
  }
}

const lookup = (doc: PDFDocument, value: PDFObject | undefined): PDFObject | undefined =>
  value instanceof PDFRef ? doc.context.lookup(value) : value;

/**
 * Signature fields (FT /Sig, inherited from a parent field too) without a value (/V): a signer
 * has not signed them. Read from the AcroForm's field tree directly, not through pdf-lib's form
 * API, which throws on fields whose names are not strings.
 */
function countUnsignedSignatureFields(doc: PDFDocument): number {
  const acroForm = lookup(doc, doc.catalog.get(PDFName.of('AcroForm')));
  if (!(acroForm instanceof PDFDict)) return 0;
  const roots = lookup(doc, acroForm.get(PDFName.of('Fields')));
  if (!(roots instanceof PDFArray)) return 0;
  const seen = new Set<PDFDict>();
  let unsigned = 0;
  const walk = (array: PDFArray, inheritedType: PDFObject | undefined, depth: number) => {
    if (depth > MAX_FIELD_DEPTH) throw new HostilePdf();
    for (let i = 0; i < array.size(); i += 1) {
      const field = lookup(doc, array.get(i));
      if (!(field instanceof PDFDict) || seen.has(field)) continue;
      seen.add(field);
      if (seen.size > MAX_FIELDS) throw new HostilePdf();
      const type = field.get(PDFName.of('FT')) ?? inheritedType;
      const kids = lookup(doc, field.get(PDFName.of('Kids')));
      // A field with kids that are fields (they have a /T) is a parent; widgets alone are its views.
      const fieldKids =
        kids instanceof PDFArray &&
        kids.asArray().some((kid) => {
          const dict = lookup(doc, kid);
          return dict instanceof PDFDict && dict.has(PDFName.of('T'));
        });
      if (fieldKids) {
        walk(kids, type, depth + 1);
        continue;
      }
      if (type === PDFName.of('Sig') && !field.has(PDFName.of('V'))) unsigned += 1;
    }
  };
  walk(roots, undefined, 0);
  return unsigned;
}

/** Operators that put marks on a page: text, paths, shadings, images and forms, inline images. */
const PAINTING = new Set([
  'Tj',
  'TJ',
  "'",
  '"',
  'f',
  'F',
  'f*',
  'S',
  's',
  'B',
  'B*',
  'b',
  'b*',
  'sh',
  'Do',
  'BI',
]);
/** Annotations that show content of their own (a filled field, a stamp); links and popups do not. */
const MARKING_ANNOTATIONS = new Set([
  'Widget',
  'FreeText',
  'Stamp',
  'Ink',
  'Square',
  'Circle',
  'Line',
  'Polygon',
]);

/** The operators of a content stream, in order (strings, arrays and dictionaries skipped). */
function operatorsOf(content: Buffer): string[] {
  const text = content.toString('latin1');
  const operators: string[] = [];
  // Strings (with escapes and nesting), hex strings, names, numbers and brackets are operands;
  // what is left are operators. Inline image data (BI ... ID <bytes> EI) ends the scan: BI is
  // itself a painting operator, so nothing after it changes the answer.
  const token =
    /\((?:\\.|[^\\)])*\)|<<|>>|<[0-9A-Fa-f\s]*>|\/[^\s/[\]()<>{}%]*|%[^\r\n]*|[[\]{}]|[^\s/[\]()<>{}%]+/g;
  for (let match = token.exec(text); match; match = token.exec(text)) {
    const word = match[0];
    const first = word[0];
    if (first === '(' || first === '<' || first === '>' || first === '/' || first === '%') continue;
    if (first === '[' || first === ']' || first === '{' || first === '}') continue;
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word) || word === 'true' || word === 'false' || word === 'null')
      continue;
    operators.push(word);
    if (word === 'BI') break;
  }
  return operators;
}

/** The decoded bytes of a stream: FlateDecode (or none); null for filters not worth decoding here. */
function decodedContent(stream: PDFObject | undefined): Buffer | null {
  if (!(stream instanceof PDFRawStream)) return stream instanceof PDFStream ? null : Buffer.alloc(0);
  const filter = stream.dict.get(PDFName.of('Filter'));
  const raw = Buffer.from(stream.contents);
  if (filter === undefined) return raw;
  const flate = PDFName.of('FlateDecode');
  const single = filter instanceof PDFArray && filter.size() === 1 ? filter.get(0) : filter;
  if (single !== flate) return null;
  try {
    return inflateSync(raw, { maxOutputLength: MAX_INFLATED_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError)
      throw new HostilePdf();
    return null;
  }
}

/**
 * A page with no mark on it, or whose one mark is a scan of an empty sheet (a JPEG, checked with
 * sharp). Anything this cannot decode counts as not blank: a false "blank" would mislead.
 */
async function pageLooksBlank(doc: PDFDocument, page: PDFDict): Promise<boolean> {
  const annotations = lookup(doc, page.get(PDFName.of('Annots')));
  if (annotations instanceof PDFArray) {
    for (const entry of annotations.asArray()) {
      const annotation = lookup(doc, entry);
      const subtype = annotation instanceof PDFDict ? annotation.get(PDFName.of('Subtype')) : undefined;
      if (subtype instanceof PDFName && MARKING_ANNOTATIONS.has(subtype.decodeText())) return false;
    }
  }
  const contents = lookup(doc, page.get(PDFName.of('Contents')));
  const streams =
    contents instanceof PDFArray ? contents.asArray().map((item) => lookup(doc, item)) : [contents];
  let inflated = 0;
  const operators: string[] = [];
  for (const stream of streams) {
    if (stream === undefined) continue;
    const bytes = decodedContent(stream);
    if (bytes === null) return false;
    inflated += bytes.length;
    if (inflated > MAX_INFLATED_BYTES) throw new HostilePdf();
    operators.push(...operatorsOf(bytes));
  }
  const painting = operators.filter((operator) => PAINTING.has(operator));
  if (painting.length === 0) return true;
  if (painting.length !== 1 || painting[0] !== 'Do') return false;
  return scanLooksBlank(doc, page);
}

/** The one XObject a page paints, when it is a JPEG image: a scanned sheet. */
async function scanLooksBlank(doc: PDFDocument, page: PDFDict): Promise<boolean> {
  const resources = lookup(doc, page.get(PDFName.of('Resources')));
  const xObjects =
    resources instanceof PDFDict ? lookup(doc, resources.get(PDFName.of('XObject'))) : undefined;
  if (!(xObjects instanceof PDFDict)) return false;
  // With one Do and one XObject in the page's resources, the one painted is that one.
  const entries = xObjects.entries();
  if (entries.length !== 1) return false;
  const image = lookup(doc, entries[0]?.[1]);
  if (!(image instanceof PDFRawStream)) return false;
  if (image.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) return false;
  const filter = image.dict.get(PDFName.of('Filter'));
  const dct = PDFName.of('DCTDecode');
  if (filter !== dct && !(filter instanceof PDFArray && filter.size() === 1 && filter.get(0) === dct))
    return false;
  if (image.contents.length > MAX_SCAN_BYTES) return false;
  try {
    return await looksBlank(Buffer.from(image.contents));
  } catch {
    return false;
  }
}
