import type { Db } from '../db/client';

/**
 * The progress counters of a transaction recounted in TypeScript from its transaction_forms rows,
 * with the bucket rules of the compliance migration written out as they read there:
 * each required item is in exactly one bucket, accepted, else waived (an approved waiver), else
 * rejected, else awaiting review (a file, undecided), else missing. Tests compare what the
 * database keeps on the transaction with this.
 */

export type FormFacts = {
  required: boolean;
  status: 'pending' | 'accepted' | 'rejected';
  fileKey: string | null;
  waiverStatus: 'requested' | 'approved' | 'denied' | null;
};

export type Counters = {
  required: number;
  accepted: number;
  waived: number;
  awaitingReview: number;
  rejected: number;
  missing: number;
  pendingWaivers: number;
  queue: number;
  state: 'needs-review' | 'rejected' | 'missing' | 'compliant' | 'closed';
};

type Bucket = 'accepted' | 'waived' | 'rejected' | 'awaitingReview' | 'missing';

function bucketOf(form: FormFacts): Bucket {
  if (form.status === 'accepted') return 'accepted';
  if (form.waiverStatus === 'approved') return 'waived';
  if (form.status === 'rejected') return 'rejected';
  if (form.fileKey !== null) return 'awaitingReview';
  return 'missing';
}

export function recount(forms: readonly FormFacts[], closed: boolean): Counters {
  const counts = { required: 0, accepted: 0, waived: 0, awaitingReview: 0, rejected: 0, missing: 0 };
  let pendingWaivers = 0;
  let queue = 0;
  for (const form of forms) {
    // The desk's queue: every undecided upload and every requested waiver, optional items too.
    if (form.status === 'pending' && form.fileKey !== null) queue++;
    if (form.waiverStatus === 'requested') queue++;
    if (!form.required) continue;
    counts.required++;
    counts[bucketOf(form)]++;
    if (form.status !== 'accepted' && form.waiverStatus === 'requested') pendingWaivers++;
  }
  const state = closed
    ? 'closed'
    : counts.accepted + counts.waived >= counts.required
      ? 'compliant'
      : counts.awaitingReview > 0 || pendingWaivers > 0
        ? 'needs-review'
        : counts.rejected > 0
          ? 'rejected'
          : 'missing';
  return { ...counts, pendingWaivers, queue, state };
}

/** What the database keeps on the transaction, and the recount of its rows, read in one snapshot. */
export async function keptAndRecounted(
  db: Db,
  transactionId: string,
): Promise<{ kept: Counters; recounted: Counters }> {
  return db.$transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<
        Array<{
          required_count: number;
          accepted_count: number;
          waived_count: number;
          awaiting_review_count: number;
          rejected_count: number;
          missing_count: number;
          pending_waiver_count: number;
          queue_count: number;
          state: Counters['state'];
          closed: boolean;
        }>
      >`SELECT required_count, accepted_count, waived_count, awaiting_review_count, rejected_count,
               missing_count, pending_waiver_count, queue_count, compliance_state::text AS state,
               closed_at IS NOT NULL AS closed
          FROM transactions WHERE id = ${transactionId}::uuid`;
      if (!row) throw new Error(`no transaction ${transactionId}`);
      const forms = await tx.transactionForm.findMany({
        where: { transactionId },
        select: { required: true, status: true, fileKey: true, waiverStatus: true },
      });
      return {
        kept: {
          required: row.required_count,
          accepted: row.accepted_count,
          waived: row.waived_count,
          awaitingReview: row.awaiting_review_count,
          rejected: row.rejected_count,
          missing: row.missing_count,
          pendingWaivers: row.pending_waiver_count,
          queue: row.queue_count,
          state: row.state,
        },
        recounted: recount(forms, row.closed),
      };
    },
    { isolationLevel: 'RepeatableRead' },
  );
}
