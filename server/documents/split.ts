import {
  type PDFDocument as Doc,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFRef,
} from 'pdf-lib';
import { inspectDocument, loadPdf, type PdfFacts } from './pdf';

/**
 * A packet cut into documents: each part a new PDF of the packet's pages, in the
 * order given. Pages are copied with what they use (fonts, images, their form fields' widgets)
 * and nothing else, and the parts are made one at a time, so at most one part's copy is held
 * besides the packet. Each part comes with its facts (inspectDocument).
 */
export async function* splitPdf(
  bytes: Uint8Array,
  parts: ReadonlyArray<readonly number[]>,
  packetBlankPages: readonly number[],
): AsyncGenerator<{ bytes: Uint8Array; facts: PdfFacts }> {
  const packet = await loadPdf(bytes);
  const blank = new Set(packetBlankPages);
  for (const pages of parts) {
    const part = await PDFDocument.create({ updateMetadata: false });
    const copied = await part.copyPages(
      packet,
      pages.map((page) => page - 1),
    );
    for (const page of copied) part.addPage(page);
    keepFormFields(part);
    // Checked here, from the document in memory: its fields counted, its blank pages those of
    // the packet (checked at upload), renumbered.
    const facts = await inspectDocument(part, {
      blankPages: pages.flatMap((page, index) => (blank.has(page) ? [index + 1] : [])),
    });
    yield { bytes: await part.save({ useObjectStreams: true }), facts };
  }
}

/** Parent chains longer than this are not a form's. */
const MAX_PARENT_DEPTH = 16;

/**
 * copyPages brings each page's widgets and, through /Parent, the fields they belong to, but not
 * the catalog's AcroForm that lists the fields: without it a viewer shows no fields and the
 * signature pre-check finds none. The part gets an AcroForm listing the top field of each widget.
 */
function keepFormFields(doc: Doc): void {
  const lookup = (value: PDFObject | undefined) =>
    value instanceof PDFRef ? doc.context.lookup(value) : value;
  const roots: PDFRef[] = [];
  for (const page of doc.getPages()) {
    const annotations = lookup(page.node.get(PDFName.of('Annots')));
    if (!(annotations instanceof PDFArray)) continue;
    for (const entry of annotations.asArray()) {
      if (!(entry instanceof PDFRef)) continue;
      const widget = lookup(entry);
      if (!(widget instanceof PDFDict) || widget.get(PDFName.of('Subtype')) !== PDFName.of('Widget'))
        continue;
      let ref: PDFRef = entry;
      let dict: PDFDict = widget;
      for (let depth = 0; depth < MAX_PARENT_DEPTH; depth += 1) {
        const parent = dict.get(PDFName.of('Parent'));
        const parentDict = lookup(parent);
        if (!(parent instanceof PDFRef) || !(parentDict instanceof PDFDict)) break;
        ref = parent;
        dict = parentDict;
      }
      if (dict.has(PDFName.of('FT')) && !roots.includes(ref)) roots.push(ref);
    }
  }
  if (roots.length === 0) return;
  doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: roots }));
}
