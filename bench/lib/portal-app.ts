import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../../server/app';
import { systemClock } from '../../server/clock';
import { ensureJwtSecret, loadConfig } from '../../server/config';
import { createDb, type Db } from '../../server/db/client';
import type { AppDeps } from '../../server/deps';
import { loggerOptions } from '../../server/logger';
import { createMailer } from '../../server/mail/mailer';
import { createNotificationBus } from '../../server/realtime/bus';
import { createPasswordHasher } from '../../server/security/passwords';
import { createRateLimiter } from '../../server/security/rate-limits';
import { createStorage } from '../../server/storage';

/**
 * The real portal inside the benchmark's process, with its dependencies made the way
 * server/main.ts makes them (production settings, argon2 at production cost, the real pool,
 * notification bus and storage), on the dataset's database. Logs at warn, as in production.
 */

export type PortalApp = {
  app: FastifyInstance;
  db: Db;
  config: AppDeps['config'];
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  close(): Promise<void>;
};

/**
 * The per-IP limit stays on (its work is part of every request) but high enough that one load
 * generator on one address is never answered 429: the config's maximum, a million a minute.
 */
export const BENCH_RATE_LIMIT_PER_MIN = '1000000';

export async function startPortalApp(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<PortalApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-bench-data-'));
  const config = await ensureJwtSecret(
    loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: 'benchmark-secret-that-is-long-enough-0123456789',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      RATE_LIMIT_PER_MIN: BENCH_RATE_LIMIT_PER_MIN,
      ...env,
    }),
  );
  const log = pino(loggerOptions(config.logLevel));
  const db = createDb(databaseUrl, { log, poolSize: config.databasePoolSize });
  const bus = createNotificationBus(databaseUrl, log);
  const app = buildApp(
    {
      config,
      db,
      clock: systemClock,
      mailer: createMailer(config, log),
      passwords: createPasswordHasher('production'),
      limits: createRateLimiter(db, systemClock),
      storage: createStorage(config, systemClock),
      bus,
    },
    { loggerInstance: log },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('the app has no address');
  return {
    app,
    db,
    config,
    baseUrl: `http://127.0.0.1:${address.port}`,
    async close() {
      await app.close();
      await bus.close();
      await db.$disconnect();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
