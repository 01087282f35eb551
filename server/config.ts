import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { type OidcSettings, oidcIssues, oidcSettingsOf } from './oidc-config';
import type { S3Settings } from './storage/s3';

/**
 * The environment, parsed once at start-up. A bad value stops the process
 * with a message naming the variable, rather than failing later somewhere less obvious.
 */

const booleanFromEnv = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'].includes(v), {
    error: 'must be true or false',
  })
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const integerFromEnv = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: `must be a whole number from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );

const postgresUrl = z
  .string()
  .trim()
  .refine((v) => /^postgres(ql)?:\/\/.+/.test(v), { error: 'must be a postgresql:// URL' });

const httpUrl = z
  .string()
  .trim()
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), {
    error: 'must be an http(s) URL',
  })
  .transform((v) => v.replace(/\/+$/, ''));

const emailAddress = z.email({ error: 'must be an email address' });

/** A passkey's relying party: a bare host name (no scheme, port or path), e.g. portal.example.com. */
const relyingPartyId = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, {
    error: 'must be a host name such as portal.example.com (no scheme, port or path)',
  });

/**
 * Origins, each exactly `scheme://host[:port]` as a browser sends it in Origin: the pages passkeys
 * may be used from, and those browser integrations call /api from (never a wildcard or a path).
 */
const originList = z
  .string()
  .trim()
  .transform((value, issue) => {
    const origins = value
      .split(',')
      .map((one) => one.trim())
      .filter(Boolean);
    const wrong = origins.find(
      (one) => !URL.canParse(one) || !/^https?:$/.test(new URL(one).protocol) || new URL(one).origin !== one,
    );
    if (origins.length === 0 || wrong !== undefined) {
      issue.addIssue({
        code: 'custom',
        message:
          'must be comma-separated origins such as https://portal.example.com (scheme, host, optional port; no path)',
      });
      return z.NEVER;
    }
    return origins;
  });

/**
 * A PEM block, which an environment variable often carries on one line with its line breaks
 * written as "\n": those are turned back into line breaks.
 */
const pemFromEnv = (label: RegExp, what: string) =>
  z
    .string()
    .transform((v) => v.replaceAll('\\r', '').replaceAll('\\n', '\n').replaceAll('\r', '').trim())
    .refine((v) => label.test(v), { error: `must be ${what} in PEM (-----BEGIN ...-----)` });

/**
 * What Fastify's `trustProxy` option takes: see TRUST_PROXY in .env.example. Not a hop count:
 * Fastify 5 ignores one (it cannot tell a proxy from a client that sends enough headers).
 */
export type TrustProxy = boolean | string[];

/** proxy-addr's names for the loopback, link-local and private ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * Whose X-Forwarded-For to believe. Off by default: a client could otherwise name any address
 * and escape the per-address rate limits. Behind a proxy, every request would come from the
 * proxy's address without it, so all users would share one limit.
 */
const trustProxyFromEnv = z
  .string()
  .trim()
  .transform((value, ctx): TrustProxy => {
    const word = value.toLowerCase();
    if (['true', 'yes', 'on'].includes(word)) return true;
    if (['false', 'no', 'off'].includes(word)) return false;
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0);
    if (entries.length === 0 || !entries.every(isAddressOrRange)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be true, false, or a comma-separated list of IP addresses and CIDR ranges ' +
          '(or loopback, linklocal, uniquelocal)',
      });
      return z.NEVER;
    }
    return entries;
  });

const environmentSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: integerFromEnv(0, 65535).default(3000),
    HOST: z.string().trim().min(1).default('127.0.0.1'),
    DATABASE_URL: postgresUrl.optional(),
    DATA_DIR: z.string().trim().min(1).default('./.data'),
    APP_URL: httpUrl.optional(),
    JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    ADMIN_EMAIL: emailAddress.default('admin@example.com'),
    ADMIN_PASSWORD: z.string().min(8, { error: 'must be at least 8 characters' }).optional(),
    SEED_DEMO: booleanFromEnv.optional(),
    SMTP_URL: z
      .string()
      .trim()
      .refine((v) => /^smtps?:\/\/.+/.test(v), { error: 'must be an smtp:// or smtps:// URL' })
      .optional(),
    MAIL_FROM: z.string().trim().min(3).default('Brokerage Portal <no-reply@localhost>'),
    BROKERAGE_NAME: z.string().trim().min(1).max(200).default('Brokerage'),
    STORAGE_DRIVER: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
    S3_ENDPOINT: httpUrl.optional(),
    S3_PUBLIC_ENDPOINT: httpUrl.optional(),
    S3_BUCKET: z.string().trim().min(3).optional(),
    S3_REGION: z.string().trim().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
    MAX_UPLOAD_MB: integerFromEnv(1, 10_240).default(25),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    RATE_LIMIT_PER_MIN: integerFromEnv(0, 1_000_000).default(1200),
    API_KEY_RATE_LIMIT_PER_MIN: integerFromEnv(1, 1_000_000).default(600),
    SIGN_IN_LIMIT_PER_IP: integerFromEnv(1, 1_000_000).default(100),
    SEARCH_TIMEOUT_MS: integerFromEnv(100, 600_000).default(1000),
    TRUST_PROXY: trustProxyFromEnv.default(false),
    SHUTDOWN_DRAIN_MS: integerFromEnv(0, 120_000).default(0),
    JOB_CONCURRENCY: integerFromEnv(1, 50).default(5),
    JOB_WORKER_STALE_MS: integerFromEnv(2_000, 3_600_000).default(60_000),
    DATABASE_POOL_SIZE: integerFromEnv(1, 500).default(10),
    WEBHOOK_ALLOW_PRIVATE: booleanFromEnv.default(false),
    CORS_ORIGINS: originList.default([]),
    WEBAUTHN_RP_ID: relyingPartyId.optional(),
    WEBAUTHN_ORIGINS: originList.optional(),
    SIGNING_CERT: pemFromEnv(/-----BEGIN CERTIFICATE-----/, 'a certificate').optional(),
    SIGNING_KEY: pemFromEnv(
      /-----BEGIN (RSA )?PRIVATE KEY-----/,
      'an unencrypted RSA private key',
    ).optional(),
    ARCHIVE_SIGNING_KEY: pemFromEnv(
      /-----BEGIN PRIVATE KEY-----/,
      'an Ed25519 private key (PKCS#8)',
    ).optional(),
    METRICS_TOKEN: z
      .string()
      .min(32, { error: 'must be at least 32 characters (for example `openssl rand -hex 32`)' })
      .regex(/^[\x21-\x7e]*$/, {
        error: 'must be printable ASCII without spaces (it is sent in an HTTP header)',
      })
      .optional(),
    // Kept exactly as given: the provider's discovery document must name the same issuer, and
    // some providers' issuers end in a slash.
    OIDC_ISSUER: z
      .string()
      .trim()
      .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), {
        error: 'must be an http(s) URL',
      })
      .optional(),
    OIDC_CLIENT_ID: z.string().trim().min(1).max(500).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
    OIDC_NAME: z.string().trim().min(1).max(60).default('single sign-on'),
    OIDC_AUTO_REGISTER: booleanFromEnv.default(false),
  })
  .superRefine((env, issue) => {
    oidcIssues(env, issue);
    if (env.DATABASE_URL && !env.JWT_SECRET) {
      issue.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message: 'is required when DATABASE_URL is set (every instance must share it)',
      });
    }
    if (Boolean(env.SIGNING_CERT) !== Boolean(env.SIGNING_KEY)) {
      issue.addIssue({
        code: 'custom',
        path: [env.SIGNING_CERT ? 'SIGNING_KEY' : 'SIGNING_CERT'],
        message: 'is required when the other of SIGNING_CERT and SIGNING_KEY is set (both or neither)',
      });
    }
    if (env.STORAGE_DRIVER === 's3') {
      for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!env[name])
          issue.addIssue({ code: 'custom', path: [name], message: 'is required when STORAGE_DRIVER=s3' });
      }
    }
  });

export type AppConfig = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Absent: the embedded PostgreSQL under dataDir is used. */
  databaseUrl: string | undefined;
  dataDir: string;
  appUrl: string;
  /** Absent only before ensureJwtSecret() ran for the embedded default. */
  jwtSecret: string | undefined;
  adminEmail: string;
  adminPassword: string | undefined;
  seedDemo: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The brokerage's name as its documents print it: the payee of a CDA's brokerage lines. */
  brokerageName: string;
  storage: { driver: 'local' } | ({ driver: 's3' } & S3Settings);
  maxUploadBytes: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Requests per minute per IP for ordinary calls; 0 disables the limit. */
  rateLimitPerMin: number;
  /** Calls one API key may make per minute, counted once for all instances. */
  apiKeyRateLimitPerMin: number;
  /**
   * Sign-in attempts from one address in 15 minutes, counted once for all instances: an office
   * whose agents share one public address needs more than the default.
   */
  signInLimitPerIp: number;
  /** A transaction search's statement_timeout: a term no index serves is cut off (503), not scanned on. */
  searchTimeoutMs: number;
  /** Bearer token Prometheus scrapes /metrics with; absent: /metrics does not exist (404). */
  metricsToken: string | undefined;
  /** Which peers' X-Forwarded-For names the client (Fastify's trustProxy); false: none. */
  trustProxy: TrustProxy;
  /**
   * On SIGTERM, how long /readyz answers 503 while everything else is still served, so a load
   * balancer takes the instance out of rotation before it stops listening (a rolling deploy then
   * loses no request). 0: stop at once, as a developer's Ctrl-C expects.
   */
  shutdownDrainMs: number;
  /** Jobs one instance runs at once (mail, reminders, digests). */
  jobConcurrency: number;
  /** A job worker silent this long is taken for dead and its jobs run again elsewhere. */
  jobWorkerStaleMs: number;
  /** Connections in this instance's pool (Prisma and the hot-path SQL share it). */
  databasePoolSize: number;
  /** Webhook URLs may reach loopback, private and link-local addresses (tests, closed networks). */
  webhookAllowPrivate: boolean;
  /** Origins of browser integrations allowed to call /api across origins (CORS); empty: none. */
  corsOrigins: readonly string[];
  /**
   * The certificate (with its chain) and key completed e-signatures are signed with, PEM; both or
   * neither. Neither: a self-signed certificate generated once into dataDir.
   */
  signingCert: string | undefined;
  signingKey: string | undefined;
  /** Passkeys' relying party id; absent: APP_URL's host (services/sign-in/relying-party.ts). */
  webauthnRpId?: string | undefined;
  /** The origins passkeys are accepted from; absent: APP_URL's origin. */
  webauthnOrigins?: string[] | undefined;
  /** Sign-in with an OpenID provider; absent: off (OIDC_ISSUER, _CLIENT_ID, _CLIENT_SECRET unset). */
  oidc?: OidcSettings | undefined;
  /** The Ed25519 private key (PKCS#8 PEM) closed files' archives are signed with; unset: generated once into dataDir. */
  archiveSigningKey: string | undefined;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Empty strings count as unset, as they do in most .env tooling. */
function withoutEmptyValues(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = environmentSchema.safeParse(withoutEmptyValues(env));
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment');
        // Never echo a secret's value back into logs.
        const value = env[name];
        const shown =
          value === undefined || /SECRET|PASSWORD|URL|TOKEN|SIGNING_/.test(name)
            ? ''
            : ` (got ${JSON.stringify(value)})`;
        return `${name} ${issue.message}${shown}`;
      }),
    );
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    appUrl: e.APP_URL ?? `http://localhost:${e.PORT}`,
    jwtSecret: e.JWT_SECRET,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    // Demo data makes a newcomer's embedded start look alive; a real database starts empty.
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    brokerageName: e.BROKERAGE_NAME,
    storage:
      e.STORAGE_DRIVER === 's3'
        ? {
            driver: 's3',
            endpoint: e.S3_ENDPOINT,
            publicEndpoint: e.S3_PUBLIC_ENDPOINT ?? e.S3_ENDPOINT,
            bucket: e.S3_BUCKET ?? '',
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID ?? '',
            secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? '',
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : { driver: 'local' },
    maxUploadBytes: e.MAX_UPLOAD_MB * 1024 * 1024,
    logLevel: e.LOG_LEVEL,
    rateLimitPerMin: e.RATE_LIMIT_PER_MIN,
    apiKeyRateLimitPerMin: e.API_KEY_RATE_LIMIT_PER_MIN,
    signInLimitPerIp: e.SIGN_IN_LIMIT_PER_IP,
    searchTimeoutMs: e.SEARCH_TIMEOUT_MS,
    metricsToken: e.METRICS_TOKEN,
    trustProxy: e.TRUST_PROXY,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    jobConcurrency: e.JOB_CONCURRENCY,
    jobWorkerStaleMs: e.JOB_WORKER_STALE_MS,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    corsOrigins: e.CORS_ORIGINS,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    signingCert: e.SIGNING_CERT,
    signingKey: e.SIGNING_KEY,
    webauthnRpId: e.WEBAUTHN_RP_ID,
    webauthnOrigins: e.WEBAUTHN_ORIGINS,
    oidc: oidcSettingsOf(e),
    archiveSigningKey: e.ARCHIVE_SIGNING_KEY,
  };
}

/**
 * Reads ./.env when there is one (the copy of .env.example a developer edits). Variables already
 * in the environment win, so a deployment's settings are never overridden by a stray file.
 */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

/**
 * The embedded default generates the signing secret once and keeps it in DATA_DIR, so sessions
 * survive restarts without the newcomer configuring anything.
 */
export async function ensureJwtSecret(config: AppConfig): Promise<AppConfig & { jwtSecret: string }> {
  if (config.jwtSecret) return { ...config, jwtSecret: config.jwtSecret };
  const file = path.join(config.dataDir, 'jwt-secret');
  let secret = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  if (secret.length < 32) {
    secret = randomBytes(48).toString('base64url');
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(file, `${secret}\n`, { mode: 0o600 });
  }
  return { ...config, jwtSecret: secret };
}
