import { pino } from 'pino';
import { buildApp } from '../server/app';
import { createDb } from '../server/db/client';
import type { AppDeps } from '../server/deps';
import type { NotificationBus } from '../server/realtime/bus';
import { createPasswordHasher } from '../server/security/passwords';
import { createRateLimiter } from '../server/security/rate-limits';
import { createStorage } from '../server/storage';
import { testConfig } from '../server/test/test-config';

/**
 * The OpenAPI document exactly as GET /api/openapi.json serves it, from the app built in-process.
 * Building the document touches no database: the client below never connects.
 */
export async function servedOpenApiDocument(): Promise<Record<string, unknown>> {
  const config = testConfig({
    databasePoolSize: 1,
    jobConcurrency: 1,
    adminPassword: 'unused-password',
    jwtSecret: 'document-only-secret-that-signs-nothing-0123456789',
  });
  const db = createDb('postgresql://nobody@127.0.0.1:1/none', { poolSize: 1 });
  const clock = { now: () => new Date() };
  const bus: NotificationBus = { subscribe: () => () => {}, close: async () => {} };
  const deps: AppDeps = {
    config,
    db,
    clock,
    mailer: { send: async () => {} } as unknown as AppDeps['mailer'],
    passwords: createPasswordHasher('test'),
    limits: createRateLimiter(db, clock),
    storage: createStorage(config, clock),
    bus,
  };
  const app = buildApp(deps, {
    clientDir: null,
    loggerInstance: pino({ level: process.env.OPENAPI_LOG ?? 'silent' }),
  });
  try {
    const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    if (res.statusCode !== 200)
      throw new Error(`GET /api/openapi.json answered ${res.statusCode}: ${res.body}`);
    return res.json();
  } finally {
    await app.close();
    await db.$disconnect();
  }
}
