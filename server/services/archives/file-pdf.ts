import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib';
import { loadPdf } from '../../documents/pdf';
import { bindPdfs, pageCountOf, qpdfAvailable } from '../../documents/qpdf';
import type { Storage } from '../../storage/storage';
import { printable } from '../commission/cda-pdf';
import type { ArchivedDocument } from './contents';

/**
 * file.pdf: one PDF to read the whole file in, a contents page first, then every accepted
 * document's pages (PDFs copied, PNG and JPEG photos one page each). With qpdf installed the
 * documents are bound from files on disk by qpdf, in constant memory whatever their size. Without
 * it, pdf-lib binds them in memory, which holds every input and the whole output, so only up to
 * FILE_PDF_MAX_BYTES of documents go in; the rest (and other types) are listed on the contents
 * page as being in documents/, where every file is.
 */

/** Without qpdf, input bound into file.pdf at most: about three times this in memory while it is made. */
export const FILE_PDF_MAX_BYTES = 16 * 1024 * 1024;

const LETTER = { width: 612, height: 792 } as const;
const MARGIN = 54;
const LINE = 15;
const SIZE = { title: 16, text: 10 } as const;
const LINES_PER_PAGE = Math.floor((LETTER.height - 2 * MARGIN - 2 * LINE) / LINE);

type Entry = { title: string; path: string; pages: [number, number] | null; note?: string };

async function bytesOf(storage: Storage, key: string): Promise<Buffer | null> {
  const file = await storage.open(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of file.body as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The document's pages appended to `out`; how many, or null when they cannot be read. */
async function append(out: PDFDocument, document: ArchivedDocument, bytes: Buffer): Promise<number | null> {
  try {
    if (document.contentType === 'application/pdf') {
      const source = await loadPdf(bytes);
      const pages = await out.copyPages(source, source.getPageIndices());
      for (const page of pages) out.addPage(page);
      return pages.length;
    }
    const image =
      document.contentType === 'image/png' ? await out.embedPng(bytes) : await out.embedJpg(bytes);
    const scale = Math.min(
      1,
      (LETTER.width - 2 * MARGIN) / image.width,
      (LETTER.height - 2 * MARGIN) / image.height,
    );
    const page = out.addPage([LETTER.width, LETTER.height]);
    const width = image.width * scale;
    const height = image.height * scale;
    page.drawImage(image, { x: (LETTER.width - width) / 2, y: (LETTER.height - height) / 2, width, height });
    return 1;
  } catch {
    return null;
  }
}

const BINDABLE = new Set(['application/pdf', 'image/png', 'image/jpeg']);

function drawContents(out: PDFDocument, font: PDFFont, bold: PDFFont, heading: string, entries: Entry[]) {
  const pagesNeeded = Math.max(1, Math.ceil(entries.length / LINES_PER_PAGE));
  let page: PDFPage | undefined;
  let y = 0;
  entries.forEach((entry, index) => {
    if (index % LINES_PER_PAGE === 0) {
      page = out.insertPage(Math.floor(index / LINES_PER_PAGE), [LETTER.width, LETTER.height]);
      y = LETTER.height - MARGIN;
      page.drawText(printable(bold, heading), { x: MARGIN, y, size: SIZE.title, font: bold });
      y -= 2 * LINE;
    }
    const where = entry.pages
      ? `pages ${entry.pages[0] + pagesNeeded}-${entry.pages[1] + pagesNeeded}`
      : `in ${entry.path}${entry.note ? ` (${entry.note})` : ''}`;
    const text = printable(font, `${entry.title}: ${where}`);
    page?.drawText(text.length > 110 ? `${text.slice(0, 109)}…` : text, {
      x: MARGIN,
      y,
      size: SIZE.text,
      font,
    });
    y -= LINE;
  });
  if (entries.length === 0) {
    page = out.insertPage(0, [LETTER.width, LETTER.height]);
    page.drawText(printable(bold, heading), {
      x: MARGIN,
      y: LETTER.height - MARGIN,
      size: SIZE.title,
      font: bold,
    });
    page.drawText('No accepted documents.', {
      x: MARGIN,
      y: LETTER.height - MARGIN - 2 * LINE,
      size: SIZE.text,
      font,
    });
  }
}

/**
 * Writes file.pdf into `dir` (a temporary folder the caller removes) and returns its path: bound
 * by qpdf when it is installed, else by pdf-lib in memory, capped.
 */
export async function writeFilePdf(
  storage: Storage,
  heading: string,
  documents: readonly ArchivedDocument[],
  dir: string,
): Promise<string> {
  const output = join(dir, 'file.pdf');
  if (await qpdfAvailable()) await bindOnDisk(storage, heading, documents, dir, output);
  else await writeFile(output, await filePdf(storage, heading, documents));
  return output;
}

/** Every bindable document written to a file of its own, then bound by qpdf behind the contents. */
async function bindOnDisk(
  storage: Storage,
  heading: string,
  documents: readonly ArchivedDocument[],
  dir: string,
  output: string,
): Promise<void> {
  const entries: Entry[] = [];
  const inputs: string[] = [];
  let pages = 0;
  for (const [index, document] of documents.entries()) {
    const listed = { title: document.title, path: document.path, pages: null };
    if (!BINDABLE.has(document.contentType)) {
      entries.push(listed);
      continue;
    }
    const file = join(dir, `${index}.pdf`);
    const written =
      document.contentType === 'application/pdf'
        ? await copyOut(storage, document.key, file)
        : await photoPageOut(storage, document, file);
    const count = written ? await pageCountOf(file) : null;
    if (count === null) {
      entries.push({ ...listed, note: 'could not be read as a document' });
      continue;
    }
    inputs.push(file);
    entries.push({ ...listed, pages: [pages + 1, pages + count] });
    pages += count;
  }
  const contents = await PDFDocument.create();
  const font = await contents.embedFont(StandardFonts.Helvetica);
  const bold = await contents.embedFont(StandardFonts.HelveticaBold);
  drawContents(contents, font, bold, heading, entries);
  const contentsFile = join(dir, 'contents.pdf');
  await writeFile(contentsFile, await contents.save());
  await bindPdfs([contentsFile, ...inputs], output);
}

async function copyOut(storage: Storage, key: string, file: string): Promise<boolean> {
  const stored = await storage.open(key);
  if (!stored) return false;
  await pipeline(stored.body, createWriteStream(file));
  return true;
}

/** A photo as a one-page PDF (one image in memory at a time). */
async function photoPageOut(storage: Storage, document: ArchivedDocument, file: string): Promise<boolean> {
  const bytes = await bytesOf(storage, document.key);
  if (!bytes) return false;
  const page = await PDFDocument.create();
  if ((await append(page, document, bytes)) === null) return false;
  await writeFile(file, await page.save());
  return true;
}

/** file.pdf made by pdf-lib in memory: documents bound up to `maxBytes` of input. */
export async function filePdf(
  storage: Storage,
  heading: string,
  documents: readonly ArchivedDocument[],
  maxBytes = FILE_PDF_MAX_BYTES,
): Promise<Buffer> {
  const out = await PDFDocument.create();
  const font = await out.embedFont(StandardFonts.Helvetica);
  const bold = await out.embedFont(StandardFonts.HelveticaBold);
  const entries: Entry[] = [];
  let bound = 0;
  for (const document of documents) {
    const listed = { title: document.title, path: document.path, pages: null };
    if (!BINDABLE.has(document.contentType)) {
      entries.push(listed);
      continue;
    }
    const size = (await storage.size(document.key)) ?? 0;
    if (bound + size > maxBytes) {
      entries.push({ ...listed, note: 'not bound into this PDF: the PDF is kept to a readable size' });
      continue;
    }
    const bytes = await bytesOf(storage, document.key);
    const first = out.getPageCount() + 1;
    const count = bytes ? await append(out, document, bytes) : null;
    if (count === null || count === 0) {
      entries.push({ ...listed, note: 'could not be read as a document' });
      continue;
    }
    bound += size;
    entries.push({ ...listed, pages: [first, first + count - 1] });
  }
  drawContents(out, font, bold, heading, entries);
  return Buffer.from(await out.save({ useObjectStreams: true }));
}
