import type { AppConfig } from '../config';
import { startEmbeddedPostgres } from './embedded';

type Logger = { info(msg: string): void; warn(msg: string): void; debug(msg: string): void };
export type RunningDatabase = { url: string; stop(): Promise<void> };

/** DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR. */
export async function startDatabase(config: AppConfig, log: Logger): Promise<RunningDatabase> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log });
  return { url: embedded.url, stop: embedded.stop };
}
