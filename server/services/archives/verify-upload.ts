import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { apiMessages } from '../../../shared/messages';
import type { ArchiveVerdictAnswer } from '../../../shared/schemas/archives';
import { NotAnArchiveError, verifyArchive } from '../../archive/verify';
import { AppError } from '../../errors';
import type { CallerContext } from '../context';
import type { IncomingUpload } from '../uploads';
import { archiveKeyOf } from './key';

/** An archive unpacks to at most this many times the largest upload before it is refused unread. */
const UNPACKED_PER_UPLOADED = 64;

/**
 * POST /api/archive/verify: any signed-in user checks a zip against this installation's key. The
 * upload (at most MAX_UPLOAD_MB) is spooled to a temporary file, since a zip's directory is at
 * its end, checked, and removed.
 */
export async function verifyUploadedArchive(
  ctx: CallerContext,
  { file }: { file: IncomingUpload },
): Promise<ArchiveVerdictAnswer> {
  const incoming = await file.receive();
  const folder = await mkdtemp(path.join(os.tmpdir(), 'archive-verify-'));
  try {
    const zip = path.join(folder, 'archive.zip');
    try {
      await pipeline(incoming.bytes, createWriteStream(zip, { mode: 0o600 }));
    } catch {
      // The body ended inside the file part, or was no well-formed multipart data.
      throw new AppError('BAD_REQUEST', apiMessages.uploadMalformed);
    }
    const { truncated } = await incoming.finish();
    if (truncated) throw new AppError('PAYLOAD_TOO_LARGE', apiMessages.fileTooLarge);
    const key = await archiveKeyOf(ctx.deps);
    try {
      return await verifyArchive(zip, key.publicKeyPem, {
        maxUnpackedBytes: ctx.deps.config.maxUploadBytes * UNPACKED_PER_UPLOADED,
      });
    } catch (error) {
      if (error instanceof NotAnArchiveError) throw new AppError('BAD_REQUEST', error.message);
      throw error;
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
