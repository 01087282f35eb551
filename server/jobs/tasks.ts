import type { AppDeps } from '../deps';
import { JOB_KINDS, type JobKind } from '../queue/enqueue';
import { sealArchive } from '../services/archives/seal';
import type { ServiceContext, ServiceLog } from '../services/context';
import { sweepDigests } from '../services/digests';
import { sweepSignatureReminders } from '../services/esign/reminders';
import { pruneIdempotencyKeys } from '../services/idempotency';
import { deliverMail, pruneSentMail } from '../services/mail';
import { sweepReminders } from '../services/reminders';
import { applyTemplateRules } from '../services/template-rules';
import { purgeExpiredFiles } from '../services/transactions/purge';
import { deliverWebhook } from '../services/webhooks/deliver';
import { pruneWebhookDeliveries } from '../services/webhooks/retention';

/**
 * What each kind of job does: a services function, called with a context made for the job (no
 * request, no caller). Handlers stay this thin so every rule can be tested without the engine.
 */

export type JobRun = {
  id: string;
  attempts: number;
  maxAttempts: number;
  signal: AbortSignal;
};

export type JobHandler = (ctx: ServiceContext, payload: unknown, run: JobRun) => Promise<unknown>;

const mailIdOf = (payload: unknown): string => idOf(payload, 'mailId', JOB_KINDS.sendMail);

function idOf(payload: unknown, field: string, kind: string): string {
  const id = (payload as Record<string, unknown> | null)?.[field];
  if (typeof id !== 'string') throw new Error(`${kind} needs a ${field}`);
  return id;
}

export const JOB_HANDLERS: Record<JobKind, JobHandler> = {
  [JOB_KINDS.sendMail]: (ctx, payload, run) =>
    deliverMail(ctx, { mailId: mailIdOf(payload), lastAttempt: run.attempts >= run.maxAttempts }),
  [JOB_KINDS.sweepReminders]: (ctx) => sweepReminders(ctx),
  [JOB_KINDS.sweepDigests]: (ctx) => sweepDigests(ctx),
  [JOB_KINDS.remindSigners]: (ctx) => sweepSignatureReminders(ctx),
  [JOB_KINDS.pruneOutbox]: (ctx) => pruneSentMail(ctx),
  [JOB_KINDS.pruneIdempotencyKeys]: (ctx) => pruneIdempotencyKeys(ctx),
  [JOB_KINDS.pruneWebhooks]: (ctx) => pruneWebhookDeliveries(ctx),
  [JOB_KINDS.purgeExpiredFiles]: (ctx) => purgeExpiredFiles(ctx),
  [JOB_KINDS.deliverWebhook]: (ctx, payload) =>
    deliverWebhook(ctx, { deliveryId: idOf(payload, 'deliveryId', JOB_KINDS.deliverWebhook) }),
  [JOB_KINDS.applyTemplateRules]: (ctx, payload) =>
    applyTemplateRules(ctx, {
      templateId: idOf(payload, 'templateId', JOB_KINDS.applyTemplateRules),
      actorId: idOf(payload, 'actorId', JOB_KINDS.applyTemplateRules),
    }),
  [JOB_KINDS.sealArchive]: (ctx, payload, run) =>
    sealArchive(
      ctx,
      {
        transactionId: idOf(payload, 'transactionId', JOB_KINDS.sealArchive),
        closedAt: new Date(idOf(payload, 'closedAt', JOB_KINDS.sealArchive)),
      },
      { lastAttempt: run.attempts >= run.maxAttempts },
    ),
};

/** The context of one job run. */
export function jobContext(deps: AppDeps, log: ServiceLog, run: JobRun): ServiceContext {
  return { deps, db: deps.db, ip: 'job', requestId: `job-${run.id}`, log, signal: run.signal };
}
