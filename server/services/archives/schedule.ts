import type { Tx } from '../../db/client';
import { enqueueJobs, JOB_KINDS } from '../../queue/enqueue';

/** Sealing may fail on storage for a while; after these attempts the archive is marked failed. */
export const SEAL_MAX_ATTEMPTS = 8;

/**
 * On the close's own database transaction: the archive's row (preparing) and the job that seals
 * it. A rolled-back close leaves neither; the row's (transaction, closedAt) is unique, so a close
 * has exactly one archive.
 */
export async function scheduleArchive(tx: Tx, transactionId: string, closedAt: Date): Promise<void> {
  // skipDuplicates: a close in the same millisecond as a reopened earlier one (frozen test clocks) keeps that one's archive.
  await tx.transactionArchive.createMany({ data: [{ transactionId, closedAt }], skipDuplicates: true });
  await enqueueJobs(tx, [
    {
      kind: JOB_KINDS.sealArchive,
      payload: { transactionId, closedAt: closedAt.toISOString() },
      maxAttempts: SEAL_MAX_ATTEMPTS,
      jobKey: `archive:${transactionId}:${closedAt.toISOString()}`,
    },
  ]);
}
