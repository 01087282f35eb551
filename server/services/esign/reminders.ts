import type { ServiceContext } from '../context';
import { mailSigningLink } from './mailing';

/**
 * The reminders job (hourly): each signer of an open request whose turn it is, who has not signed,
 * and who was last mailed two days ago or more, is mailed a fresh link, at most
 * SIGNING_REMINDERS_MAX times. Rows are taken with SKIP LOCKED, so instances sweeping at once
 * share the work, and a request being signed or voided right now waits for the next sweep.
 */

export const SIGNING_REMINDER_EVERY_MS = 2 * 24 * 60 * 60 * 1000;
export const SIGNING_REMINDERS_MAX = 5;
/** Signers reminded per database transaction; the sweep goes on until none is due. */
const BATCH = 100;

type DueSigner = {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string | null;
  sender: string;
};

export async function sweepSignatureReminders(ctx: ServiceContext): Promise<number> {
  let reminded = 0;
  for (;;) {
    const count = await ctx.db.$transaction(async (tx) => {
      const dueBefore = new Date(ctx.deps.clock.now().getTime() - SIGNING_REMINDER_EVERY_MS);
      const due = await tx.$queryRaw<DueSigner[]>`
        SELECT s.id::text AS id, s.name, s.email, r.subject, r.message,
               u.first_name || ' ' || u.last_name AS sender
          FROM signature_signers s
          JOIN signature_requests r ON r.id = s.request_id
          JOIN users u ON u.id = r.created_by
         WHERE r.status = 'sent' AND s.status IN ('pending', 'viewed') AND s.mailed_at IS NOT NULL
           AND s.reminders_sent < ${SIGNING_REMINDERS_MAX}
           AND GREATEST(s.mailed_at, COALESCE(s.last_reminded_at, s.mailed_at)) <= ${dueBefore}
         ORDER BY s.id LIMIT ${BATCH}
           FOR NO KEY UPDATE OF s, r SKIP LOCKED`;
      for (const signer of due) {
        await mailSigningLink(tx, ctx.deps, {
          signer,
          request: { subject: signer.subject, message: signer.message, senderName: signer.sender },
          reminder: true,
        });
      }
      return due.length;
    });
    reminded += count;
    if (count < BATCH) return reminded;
  }
}
