import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { archiveMessages } from '../../../shared/archive-messages';
import { AUDIT_CSV_PATH, AUDIT_JSON_PATH, FILE_PDF_PATH } from '../../archive/manifest';
import { signManifest } from '../../archive/signing-key';
import { ArchiveWriter, hashingTap } from '../../archive/write';
import type { ServiceContext } from '../context';
import { archivedAuditEvents, auditCsv, auditJson } from './audit-files';
import { archivedDocuments } from './contents';
import { writeFilePdf } from './file-pdf';
import { archiveKeyOf } from './key';

/**
 * The archives:seal job: one close of a transaction sealed into a zip in storage (documents,
 * file.pdf, the audit trail, a signed manifest). Idempotent: the archive's row was made with the
 * close; a sealed row is left alone, and a re-run after a crash writes the same storage key again
 * (the row's id names it), so a close never has two archives.
 */

export type SealInput = { transactionId: string; closedAt: Date };

/** The zip's key: in the transaction's folder, named by the archive's id. */
export const archiveStorageKey = (transactionId: string, archiveId: string) =>
  `transactions/${transactionId}/${archiveId}-archive.zip`;

export async function sealArchive(
  ctx: ServiceContext,
  input: SealInput,
  run: { lastAttempt: boolean } = { lastAttempt: false },
): Promise<{ archiveId: string; sealed: boolean }> {
  const where = { transactionId_closedAt: { transactionId: input.transactionId, closedAt: input.closedAt } };
  // Made with the close; an upsert still, so a job added by hand or before the row still works.
  const archive = await ctx.db.transactionArchive.upsert({
    where,
    create: { transactionId: input.transactionId, closedAt: input.closedAt },
    update: {},
  });
  if (archive.status === 'sealed') return { archiveId: archive.id, sealed: false };
  try {
    const facts = await writeArchive(ctx, input, archive.id);
    await ctx.db.transactionArchive.updateMany({
      where: { id: archive.id, status: { not: 'sealed' } },
      data: { status: 'sealed', error: null, ...facts },
    });
    ctx.log.info({ archiveId: archive.id, bytes: facts.bytes }, 'archive sealed');
    return { archiveId: archive.id, sealed: true };
  } catch (error) {
    // The job's retries try again; after the last one the card says so instead of waiting forever.
    if (run.lastAttempt)
      await ctx.db.transactionArchive.updateMany({
        where: { id: archive.id, status: 'preparing' },
        data: { status: 'failed', error: archiveMessages.sealFailed },
      });
    throw error;
  }
}

async function writeArchive(ctx: ServiceContext, input: SealInput, archiveId: string) {
  const { storage, clock } = ctx.deps;
  const key = await archiveKeyOf(ctx.deps);
  const transaction = await ctx.db.transaction.findUniqueOrThrow({
    where: { id: input.transactionId },
    select: { streetAddress: true, city: true, state: true, zip: true },
  });
  const sealedAt = clock.now();
  const storageKey = archiveStorageKey(input.transactionId, archiveId);
  const writer = new ArchiveWriter(sealedAt);
  const zip = hashingTap();
  const { tap } = zip;
  // file.pdf is bound on disk, beside the documents it is bound from; removed however the seal ends.
  const scratch = await mkdtemp(join(tmpdir(), 'portal-archive-'));
  const piped = pipeline(writer.output, tap);
  const stored = storage.put(storageKey, tap, { contentType: 'application/zip' });
  // Both settle however the entries go; their failures surface below, not as unhandled rejections.
  piped.catch(() => {});
  stored.catch(() => {});
  try {
    const documents = await archivedDocuments(ctx.db, input.transactionId);
    for (const document of documents) {
      const file = await storage.open(document.key);
      if (!file) throw new Error(`A document of the archive is missing from storage: ${document.path}`);
      await writer.addStream(document.path, file.body, { compress: false });
    }
    const heading = `${transaction.streetAddress}, ${transaction.city}, ${transaction.state} ${transaction.zip}`;
    const filePdfPath = await writeFilePdf(storage, heading, documents, scratch);
    await writer.addStream(FILE_PDF_PATH, createReadStream(filePdfPath), { compress: false });
    const events = await archivedAuditEvents(ctx.db, input.transactionId);
    writer.addBuffer(AUDIT_JSON_PATH, auditJson(events), { compress: true });
    writer.addBuffer(AUDIT_CSV_PATH, auditCsv(events), { compress: true });
    const { manifestSha256 } = writer.finish(
      {
        transactionId: input.transactionId,
        closedAt: input.closedAt.toISOString(),
        sealedAt: sealedAt.toISOString(),
        auditHash: events.at(-1)?.hash ?? null,
      },
      (manifest) => signManifest(key, manifest),
    );
    await Promise.all([piped, stored]);
    return {
      sealedAt,
      storageKey,
      bytes: BigInt(zip.bytes()),
      sha256: zip.sha256(),
      manifestSha256,
    };
  } catch (error) {
    writer.abort(error instanceof Error ? error : new Error(String(error)));
    await Promise.allSettled([piped, stored]);
    throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
