import type { Clock } from './clock';
import type { AppConfig } from './config';
import type { Db } from './db/client';
import type { Mailer } from './mail/mailer';
import type { NotificationBus } from './realtime/bus';
import type { PasswordHasher } from './security/passwords';
import type { RateLimiter } from './security/rate-limits';
import type { SigningIdentity } from './services/esign/identity';
import type { Storage } from './storage/storage';

/**
 * Everything the app needs from outside, passed in: buildApp(deps) and
 * every procedure (as ctx.deps) see only this, so tests inject their own database and clock.
 */
export type AppDeps = {
  config: AppConfig & { jwtSecret: string };
  db: Db;
  clock: Clock;
  mailer: Mailer;
  passwords: PasswordHasher;
  /** The sign-in, registration, reset and refresh limits, counted in PostgreSQL: shared by every instance. */
  limits: RateLimiter;
  /** Uploaded files (local folder or S3-compatible). */
  storage: Storage;
  /** Live events from PostgreSQL LISTEN/NOTIFY to this instance's sockets. */
  bus: NotificationBus;
  /**
   * The instance's certificate and key for signed PDFs, loaded on first use (absent: loaded from
   * the configuration by services/esign/signing-identity.ts).
   */
  signingIdentity?: () => Promise<SigningIdentity>;
  /** Aborted when the process begins to shut down: /readyz then answers 503 (SHUTDOWN_DRAIN_MS). */
  shutdown?: AbortSignal;
};
