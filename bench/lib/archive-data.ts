import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { PDFDocument, PDFName } from 'pdf-lib';
import type { Db } from '../../server/db/client';
import type { Storage } from '../../server/storage/storage';
import { migratedBenchDatabase } from './dataset';

/**
 * The archive benchmark's file: one closed transaction whose checklist holds `documents` accepted
 * PDFs of `bytesEach` (a page whose content stream is incompressible bytes, so the zip stores what
 * it reads), in a database of its own, migrated as today's code migrates.
 */

export const ARCHIVE_DATABASE = 'portal_archive_bench';

export function prepareArchiveDatabase(adminUrl: string, log: (message: string) => void): Promise<string> {
  return migratedBenchDatabase(adminUrl, ARCHIVE_DATABASE, log);
}

/** A one-page PDF of about `bytes`: its content stream is random bytes. */
export async function bulkyPdf(bytes: number, title: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText(title, { x: 72, y: 700 });
  const filler = doc.context.register(doc.context.stream(randomBytes(bytes), {}));
  // Reachable from the page, so copying the page copies it, as a real scan's image would be.
  page.node.set(PDFName.of('PieceInfo'), filler);
  return Buffer.from(await doc.save());
}

export type ArchiveFile = { transactionId: string; keys: string[]; totalBytes: number };

/** The transaction, its accepted versions and their bytes in storage. */
export async function archiveFile(
  db: Db,
  storage: Storage,
  options: { documents: number; bytesEach: number },
): Promise<ArchiveFile> {
  const agent = await db.user.create({
    data: {
      email: `archive-agent-${Date.now()}@bench.test`,
      firstName: 'Archie',
      lastName: 'Bench',
      company: 'Bench Realty',
      phoneNumber: '+1 555 010 0000',
      passwordHash: 'not a real hash: nobody signs in',
      isAdminApproved: true,
    },
  });
  const labels = Array.from({ length: options.documents }, (_, i) => `Document ${i + 1}`);
  const transaction = await db.transaction.create({
    data: {
      userId: agent.id,
      streetAddress: '40 Archive Way',
      city: 'Portland',
      state: 'ME',
      zip: '04101',
      type: 'Purchase',
      role: 'Buyer',
      forms: { create: labels.map((label, position) => ({ label, position })) },
    },
    include: { forms: { orderBy: { position: 'asc' } } },
  });
  const keys: string[] = [];
  let totalBytes = 0;
  for (const form of transaction.forms) {
    const pdf = await bulkyPdf(options.bytesEach, form.label);
    const key = `transactions/${transaction.id}/${crypto.randomUUID()}-${form.label.replace(' ', '-')}.pdf`;
    await storage.put(key, Readable.from([pdf]), { contentType: 'application/pdf' });
    await db.formVersion.create({
      data: {
        formId: form.id,
        number: 1,
        fileKey: key,
        size: pdf.length,
        contentType: 'application/pdf',
        uploadedAt: new Date(),
        decisionStatus: 'accepted',
        decidedAt: new Date(),
      },
    });
    await db.transactionForm.update({
      where: { id: form.id },
      data: { fileKey: key, status: 'accepted', version: 1, submittedAt: new Date() },
    });
    keys.push(key);
    totalBytes += pdf.length;
  }
  return { transactionId: transaction.id, keys, totalBytes };
}
