import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { limitRulesOf } from './security/rate-limits';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  test('the embedded default needs no setting at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: path.resolve('.data'),
      appUrl: 'http://localhost:3000',
      adminEmail: 'admin@example.com',
      seedDemo: true,
      storage: { driver: 'local' },
      maxUploadBytes: 25 * 1024 * 1024,
      logLevel: 'info',
      rateLimitPerMin: 1200,
      searchTimeoutMs: 1000,
    });
  });

  test('SEARCH_TIMEOUT_MS: milliseconds from 100 to 600,000', () => {
    expect(loadConfig({ SEARCH_TIMEOUT_MS: '250' }).searchTimeoutMs).toBe(250);
    expect(problemsOf({ SEARCH_TIMEOUT_MS: '50' })).toEqual([
      'SEARCH_TIMEOUT_MS must be at least 100 (got "50")',
    ]);
    expect(problemsOf({ SEARCH_TIMEOUT_MS: '1.5' })).toEqual([
      'SEARCH_TIMEOUT_MS must be a whole number from 100 to 600000 (got "1.5")',
    ]);
  });

  test('SIGN_IN_LIMIT_PER_IP: 100 sign-ins from one address in 15 minutes unless raised', () => {
    expect(loadConfig({}).signInLimitPerIp).toBe(100);
    const config = loadConfig({ SIGN_IN_LIMIT_PER_IP: '400' });
    expect(config.signInLimitPerIp).toBe(400);
    expect(limitRulesOf(config).loginPerIp).toEqual({ max: 400, windowMs: 15 * 60_000 });
    expect(problemsOf({ SIGN_IN_LIMIT_PER_IP: '0' })).toEqual([
      'SIGN_IN_LIMIT_PER_IP must be at least 1 (got "0")',
    ]);
  });

  test('SHUTDOWN_DRAIN_MS and DATABASE_POOL_SIZE: defaults for one instance, bounded whole numbers', () => {
    expect(loadConfig({})).toMatchObject({ shutdownDrainMs: 0, databasePoolSize: 10 });
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '6000', DATABASE_POOL_SIZE: '25' })).toMatchObject({
      shutdownDrainMs: 6000,
      databasePoolSize: 25,
    });
    expect(problemsOf({ SHUTDOWN_DRAIN_MS: '-1', DATABASE_POOL_SIZE: '0' })).toEqual([
      'SHUTDOWN_DRAIN_MS must be a whole number from 0 to 120000 (got "-1")',
      'DATABASE_POOL_SIZE must be at least 1 (got "0")',
    ]);
  });

  test('SIGNING_CERT and SIGNING_KEY: both or neither, PEM, one-line "\\n" PEMs read as PEM', () => {
    expect(loadConfig({})).toMatchObject({ signingCert: undefined, signingKey: undefined });
    const cert = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
    const key = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----';
    const oneLine = (pem: string) => pem.replaceAll('\n', '\\n');
    expect(loadConfig({ SIGNING_CERT: oneLine(cert), SIGNING_KEY: `${oneLine(key)}\\n` })).toMatchObject({
      signingCert: cert,
      signingKey: key,
    });
    const halfMessage = 'is required when the other of SIGNING_CERT and SIGNING_KEY is set (both or neither)';
    expect(problemsOf({ SIGNING_CERT: cert })).toEqual([`SIGNING_KEY ${halfMessage}`]);
    expect(problemsOf({ SIGNING_KEY: key })).toEqual([`SIGNING_CERT ${halfMessage}`]);
    // The key's value is never echoed back.
    expect(problemsOf({ SIGNING_CERT: cert, SIGNING_KEY: 'secret-but-no-pem' })).toEqual([
      'SIGNING_KEY must be an unencrypted RSA private key in PEM (-----BEGIN ...-----)',
    ]);
  });

  test('CORS_ORIGINS: none unless set; exact origins only, never a wildcard or a path', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(
      loadConfig({ CORS_ORIGINS: ' https://crm.example.com, http://localhost:5173 ' }).corsOrigins,
    ).toEqual(['https://crm.example.com', 'http://localhost:5173']);
    for (const bad of ['*', 'https://crm.example.com/app', 'crm.example.com', 'ftp://crm.example.com']) {
      expect(problemsOf({ CORS_ORIGINS: bad })).toEqual([
        'CORS_ORIGINS must be comma-separated origins such as https://portal.example.com (scheme, host, ' +
          `optional port; no path) (got "${bad}")`,
      ]);
    }
  });

  test('TRUST_PROXY: off unless set; true/false, or addresses and CIDR ranges (not a hop count)', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'TRUE' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(
      loadConfig({ TRUST_PROXY: ' 10.0.0.1, 172.28.0.0/16 ,fd00::/8,loopback,::1 ' }).trustProxy,
    ).toEqual(['10.0.0.1', '172.28.0.0/16', 'fd00::/8', 'loopback', '::1']);
    const message =
      'TRUST_PROXY must be true, false, or a comma-separated list of IP addresses and CIDR ' +
      'ranges (or loopback, linklocal, uniquelocal)';
    for (const bad of [
      'caddy',
      '10.0.0.0/33',
      '10.0.0.1/8/1',
      '300.1.1.1',
      '::1/129',
      '10.0.0.0/x',
      ',',
      // Fastify 5 ignores a hop count, so one is refused rather than silently trusting nobody.
      '1',
    ]) {
      expect(problemsOf({ TRUST_PROXY: bad })).toEqual([`${message} (got ${JSON.stringify(bad)})`]);
    }
  });

  test('values are parsed and derived: APP_URL from PORT, demo data off with DATABASE_URL, MiB uploads', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgresql://app@db/portal',
      JWT_SECRET: 'x'.repeat(32),
      MAX_UPLOAD_MB: '10',
      RATE_LIMIT_PER_MIN: '0',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 8080,
      appUrl: 'http://localhost:8080',
      seedDemo: false,
      rateLimitPerMin: 0,
    });
    expect(config.maxUploadBytes).toBe(10 * 1024 * 1024);
    expect(loadConfig({ APP_URL: 'https://portal.example.com/' }).appUrl).toBe('https://portal.example.com');
    expect(loadConfig({ SEED_DEMO: 'no' }).seedDemo).toBe(false);
    expect(loadConfig({ PORT: '' }).port).toBe(3000); // empty means unset
  });

  test('each bad value is reported with its variable name', () => {
    expect(
      problemsOf({ PORT: '70000', HOST: ' ', LOG_LEVEL: 'loud', SEED_DEMO: 'maybe', STORAGE_DRIVER: 'ftp' }),
    ).toEqual([
      'PORT must be at most 65535 (got "70000")',
      'HOST Too small: expected string to have >=1 characters (got " ")',
      'SEED_DEMO must be true or false (got "maybe")',
      'STORAGE_DRIVER must be local or s3 (got "ftp")',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ]);
  });

  test('a shared database demands a shared signing secret; S3 demands its credentials', () => {
    expect(problemsOf({ DATABASE_URL: 'postgresql://db/portal' })).toEqual([
      'JWT_SECRET is required when DATABASE_URL is set (every instance must share it)',
    ]);
    expect(problemsOf({ STORAGE_DRIVER: 's3' })).toEqual([
      'S3_BUCKET is required when STORAGE_DRIVER=s3',
      'S3_ACCESS_KEY_ID is required when STORAGE_DRIVER=s3',
      'S3_SECRET_ACCESS_KEY is required when STORAGE_DRIVER=s3',
    ]);
  });

  test('S3: presigned links use S3_PUBLIC_ENDPOINT when browsers reach S3 elsewhere than the server', () => {
    const s3 = {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'http://minio:9000/',
      S3_BUCKET: 'portal-files',
      S3_ACCESS_KEY_ID: 'portal',
      S3_SECRET_ACCESS_KEY: 'portal-secret',
      S3_FORCE_PATH_STYLE: 'true',
    };
    expect(loadConfig(s3).storage).toEqual({
      driver: 's3',
      endpoint: 'http://minio:9000',
      publicEndpoint: 'http://minio:9000',
      bucket: 'portal-files',
      region: 'us-east-1',
      accessKeyId: 'portal',
      secretAccessKey: 'portal-secret',
      forcePathStyle: true,
    });
    expect(loadConfig({ ...s3, S3_PUBLIC_ENDPOINT: 'http://localhost:9000' }).storage).toMatchObject({
      endpoint: 'http://minio:9000',
      publicEndpoint: 'http://localhost:9000',
    });
    expect(problemsOf({ ...s3, S3_PUBLIC_ENDPOINT: 'minio:9000' })).toEqual([
      'S3_PUBLIC_ENDPOINT must be an http(s) URL (got "minio:9000")',
    ]);
  });

  test('METRICS_TOKEN: unset turns /metrics off; set, it is 32+ printable characters, never echoed', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    const token = 'a1B2-c3D4_e5F6.g7H8~i9J0+k1L2/m3N4=';
    expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token);
    expect(problemsOf({ METRICS_TOKEN: 'short-metrics-token' })).toEqual([
      'METRICS_TOKEN must be at least 32 characters (for example `openssl rand -hex 32`)',
    ]);
    expect(problemsOf({ METRICS_TOKEN: `${'x'.repeat(32)} with spaces` })).toEqual([
      'METRICS_TOKEN must be printable ASCII without spaces (it is sent in an HTTP header)',
    ]);
    expect(problemsOf({ METRICS_TOKEN: 'é'.repeat(40) })).toEqual([
      'METRICS_TOKEN must be printable ASCII without spaces (it is sent in an HTTP header)',
    ]);
    // Production refuses it the same way (there is no weaker rule anywhere).
    expect(problemsOf({ NODE_ENV: 'production', METRICS_TOKEN: 'x'.repeat(31) })).toHaveLength(1);
  });

  test('secret values are never repeated in the message', () => {
    const problems = problemsOf({
      JWT_SECRET: 'short-secret',
      DATABASE_URL: 'mysql://user:pw@host/db',
      ADMIN_PASSWORD: 'pw',
    });
    expect(problems.join('\n')).not.toMatch(/short-secret|pw@host|"pw"/);
    expect(problems).toContain('JWT_SECRET must be at least 32 characters');
    expect(problems).toContain('DATABASE_URL must be a postgresql:// URL');
  });
});

describe('loadDotEnv', () => {
  test('reads a .env file without overriding what the environment already says; no file is fine', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'portal-env-')), '.env');
    await writeFile(file, 'PORTAL_TEST_FROM_FILE=file\nPORTAL_TEST_BOTH=file\n');
    process.env.PORTAL_TEST_BOTH = 'environment';
    loadDotEnv(file);
    expect(process.env.PORTAL_TEST_FROM_FILE).toBe('file');
    expect(process.env.PORTAL_TEST_BOTH).toBe('environment');
    expect(() => loadDotEnv(path.join(tmpdir(), 'no-such-dir', '.env'))).not.toThrow();
  });
});
