import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, inject } from 'vitest';
import { type BuildAppOptions, buildApp } from '../app';
import type { Clock } from '../clock';
import { createDb, type Db } from '../db/client';
import type { AppDeps } from '../deps';
import { outboxMailer } from '../mail/mailer';
import type { NotificationBus } from '../realtime/bus';
import { createPasswordHasher, type PasswordHasher } from '../security/passwords';
import { createRateLimiter, limitRulesOf } from '../security/rate-limits';
import type { CallerContext, ServiceContext } from '../services/context';
import { createStorage } from '../storage';
import { type Context, createContext } from '../trpc/context';
import { checkWebhookBodies, installContractCheck } from './contract';
import { createDatabase, dropDatabase, uniqueDatabaseName } from './databases';
import type { OpenApiDocument } from './openapi-schemas';
import { testConfig } from './test-config';

/**
 * What a server test file needs: its own real database (cloned from the migrated template, or
 * empty), a configuration, a controllable clock and the app built from them.
 */

export type TestDatabase = { readonly name: string; readonly url: string; readonly db: Db };

/**
 * Registers beforeAll/afterAll hooks that create this file's database and drop it afterwards.
 * `empty: true` gives a database without the schema (for migration tests).
 */
export function setupTestDatabase(options: { empty?: boolean } = {}): TestDatabase {
  const server = inject('testDatabaseServer');
  const name = uniqueDatabaseName(server.runPrefix);
  let url: string | undefined;
  let db: Db | undefined;

  beforeAll(async () => {
    url = await createDatabase(server.adminUrl, name, options.empty ? undefined : server.template);
    db = createDb(url, { poolSize: 5 });
  });
  afterAll(async () => {
    if (db && !options.empty) await checkRecordedWebhooks(db);
    await db?.$disconnect();
    await dropDatabase(server.adminUrl, name);
  });

  const notReady = () => new Error('The test database exists only inside tests and hooks (after beforeAll)');
  return {
    name,
    get url() {
      if (!url) throw notReady();
      return url;
    },
    get db() {
      if (!db) throw notReady();
      return db;
    },
  };
}

/** A clock the test moves by hand: token expiry and rate windows without waiting. */
export class TestClock implements Clock {
  constructor(private current = new Date('2026-11-21T12:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/**
 * Real time, shifted by hand: for what must agree with real time (the job engine schedules on the
 * database's clock; a webhook receiver refuses a webhook-timestamp 5 minutes off).
 */
export class ShiftedClock implements Clock {
  /** Milliseconds added to real time; negative is the past. */
  offset = 0;
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}

export { TEST_JWT_SECRET, testConfig } from './test-config';

/**
 * Real dependencies for a test: cheap argon2 parameters, the rate limits on the test's clock
 * (counted in the test's database, so every app built on it shares them, as instances do), and
 * mail written as .eml files to a temporary outbox (tests that read mail pass an SMTP mailer
 * pointed at server/test/smtp-inbox.ts instead).
 */
export function testDeps(db: Db, overrides: Partial<Omit<AppDeps, 'db'>> = {}): AppDeps {
  const clock = overrides.clock ?? new TestClock();
  const config = overrides.config ?? testConfig();
  return {
    config,
    clock,
    mailer: outboxMailer(path.join(os.tmpdir(), 'portal-test-outbox'), config.mailFrom, SILENT_LOG),
    passwords: createPasswordHasher('test'),
    limits: createRateLimiter(db, clock, limitRulesOf(config)),
    storage: createStorage({ ...config, dataDir: TEST_DATA_DIR }, clock),
    bus: SILENT_BUS,
    ...overrides,
    db,
  };
}

/**
 * The real (cheap) argon2 hasher, counting its calls, so that "429 before any hashing" is measured:
 * `calls.hash` counts hashes made, `calls.verify` checks (the decoy check for an unknown address
 * included).
 */
export function countingHasher(): PasswordHasher & { calls: { hash: number; verify: number } } {
  const real = createPasswordHasher('test');
  const calls = { hash: 0, verify: 0 };
  return {
    calls,
    hash(password) {
      calls.hash++;
      return real.hash(password);
    },
    verify(hash, password) {
      calls.verify++;
      return real.verify(hash, password);
    },
    verifyAgainstNothing(password) {
      calls.verify++;
      return real.verifyAgainstNothing(password);
    },
  };
}

const SILENT_LOG = { info() {} };
/**
 * Tests that do not watch live events get a bus that delivers nothing (pg_notify still runs in
 * every change). Live-delivery tests pass `createNotificationBus(database.url, ...)`.
 */
const SILENT_BUS: NotificationBus = { subscribe: () => () => {}, close: async () => {} };
/** Uploads of every test land under one temporary folder; keys are unique, so tests never clash. */
export const TEST_DATA_DIR = path.join(os.tmpdir(), 'portal-test-data');

/**
 * The real app on a test database; no client files, logs discarded unless a logger is given.
 * Every answer it gives is checked against its OpenAPI document (server/test/contract.ts).
 */
export function buildTestApp(deps: AppDeps, options: BuildAppOptions = {}) {
  const app = buildApp(deps, { clientDir: null, loggerInstance: pino({ level: 'silent' }), ...options });
  installContractCheck(app);
  return app;
}

let servedDocument: Promise<OpenApiDocument> | undefined;
/** The document of the app as it is deployed, made once per test process. */
function servedDocumentOf(db: Db): Promise<OpenApiDocument> {
  servedDocument ??= (async () => {
    const app = buildTestApp(testDeps(db));
    try {
      return (await app.inject('/api/openapi.json')).json() as OpenApiDocument;
    } finally {
      await app.close();
    }
  })();
  return servedDocument;
}

/** The webhook bodies this file's changes recorded, checked against the document's webhooks. */
async function checkRecordedWebhooks(db: Db): Promise<void> {
  const events = await db.$queryRaw<Array<{ type: string; body: string }>>`
    SELECT type, body FROM webhook_events`.catch(() => []);
  if (events.length > 0) checkWebhookBodies(await servedDocumentOf(db), events);
}

const SILENT_PINO = pino({ level: 'silent' });

/**
 * A call's context without any request: what the HTTP layer would make for a caller
 * holding `token` (none: anonymous), for tests that call procedures through createCaller.
 */
export function testContext(deps: AppDeps, token?: string): Promise<Context> {
  return createContext(deps, { token, requestId: 'test', ip: '127.0.0.1', log: SILENT_PINO });
}

/**
 * An anonymous call's context made without a request or a database, for tests of the tRPC
 * plumbing whose procedures never reach the database.
 */
export function anonymousContext(requestId = 'test'): Context {
  const deps = testDeps(undefined as unknown as Db);
  return { ...serviceContext(deps), requestId, auth: null, tokenRejected: false, apiKey: null };
}

/** A service's context for tests that call a service directly; with `user`, a signed-in caller. */
export function serviceContext(deps: AppDeps): ServiceContext;
export function serviceContext(deps: AppDeps, user: CallerContext['user']): CallerContext;
export function serviceContext(deps: AppDeps, user?: CallerContext['user']): ServiceContext | CallerContext {
  const base: ServiceContext = { deps, db: deps.db, ip: '127.0.0.1', requestId: 'test', log: SILENT_PINO };
  return user ? { ...base, user } : base;
}
