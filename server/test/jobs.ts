import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import type { AppDeps } from '../deps';
import { type JobEngine, type JobEngineOptions, startJobEngine } from '../jobs/engine';
import type { TestDatabase } from './harness';
import { until } from './until';

/**
 * The real job engine for a test file: started on the file's database once it exists,
 * stopped before it is dropped (hooks run in reverse: register this after setupTestDatabase).
 * Cron is off: tests drive reminders and digests by calling their sweeps with a TestClock.
 */
export function runTestJobs(
  database: TestDatabase,
  depsOf: () => AppDeps,
  options: Partial<Omit<JobEngineOptions, 'connectionString'>> = {},
): { readonly engine: JobEngine; drain(timeoutMs?: number): Promise<void> } {
  let engine: JobEngine | undefined;
  beforeAll(async () => {
    engine = await startJobEngine(depsOf(), pino({ level: 'silent' }), {
      connectionString: database.url,
      concurrency: 4,
      cron: false,
      ...options,
    });
  });
  afterAll(async () => {
    await engine?.stop();
  });
  return {
    get engine() {
      if (!engine) throw new Error('The job engine runs only inside tests (after beforeAll)');
      return engine;
    },
    /** Waits until no job is due or running (scheduled retries in the future do not count). */
    async drain(timeoutMs = 10_000) {
      await until(async () => {
        const [row] = await database.db.$queryRaw<{ busy: number }[]>`
          SELECT count(*)::int AS busy FROM graphile_worker._private_jobs
           WHERE attempts < max_attempts AND (run_at <= now() OR locked_at IS NOT NULL)`;
        return row?.busy === 0;
      }, timeoutMs);
    },
  };
}
