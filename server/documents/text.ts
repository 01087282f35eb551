/**
 * The text of a PDF's first pages, read with pdf.js (its Node build): what the checklist
 * suggestions (shared/intake/suggestions.ts) rank. pdf.js runs in this thread here (no worker in
 * Node), so only a few pages are read, and a document it cannot read has no text.
 */

/** Enough to find a title and the words of the first document of a packet. */
export const TEXT_PAGES = 3;
/** Per page: a page of a form holds a few thousand characters. */
const MAX_PAGE_CHARS = 20_000;

export async function firstPagesText(bytes: Uint8Array, pageLimit = TEXT_PAGES): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js takes ownership of what it is given (it may transfer it): a copy, so the caller's
  // bytes stay usable.
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    const texts: string[] = [];
    for (let number = 1; number <= Math.min(doc.numPages, pageLimit); number += 1) {
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
      texts.push(text.slice(0, MAX_PAGE_CHARS));
      page.cleanup();
    }
    return texts;
  } catch {
    return [];
  } finally {
    await task.destroy();
  }
}
