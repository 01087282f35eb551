import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { qpdfAvailable } from '../../documents/qpdf';
import { transactionFileKey } from '../../storage/keys';
import { localStorage } from '../../storage/local';
import type { Storage } from '../../storage/storage';
import type { ArchivedDocument } from './contents';
import { FILE_PDF_MAX_BYTES, filePdf, writeFilePdf } from './file-pdf';

/**
 * file.pdf binds every accepted document, however large the file: with qpdf the documents are
 * bound from disk, past the 16 MiB that the in-memory binding (the fallback without qpdf) holds.
 */

let root: string;
let scratch: string;
let storage: Storage;
const transactionId = randomUUID();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'file-pdf-store-'));
  scratch = await mkdtemp(join(tmpdir(), 'file-pdf-scratch-'));
  storage = localStorage({
    root,
    publicBaseUrl: 'http://portal.test',
    signingKey: randomBytes(32),
    clock: systemClock,
  });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

/** A one-page PDF of about `bytes`, most of it an incompressible attachment. */
async function bulkyPdf(title: string, bytes: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText(title);
  await doc.attach(randomBytes(bytes), 'padding.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await doc.save());
}

async function stored(title: string, bytes: Buffer): Promise<ArchivedDocument> {
  const key = transactionFileKey(transactionId, title, 'pdf');
  await storage.put(key, Readable.from([bytes]), { contentType: 'application/pdf' });
  return { path: `documents/${title}.pdf`, title, key, contentType: 'application/pdf', size: bytes.length };
}

describe('file.pdf', () => {
  it('binds every document past 16 MiB with qpdf, where the in-memory binding stops', async () => {
    expect(await qpdfAvailable()).toBe(true);
    const each = 4 * 1024 * 1024;
    const documents: ArchivedDocument[] = [];
    for (let n = 1; n <= 6; n++)
      documents.push(await stored(`Disclosure ${n}`, await bulkyPdf(`Doc ${n}`, each)));
    const total = documents.reduce((sum, document) => sum + document.size, 0);
    expect(total).toBeGreaterThan(FILE_PDF_MAX_BYTES);

    const path = await writeFilePdf(storage, '1 Main St', documents, scratch);
    const bound = await PDFDocument.load(await readFile(path));
    // The contents page, then one page per document: all six.
    expect(bound.getPageCount()).toBe(1 + documents.length);

    const inMemory = await PDFDocument.load(await filePdf(storage, '1 Main St', documents));
    expect(inMemory.getPageCount()).toBeLessThan(1 + documents.length);
  });
});
