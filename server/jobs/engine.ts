import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import {
  type Job,
  type JobHelpers,
  Logger,
  type Runner,
  run,
  type TaskList,
  type WorkerEvents,
} from 'graphile-worker';
import pg from 'pg';
import type { AppDeps } from '../deps';
import { describeErrorForLog } from '../errors';
import { JOB_KINDS } from '../queue/enqueue';
import type { ServiceLog } from '../services/context';
import { jobMetrics } from './metrics';
import { JOB_HANDLERS, jobContext } from './tasks';

/**
 * The job engine: graphile-worker 0.18 on the portal's own PostgreSQL, run by every
 * instance. Why graphile-worker: its add_job is a SQL function, so a job is added by the very
 * statement batch of the change that causes it (server/queue/enqueue.ts); LISTEN/NOTIFY starts a
 * job within milliseconds; failed jobs come back with exponential back-off; its cron runs each
 * tick once across all instances. pg-boss 10 would have done too, but needs a separate
 * connection handle per transaction and polls.
 *
 * One gap we close ourselves: a job whose worker died (SIGKILL, OOM) stays locked for four hours.
 * Each instance writes a heartbeat per worker to job_workers; any instance that finds a worker
 * silent for `staleAfterMs` unlocks its jobs (graphile_worker.force_unlock_workers), so they run
 * again within a minute of the crash. The mail job is idempotent (mail_outbox.status), so a
 * worker that was merely slow cannot send twice.
 */

export type JobEngineOptions = {
  connectionString: string;
  concurrency: number;
  /** How often the heartbeat is written and stale workers are looked for. */
  heartbeatMs?: number;
  /** A worker silent this long is taken for dead and its jobs unlocked. */
  staleAfterMs?: number;
  /** false: no cron (tests drive the sweeps themselves). */
  cron?: boolean;
};

export type JobEngine = { stop(): Promise<void>; workerIds(): string[] };

/** Every minute: reminders and digests (each tick once across instances); the outbox daily;
 * Idempotency-Key answers hourly; settled webhook deliveries past 30 days daily; signers' reminders hourly;
 * the stored files of transactions past retention daily. */
const CRONTAB = [
  `* * * * * ${JOB_KINDS.sweepReminders} ?max=1&jobKey=reminders:sweep:cron`,
  `* * * * * ${JOB_KINDS.sweepDigests} ?max=1&jobKey=digests:sweep:cron`,
  `17 3 * * * ${JOB_KINDS.pruneOutbox} ?max=1`,
  `47 * * * * ${JOB_KINDS.pruneIdempotencyKeys} ?max=1`,
  `37 3 * * * ${JOB_KINDS.pruneWebhooks} ?max=1`,
  // Stored files of transactions past retention and not held, once a day, once across instances.
  `53 2 * * * ${JOB_KINDS.purgeExpiredFiles} ?max=1&jobKey=retention:purge:cron`,
  // Signers still to sign, every two days at most: the hour's sweep finds who is due.
  `23 * * * * ${JOB_KINDS.remindSigners} ?max=1&jobKey=signatures:remind:cron`,
].join('\n');

export async function startJobEngine(
  deps: AppDeps,
  log: ServiceLog,
  options: JobEngineOptions,
): Promise<JobEngine> {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const staleAfterMs = options.staleAfterMs ?? 60_000;
  const taskList: TaskList = {};
  for (const [kind, handler] of Object.entries(JOB_HANDLERS)) {
    taskList[kind] = async (payload: unknown, helpers: JobHelpers) => {
      const job: Job = helpers.job;
      const started = Date.now();
      jobMetrics.latency.observe({ kind }, Math.max(0, (started - job.run_at.getTime()) / 1000));
      try {
        const runInfo = {
          id: job.id,
          attempts: job.attempts,
          maxAttempts: job.max_attempts,
          signal: helpers.abortSignal ?? new AbortController().signal,
        };
        await handler(jobContext(deps, log, runInfo), payload, runInfo);
        jobMetrics.runs.inc({ kind, outcome: 'done' });
      } catch (error) {
        jobMetrics.runs.inc({ kind, outcome: job.attempts >= job.max_attempts ? 'gave-up' : 'retry' });
        log.warn(
          { error: describeErrorForLog(error), kind, jobId: job.id, attempt: job.attempts },
          'job failed',
        );
        throw error;
      } finally {
        jobMetrics.duration.observe({ kind }, (Date.now() - started) / 1000);
      }
    };
  }

  // What locks jobs: since graphile-worker 0.17 a job's locked_by is its worker pool's id (one pool
  // per instance, e.g. "pool-6bef..."), not the id of the worker running it. Both are recorded,
  // so force_unlock_workers frees whatever a dead instance held. Our own emitter, listened to
  // before run(): the pool and its workers are created (and their events emitted) inside run(),
  // before runner.events could be listened to.
  const workers = new Set<string>();
  const events: WorkerEvents = new EventEmitter();
  events.on('pool:create', ({ workerPool }) => workers.add(workerPool.id));
  events.on('pool:release', ({ workerPool }) => workers.delete(workerPool.id));
  events.on('worker:create', ({ worker }) => workers.add(worker.workerId));
  events.on('worker:release', ({ worker }) => workers.delete(worker.workerId));
  // The engine's pool is ours, and stop() ends it and waits: the pool graphile-worker makes from a
  // connection string is ended without waiting (its releaser calls pgPool.end() and returns), so
  // runner.stop() could resolve while one of its clients was still in a query. PostgreSQL stopping
  // next (the embedded one, at shutdown) failed that query outside any handler, and the process
  // exited 1 instead of 0: about once in six starts stopped at once on a loaded machine
  // (server/main.test.ts). Its size is graphile-worker's default, 10.
  const pool = new pg.Pool({ connectionString: options.connectionString, max: 10 });
  const lost = (error: Error) =>
    log.warn({ error: describeErrorForLog(error) }, 'job engine connection lost');
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  const runner: Runner = await run({
    pgPool: pool,
    concurrency: options.concurrency,
    noHandleSignals: true,
    pollInterval: 2_000,
    taskList,
    events,
    ...(options.cron === false ? {} : { crontab: CRONTAB }),
    logger: engineLogger(log),
  });

  const instance = `${hostname()}:${process.pid}`;
  const beat = async () => {
    try {
      const ids = [...workers];
      await deps.db.$executeRaw`
        INSERT INTO job_workers (worker_id, heartbeat_at)
        SELECT id, now() FROM unnest(${ids}::text[]) AS id
        ON CONFLICT (worker_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`;
      await deps.db.$executeRaw`
        WITH dead AS (
          DELETE FROM job_workers
           WHERE heartbeat_at < now() - make_interval(secs => ${staleAfterMs / 1000})
             AND NOT (worker_id = ANY(${ids}::text[]))
          RETURNING worker_id)
        SELECT graphile_worker.force_unlock_workers(array_agg(worker_id)) FROM dead HAVING count(*) > 0`;
    } catch (error) {
      log.warn({ error: describeErrorForLog(error), instance }, 'job worker heartbeat failed');
    }
  };
  // Workers are created as the pool starts; the first beat also frees what a crash left locked.
  await beat();
  const timer = setInterval(beat, heartbeatMs);
  timer.unref();

  return {
    workerIds: () => [...workers],
    async stop() {
      clearInterval(timer);
      // Lets running jobs finish (graceful), then waits for every connection to come back.
      await runner.stop();
      await pool.end();
      const ids = [...workers];
      await deps.db.$executeRaw`DELETE FROM job_workers WHERE worker_id = ANY(${ids}::text[])`.catch(
        () => {},
      );
    },
  };
}

/** graphile-worker's messages into our log, at their level (its debug is very chatty). */
function engineLogger(log: ServiceLog): Logger {
  return new Logger((scope) => (level, message, meta) => {
    const fields = { scope: { label: scope.label, taskIdentifier: scope.taskIdentifier }, ...(meta ?? {}) };
    if (level === 'error') log.error(fields, message);
    else if (level === 'warning') log.warn(fields, message);
    else if (level === 'info') log.info(fields, message);
  });
}
