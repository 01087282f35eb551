import { createHash, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import { apiMessages, intakeMessages } from '../../shared/messages';
import type { UploadAnswer } from '../../shared/schemas/transactions';
import { AppError } from '../errors';
import { SNIFF_BYTES, sniffAcceptedType } from '../storage/file-types';
import { downloadName, libraryFileKey, transactionFileKey } from '../storage/keys';
import { assertOwner } from './access';
import type { CallerContext, ServiceContext } from './context';
import { fileLinker } from './file-links';
import { PDF_TYPE, type PreChecked, preCheckPdf, suggestItems } from './intake/pre-checks';
import { assertVisible } from './transactions';

/**
 * Uploads: who may upload where, and how a file becomes a stored file with
 * its row. The transport (server/plugins/uploads.ts) parses the multipart body and hands the file
 * over as a stream; everything from its first byte on is decided here. The file streams to
 * storage (never whole in memory); its type is decided by its first bytes (415 otherwise), its
 * size by what arrived (413, and nothing is kept), and it is recorded in stored_files, or removed
 * again when it cannot be.
 */

/** Whose file it will be: recorded with it in stored_files. */
export type UploadTarget = { transactionId: string | null; uploadedBy: string };

/**
 * The file of an upload as the transport holds it, not yet read: `receive` reads up to the file's
 * first bytes, and is only called once the caller may upload, so a refused upload reads nothing.
 */
export type IncomingUpload = { receive(): Promise<IncomingFile> };

/**
 * A document of a transaction: its agent uploads to it, an admin to any (404 for anyone else,
 * before a byte is read); a closed file takes no new document (409), for anyone, as it would be
 * attached to nothing.
 */
export async function uploadTransactionDocument(
  ctx: CallerContext,
  { id, file }: { id: string; file: IncomingUpload },
): Promise<UploadAnswer> {
  const target = await transactionUploadTarget(ctx, id);
  return storeUpload(ctx, { target, file: await file.receive() });
}

/** A file of the forms library: the owner's alone (403 for anyone else, before a byte is read). */
export async function uploadLibraryForm(
  ctx: CallerContext,
  { file }: { file: IncomingUpload },
): Promise<UploadAnswer> {
  assertOwner(ctx.user);
  return storeUpload(ctx, {
    target: { transactionId: null, uploadedBy: ctx.user.id },
    file: await file.receive(),
  });
}

/** Who may upload to the transaction (see uploadTransactionDocument), and whose file it will be. */
export async function transactionUploadTarget(ctx: CallerContext, id: string): Promise<UploadTarget> {
  await assertVisible(ctx, { id }, { toChange: true });
  return { transactionId: id, uploadedBy: ctx.user.id };
}

/** A file as the transport hands it over. */
export type IncomingFile = {
  /** The name the client gave it (only a hint: keys are made here). */
  filename: string;
  bytes: Readable;
  /**
   * Called once `bytes` is read to its end: settles when the rest of the request is known.
   * Rejects (an AppError) when the request carried more than this one file; `truncated` says the
   * size limit cut the file short.
   */
  finish(): Promise<{ truncated: boolean }>;
};

/** The first `bytes` of the stream (or all of it when shorter); the stream stays readable. */
function readHead(stream: Readable, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // The parser may have failed the part before it was handed over (a body that ends inside a
    // later part): such a stream never emits again, and waiting on it would hold the request forever.
    if (stream.destroyed) {
      reject(new AppError('BAD_REQUEST', apiMessages.uploadMalformed));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = () => reject(new AppError('BAD_REQUEST', apiMessages.uploadMalformed));
    const finish = () => {
      stream.off('data', onData);
      stream.off('end', finish);
      stream.off('error', fail);
      stream.pause();
      resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= bytes) finish();
    };
    stream.on('data', onData);
    stream.once('end', finish);
    stream.once('error', fail);
  });
}

/**
 * A PDF's bytes kept in memory as they stream by, for its pre-checks, up to INSPECTED_PDF_BYTES:
 * past that (a portal that raised MAX_UPLOAD_MB) the file is stored unchecked and memory stays
 * flat, as the streaming upload promises (bench/upload.bench.ts).
 */
const INSPECTED_PDF_BYTES = 32 * 1024 * 1024;
type Kept = { chunks: Buffer[]; size: number; whole: boolean };

function keep(kept: Kept | undefined, chunk: Buffer) {
  if (!kept?.whole) return;
  kept.size += chunk.length;
  if (kept.size > INSPECTED_PDF_BYTES) {
    kept.whole = false;
    kept.chunks = [];
  } else kept.chunks.push(chunk);
}

/** The bytes as they pass to storage, each one also fed to `hash` (and kept in `kept`, if given). */
async function* headThenRest(head: Buffer, rest: Readable, hash: Hash, kept?: Kept): AsyncGenerator<Buffer> {
  hash.update(head);
  keep(kept, head);
  if (head.length) yield head;
  try {
    for await (const chunk of rest) {
      hash.update(chunk as Buffer);
      keep(kept, chunk as Buffer);
      yield chunk as Buffer;
    }
  } catch {
    // The request's body failed (not the storage): storage.put removes what it wrote.
    throw new AppError('BAD_REQUEST', apiMessages.uploadMalformed);
  }
}

/**
 * Stores the file for the target and records it: a building block of the upload operations
 * above, which decide who may upload before they call it.
 */
export async function storeUpload(
  ctx: ServiceContext,
  { target, file }: { target: UploadTarget; file: IncomingFile },
): Promise<UploadAnswer> {
  const { storage } = ctx.deps;
  const head = await readHead(file.bytes, SNIFF_BYTES);
  const type = await sniffAcceptedType(head);
  if (!type) {
    file.bytes.resume(); // let the rest of the request body drain
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', apiMessages.fileTypeRefused);
  }
  const key = target.transactionId
    ? transactionFileKey(target.transactionId, file.filename, type.ext)
    : libraryFileKey(file.filename, type.ext);
  const hash = createHash('sha256');
  // A PDF is kept in memory as it streams, for its pre-checks; other types pass through.
  const kept: Kept | undefined = type.mime === PDF_TYPE ? { chunks: [], size: 0, whole: true } : undefined;
  const { size } = await storage.put(key, Readable.from(headThenRest(head, file.bytes, hash, kept)), {
    contentType: type.mime,
  });
  const sha256 = hash.digest('hex');
  // Whatever is wrong with the rest of the request (a size limit reached, a part too many), the
  // file just stored goes: nothing of a refused upload is kept.
  let truncated: boolean;
  try {
    ({ truncated } = await file.finish());
  } catch (error) {
    await storage.delete(key);
    throw error;
  }
  if (truncated) {
    await storage.delete(key);
    throw new AppError('PAYLOAD_TOO_LARGE', apiMessages.fileTooLarge);
  }
  // The pre-checks; an encrypted or hostile PDF is refused and not kept.
  let checked: PreChecked;
  try {
    checked = kept?.whole
      ? await preCheckPdf(Buffer.concat(kept.chunks))
      : { pages: null, warnings: [], text: [] };
  } catch (error) {
    await storage.delete(key);
    throw error;
  }
  // Should the database refuse the row (down, say), the file is removed again and the error
  // answers (503): a file never outlives a failed upload without its row.
  try {
    await ctx.db.storedFile.create({
      data: {
        key,
        size,
        contentType: type.mime,
        sha256,
        pages: checked.pages,
        warnings: checked.warnings,
        ...target,
      },
    });
  } catch (error) {
    await storage.delete(key);
    throw error;
  }
  const duplicateOf = target.transactionId ? await attachedCopy(ctx, target.transactionId, sha256) : null;
  return {
    key,
    url: await fileLinker(ctx)(key),
    name: downloadName(key),
    size,
    contentType: type.mime,
    sha256,
    duplicateOf,
    pages: checked.pages,
    warnings: [
      ...checked.warnings,
      ...(duplicateOf
        ? [{ code: 'duplicate' as const, message: intakeMessages.duplicate(duplicateOf.label) }]
        : []),
    ],
    suggestions: target.transactionId ? await suggestItems(ctx, target.transactionId, checked.text) : [],
  };
}

/**
 * An item of the transaction whose current file has exactly these bytes: the
 * same scan uploaded for two documents is usually a mistake worth a warning, never a refusal. The
 * first such item in checklist order; the client, which knows the item it uploads for, does not
 * warn about that one.
 */
async function attachedCopy(ctx: ServiceContext, transactionId: string, sha256: string) {
  const rows = await ctx.db.$queryRaw<Array<{ formId: string; label: string }>>`
    SELECT f.id::text AS "formId", f.label
      FROM transaction_forms f JOIN stored_files s ON s.key = f.file_key
     WHERE f.transaction_id = ${transactionId}::uuid AND s.sha256 = ${sha256}
     ORDER BY f.position LIMIT 1`;
  return rows[0] ?? null;
}
