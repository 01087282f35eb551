import type { Tx } from '../db/client';
import type { AppDeps } from '../deps';
import { describeErrorForLog } from '../errors';
import type { MailContent } from '../mail/content';
import { renderMail } from '../mail/render';
import { JOB_KINDS } from '../queue/enqueue';
import { sealerFor } from '../security/sealing';
import type { ServiceContext } from './context';

/**
 * Every mail the portal sends: written to mail_outbox in the transaction of the change
 * that causes it, with a job to send it. The job renders and sends; SMTP failures are retried with
 * graphile-worker's back-off (e^attempt seconds: 3 s, 7 s, 20 s, 55 s, 2.5 min... up to 6 h apart);
 * the outbox row says whether it went, so a job run twice (a worker that died after sending and
 * before the job was marked done) does not send twice, and every retry carries one Message-ID
 * (<outbox id@APP_URL's host>, made by the mailer).
 */

/** About two days of retries at graphile-worker's back-off before a mail is given up. */
export const MAIL_MAX_ATTEMPTS = 20;
/** Kept this long after sending, for support questions ("did the reset mail go?"). */
export const SENT_MAIL_RETENTION_DAYS = 30;

export type QueuedMail = { kind: string; userId?: string | null; content: MailContent };

const sealerOf = (deps: AppDeps) => sealerFor(deps.config.jwtSecret);

/** Queues mails inside `tx`: they leave once it commits, and never if it rolls back. */
export async function queueMails(tx: Tx, deps: AppDeps, mails: readonly QueuedMail[]): Promise<void> {
  if (mails.length === 0) return;
  const sealer = sealerOf(deps);
  // One statement, one round trip inside the causing request's transaction: the outbox rows and
  // their jobs (graphile-worker's add_jobs over the rows just inserted). Two round trips made
  // the enqueue's p95 about twice as long on a loaded machine (bench/jobs.bench.ts).
  await tx.$executeRaw`
    WITH inserted AS (
      INSERT INTO mail_outbox (kind, user_id, sealed)
      SELECT kind, user_id, sealed
        FROM unnest(${mails.map((mail) => mail.kind)}::text[],
                    ${mails.map((mail) => mail.userId ?? null)}::uuid[],
                    ${mails.map((mail) => sealer.seal(JSON.stringify(mail.content)))}::text[])
             AS m(kind, user_id, sealed)
      RETURNING id)
    SELECT FROM graphile_worker.add_jobs(ARRAY(
      SELECT json_populate_record(NULL::graphile_worker.job_spec, json_build_object(
               'identifier', ${JOB_KINDS.sendMail}::text,
               'payload', json_build_object('mailId', inserted.id),
               'max_attempts', ${MAIL_MAX_ATTEMPTS}::int))
        FROM inserted))`;
}

export const queueMail = (tx: Tx, deps: AppDeps, mail: QueuedMail) => queueMails(tx, deps, [mail]);

/**
 * The job: sends one queued mail. Returns quietly when it was sent already or given up; throws
 * when SMTP fails, so the job is tried again later.
 */
export async function deliverMail(
  ctx: ServiceContext,
  { mailId, lastAttempt }: { mailId: string; lastAttempt: boolean },
): Promise<void> {
  const [row] = await ctx.db.$queryRaw<{ sealed: string; kind: string }[]>`
    UPDATE mail_outbox SET attempts = attempts + 1
     WHERE id = ${mailId}::uuid AND status = 'queued'
    RETURNING sealed, kind`;
  if (!row) return;
  const content = JSON.parse(sealerOf(ctx.deps).open(row.sealed)) as MailContent;
  try {
    await ctx.deps.mailer.send(await renderMail(content), { messageId: mailId });
  } catch (error) {
    const described = describeErrorForLog(error);
    const status = lastAttempt ? 'failed' : 'queued';
    await ctx.db.$executeRaw`
      UPDATE mail_outbox SET last_error = ${`${described.type}: ${described.message}`.slice(0, 500)},
                             status = ${status}
       WHERE id = ${mailId}::uuid`;
    ctx.log.warn({ error: described, mailId, kind: row.kind, lastAttempt }, 'sending mail failed');
    throw error;
  }
  await ctx.db.$executeRaw`
    UPDATE mail_outbox SET status = 'sent', sent_at = ${ctx.deps.clock.now()}, last_error = NULL
     WHERE id = ${mailId}::uuid`;
}

/** The daily clean-up: sent mails past retention (failed ones stay for a person to look at). */
export async function pruneSentMail(ctx: ServiceContext): Promise<number> {
  const before = new Date(ctx.deps.clock.now().getTime() - SENT_MAIL_RETENTION_DAYS * 86_400_000);
  return ctx.db.$executeRaw`DELETE FROM mail_outbox WHERE status = 'sent' AND sent_at < ${before}`;
}
