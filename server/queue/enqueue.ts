import type { Prisma } from '../db/generated/client';

/**
 * Adding jobs: one statement on the caller's database transaction, so a job exists
 * exactly when the change that causes it commits (a rolled-back change leaves no job, and no
 * committed change is without its job). graphile-worker's add_jobs takes a batch: a thousand
 * mails of one event cost one round trip.
 */

/** Every kind of job, named once: the task list (server/jobs/tasks.ts) is keyed by these. */
export const JOB_KINDS = {
  // Colons, not dots: graphile-worker's crontab takes only [_a-zA-Z0-9:/-] in a task name.
  sendMail: 'mail:send',
  sweepReminders: 'reminders:sweep',
  sweepDigests: 'digests:sweep',
  pruneOutbox: 'mail:prune',
  pruneIdempotencyKeys: 'idempotency:prune',
  deliverWebhook: 'webhooks:deliver',
  pruneWebhooks: 'webhooks:prune',
  applyTemplateRules: 'templates:apply-rules',
  remindSigners: 'signatures:remind',
  purgeExpiredFiles: 'retention:purge',
  sealArchive: 'archives:seal',
} as const;
export type JobKind = (typeof JOB_KINDS)[keyof typeof JOB_KINDS];

export type JobSpec = {
  kind: JobKind;
  payload: Record<string, unknown>;
  runAt?: Date;
  /** One job per key: adding another with the same key replaces the waiting one. */
  jobKey?: string;
  maxAttempts?: number;
};

type SqlRunner = {
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Prisma.PrismaPromise<number>;
};

export async function enqueueJobs(tx: SqlRunner, specs: readonly JobSpec[]): Promise<void> {
  if (specs.length === 0) return;
  const rows = specs.map((spec) => ({
    identifier: spec.kind,
    payload: spec.payload,
    run_at: spec.runAt?.toISOString() ?? null,
    max_attempts: spec.maxAttempts ?? null,
    job_key: spec.jobKey ?? null,
  }));
  await tx.$executeRaw`
    SELECT FROM graphile_worker.add_jobs(ARRAY(
      SELECT json_populate_record(NULL::graphile_worker.job_spec, spec)
        FROM json_array_elements(${JSON.stringify(rows)}::json) AS spec))`;
}
