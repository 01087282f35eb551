import closeWithGrace from 'close-with-grace';
import { pino } from 'pino';
import { buildApp } from './app';
import { systemClock } from './clock';
import { ConfigError, ensureJwtSecret, loadConfig, loadDotEnv } from './config';
import { createDb } from './db/client';
import { migrate } from './db/migrate';
import { seed } from './db/seed';
import { type RunningDatabase, startDatabase } from './db/start';
import { seedDemo } from './demo/demo';
import { seedDemoCdas } from './demo/demo-cdas';
import { describeErrorForLog } from './errors';
import {
  EVENT_LOOP_REPORT_SIGNAL,
  eventLoopReportEnabled,
  reportEventLoopDelayOnSignal,
} from './event-loop-report';
import { startJobEngine } from './jobs/engine';
import { loggerOptions } from './logger';
import { createMailer } from './mail/mailer';
import { createNotificationBus } from './realtime/bus';
import { createPasswordHasher, passwordCostFor } from './security/passwords';
import { createRateLimiter, limitRulesOf } from './security/rate-limits';
import { loadSigningIdentity } from './services/esign/identity';
import { checkStorage, createStorage } from './storage';

/**
 * The process: configuration -> database -> migrations -> seed -> app -> listen, and the reverse
 * on SIGINT/SIGTERM: stop accepting, finish in-flight requests, close the pool, stop PostgreSQL.
 */

/**
 * Closing after the drain (SHUTDOWN_DRAIN_MS): in-flight requests finish, then the pool and
 * PostgreSQL stop. A supervisor must allow drain + this before it kills (compose:
 * stop_grace_period).
 */
const SHUTDOWN_GRACE_MS = 8_000;

/** Printed whatever LOG_LEVEL is: humans, scripts and tests wait for these lines. */
function announce(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = pino(loggerOptions(config.logLevel));

  let database: RunningDatabase | undefined;
  try {
    // First: a bucket that does not answer stops the start before anything else is started.
    await checkStorage(config);
    database = await startDatabase(config, log);
    const resolved = await ensureJwtSecret(config);
    // Loaded now, so a certificate that does not match its key stops the start, not a signing.
    const signingIdentity = await loadSigningIdentity({
      certPem: resolved.signingCert,
      keyPem: resolved.signingKey,
      dataDir: resolved.dataDir,
      brokerageName: resolved.brokerageName,
    });
    const migration = await migrate(database.url, { log });
    if (migration.applied.length === 0) log.info('Database schema is up to date');

    const db = createDb(database.url, { log, poolSize: resolved.databasePoolSize });
    const seeded = await seed(db, resolved, log);
    if (seeded.generatedPassword) {
      announce(
        `Owner account created: ${resolved.adminEmail} with password ${seeded.generatedPassword} ` +
          '(shown only this once; set ADMIN_PASSWORD to choose it yourself)',
      );
    }

    const storage = createStorage(resolved, systemClock);
    const bus = createNotificationBus(database.url, log);
    const seededDemo = resolved.seedDemo
      ? await seedDemo(db, storage, { cost: passwordCostFor(resolved.env), now: systemClock.now() }, log)
      : false;

    const draining = new AbortController();
    const appDeps = {
      config: resolved,
      db,
      clock: systemClock,
      mailer: createMailer(resolved, log),
      passwords: createPasswordHasher(passwordCostFor(resolved.env)),
      limits: createRateLimiter(db, systemClock, limitRulesOf(resolved)),
      storage,
      bus,
      shutdown: draining.signal,
      signingIdentity: async () => signingIdentity,
    };
    // The demo's CDAs are issued through the service, which needs the app's dependencies.
    if (seededDemo) await seedDemoCdas(appDeps, log);
    const app = buildApp(appDeps, { loggerInstance: log });
    // Every instance runs jobs (mail, reminders, digests): started with the app, stopped before
    // the database in the shutdown below.
    const jobs = await startJobEngine(appDeps, log, {
      connectionString: database.url,
      concurrency: resolved.jobConcurrency,
      staleAfterMs: resolved.jobWorkerStaleMs,
      heartbeatMs: Math.min(15_000, Math.max(1_000, Math.floor(resolved.jobWorkerStaleMs / 4))),
    });
    const runningDatabase = database;
    // The benchmarks' event-loop report takes SIGUSR2, which otherwise shuts down like SIGTERM.
    const reportsEventLoop = eventLoopReportEnabled();
    if (reportsEventLoop) reportEventLoopDelayOnSignal(announce);
    const skip = reportsEventLoop ? [EVENT_LOOP_REPORT_SIGNAL] : [];
    const drainMs = resolved.shutdownDrainMs;
    const graceOptions = {
      delay: drainMs + SHUTDOWN_GRACE_MS,
      logger: false as const,
      skip,
      // close-with-grace exits 1 at once on an error thrown while shutting down, silently: say why.
      onSecondError: (error: unknown) =>
        log.error({ error: describeErrorForLog(error) }, 'an error during shutdown ended it early'),
      onTimeout: (ms: number) => log.error(`shutdown took longer than ${ms} ms; exiting`),
    };
    closeWithGrace(graceOptions, async ({ signal, err }) => {
      if (err) log.error({ error: describeErrorForLog(err) }, 'shutting down after an unexpected error');
      else log.info(`${signal ?? 'exit'} received, shutting down`);
      draining.abort();
      if (!err && drainMs > 0) {
        // Still serving: requests already on their way here are answered, while /readyz's 503
        // tells the load balancer to send new ones elsewhere. Closing at once would refuse them.
        log.info(`draining for ${drainMs} ms before closing`);
        await new Promise((resolve) => setTimeout(resolve, drainMs));
      }
      await app.close(); // stops accepting, waits for in-flight requests, closes sockets
      await jobs.stop(); // lets running jobs finish; the others wait in the queue for any instance
      await bus.close();
      await db.$disconnect();
      await runningDatabase.stop();
      log.info('shutdown complete');
    });

    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    announce(`Brokerage Portal listening on http://${config.host}:${port}`);
  } catch (error) {
    log.fatal({ error: describeErrorForLog(error) }, 'start-up failed');
    // Messages written for the operator (they name the file or the bucket at fault).
    if (
      error instanceof Error &&
      ['MigrationError', 'StorageUnreachableError', 'SigningIdentityError'].includes(error.name)
    )
      console.error(error.message);
    await database?.stop().catch(() => {});
    process.exit(1);
  }
}

await main();
