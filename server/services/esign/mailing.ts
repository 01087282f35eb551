import { createHash, randomBytes } from 'node:crypto';
import type { Tx } from '../../db/client';
import type { AppDeps } from '../../deps';
import { queueMail } from '../mail';

/**
 * The signing links. A link's token is 32 random bytes and the only credential a signer has:
 * only its sha256 is stored, so the database alone never yields a working link. Every mail to a
 * signer carries a fresh token (the invitation, the next signer's turn, each reminder), which
 * replaces the one before: the latest mail's link is the one that works.
 */

export const newSigningToken = () => randomBytes(32).toString('base64url');
export const hashOfToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
export const signingLink = (deps: AppDeps, token: string) => `${deps.config.appUrl}/sign/${token}`;

export type MailedSigner = { id: string; name: string; email: string };
export type MailedRequest = { subject: string; message: string | null; senderName: string };

/** A new token for the signer, its link mailed through the outbox, inside `tx`. */
export async function mailSigningLink(
  tx: Tx,
  deps: AppDeps,
  { signer, request, reminder }: { signer: MailedSigner; request: MailedRequest; reminder: boolean },
): Promise<void> {
  const token = newSigningToken();
  const now = deps.clock.now();
  await tx.signatureSigner.update({
    where: { id: signer.id },
    data: reminder
      ? { tokenHash: hashOfToken(token), lastRemindedAt: now, remindersSent: { increment: 1 } }
      : { tokenHash: hashOfToken(token), mailedAt: now },
  });
  const paragraphs = [
    `${request.senderName} asks you to sign "${request.subject}".`,
    ...(request.message ? [request.message] : []),
    reminder
      ? 'This is a reminder: the document still awaits your signature. Earlier links in these mails no longer work; use the one below.'
      : 'Open the link to read the document and sign it. No account is needed; keep this link to yourself.',
  ];
  await queueMail(tx, deps, {
    kind: reminder ? 'esign.reminder' : 'esign.invitation',
    content: {
      to: signer.email,
      subject: reminder ? `Reminder: please sign "${request.subject}"` : `Please sign "${request.subject}"`,
      preview: `${request.senderName} asks you to sign "${request.subject}"`,
      greeting: `Hello ${signer.name},`,
      paragraphs,
      action: { label: 'Review and sign', url: signingLink(deps, token) },
    },
  });
}
