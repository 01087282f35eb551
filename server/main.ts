import closeWithGrace from 'close-with-grace';
import { pino } from 'pino';
import { buildApp } from './app';
import { ConfigError, ensureJwtSecret, loadConfig, loadDotEnv } from './config';
import { createDb } from './db/client';
import { seedDemo } from './db/demo';
import { migrate } from './db/migrate';
import { seed } from './db/seed';
import { type RunningDatabase, startDatabase } from './db/start';
import { systemClock } from './deps';
import { describeErrorForLog } from './errors';
import {
  EVENT_LOOP_REPORT_SIGNAL,
  eventLoopReportEnabled,
  reportEventLoopDelayOnSignal,
} from './event-loop-report';
import { loggerOptions } from './logger';
import { createMailer } from './mail/mailer';
import { createNotificationBus } from './realtime/bus';
import { createPasswordHasher, passwordCostFor } from './services/passwords';
import { RateLimiter } from './services/rate-limits';
import { createStorage } from './storage';

/**
 * The process: configuration -> database -> migrations -> seed -> app -> listen, and the reverse
 * on SIGINT/SIGTERM: stop accepting, finish in-flight requests, close the pool, stop PostgreSQL.
 */

/** Under close-with-grace's own limit and well under the 10 s a supervisor usually allows. */
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
    database = await startDatabase(config, log);
    const resolved = await ensureJwtSecret(config);
    const migration = await migrate(database.url, { log });
    if (migration.applied.length === 0) log.info('Database schema is up to date');

    const db = createDb(database.url, { log });
    const seeded = await seed(db, resolved, log);
    if (seeded.generatedPassword) {
      announce(
        `Owner account created: ${resolved.adminEmail} with password ${seeded.generatedPassword} ` +
          '(shown only this once; set ADMIN_PASSWORD to choose it yourself)',
      );
    }

    const storage = createStorage(resolved, systemClock);
    const bus = createNotificationBus(database.url, log);
    if (resolved.seedDemo) {
      await seedDemo(db, storage, { cost: passwordCostFor(resolved.env), now: systemClock.now() }, log);
    }

    const app = buildApp(
      {
        config: resolved,
        db,
        clock: systemClock,
        mailer: createMailer(resolved, log),
        passwords: createPasswordHasher(passwordCostFor(resolved.env)),
        limits: new RateLimiter(systemClock),
        storage,
        bus,
      },
      { loggerInstance: log },
    );
    const runningDatabase = database;
    // The benchmarks' event-loop report takes SIGUSR2, which otherwise shuts down like SIGTERM.
    const reportsEventLoop = eventLoopReportEnabled();
    if (reportsEventLoop) reportEventLoopDelayOnSignal(announce);
    const skip = reportsEventLoop ? [EVENT_LOOP_REPORT_SIGNAL] : [];
    closeWithGrace({ delay: SHUTDOWN_GRACE_MS, logger: false, skip }, async ({ signal, err }) => {
      if (err) log.error({ error: describeErrorForLog(err) }, 'shutting down after an unexpected error');
      else log.info(`${signal ?? 'exit'} received, shutting down`);
      await app.close(); // stops accepting, waits for in-flight requests, closes sockets
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
    if (error instanceof Error && error.name === 'MigrationError') console.error(error.message);
    await database?.stop().catch(() => {});
    process.exit(1);
  }
}

await main();
