import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/** An uploaded packet as the splitter reads it: its pages' text and small pictures of them. */
export type PacketPdf = {
  pageCount: number;
  /** Each page's text in page order, as pdf.js reads it (empty for a scan). */
  readPageTexts: () => Promise<string[]>;
  /** A picture of the page `width` CSS pixels wide, as a data URL. */
  drawThumbnail: (page: number, width: number) => Promise<string>;
  close: () => void;
};

/**
 * Opens the PDF at a same-origin link with pdf.js, imported on first use so it stays out of every
 * other chunk. No eval (the CSP has none), and the worker is a same-origin asset, as in the
 * review panel's viewer.
 */
export async function openPacketPdf(url: string): Promise<PacketPdf> {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const data = new Uint8Array(await response.arrayBuffer());
  const doc = await pdfjs.getDocument({ data, isEvalSupported: false }).promise;

  const readPageTexts = async () => {
    const texts: string[] = [];
    for (let number = 1; number <= doc.numPages; number += 1) {
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      // Line ends kept: the scorer looks for a title near the top of the text.
      texts.push(
        content.items.map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ' '}` : '')).join(''),
      );
    }
    return texts;
  };

  const drawThumbnail = async (number: number, width: number) => {
    const page = await doc.getPage(number);
    const ratio = window.devicePixelRatio || 1;
    const viewport = page.getViewport({ scale: (width * ratio) / page.getViewport({ scale: 1 }).width });
    const canvas = document.createElement('canvas');
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    await page.render({ canvas, viewport }).promise;
    page.cleanup();
    return canvas.toDataURL('image/png');
  };

  return { pageCount: doc.numPages, readPageTexts, drawThumbnail, close: () => void doc.destroy() };
}
