import { generateKeyPairSync } from 'node:crypto';
import type { AppConfig } from '../config';
import type { AppDeps } from '../deps';

/**
 * The configuration of an app built in-process: tests (through server/test/harness.ts) and the
 * scripts that serve the OpenAPI document without a database. No vitest here, so scripts can
 * import it.
 */

/** One archive key per test process: tests need no DATA_DIR to seal an archive. */
const TEST_ARCHIVE_KEY = generateKeyPairSync('ed25519')
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export function testConfig(overrides: Partial<AppConfig> = {}): AppDeps['config'] {
  return {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    databaseUrl: undefined,
    dataDir: '/nonexistent',
    appUrl: 'http://localhost:3000',
    adminEmail: 'owner@example.com',
    adminPassword: 'owner-password-1',
    seedDemo: false,
    smtpUrl: undefined,
    mailFrom: 'Portal <no-reply@example.com>',
    brokerageName: 'Harbor Realty',
    storage: { driver: 'local' },
    maxUploadBytes: 25 * 1024 * 1024,
    logLevel: 'silent',
    rateLimitPerMin: 0,
    apiKeyRateLimitPerMin: 600,
    signInLimitPerIp: 100,
    searchTimeoutMs: 1000,
    metricsToken: undefined,
    trustProxy: false,
    shutdownDrainMs: 0,
    databasePoolSize: 10,
    jobConcurrency: 2,
    jobWorkerStaleMs: 60_000,
    webhookAllowPrivate: false,
    corsOrigins: [],
    signingCert: undefined,
    signingKey: undefined,
    archiveSigningKey: TEST_ARCHIVE_KEY,
    ...overrides,
    jwtSecret: overrides.jwtSecret ?? TEST_JWT_SECRET,
  };
}
