import path from 'node:path';
import type { Clock } from '../clock';
import type { AppConfig } from '../config';
import { localStorage } from './local';
import { fileSigningKey } from './signed-urls';
import type { Storage } from './storage';

/**
 * The AWS SDK takes about 150 ms to load, a sixth of a cold start: only a portal that keeps its
 * files in S3 loads it (scripts/build-server.mjs splits s3.ts and its imports into a chunk of
 * their own, so the bundle defers them too).
 */
const loadS3Driver = () => import('./s3');

/** The storage driver STORAGE_DRIVER names. */
export function createStorage(config: AppConfig & { jwtSecret: string }, clock: Clock): Storage {
  if (config.storage.driver === 's3') {
    const settings = config.storage;
    return deferredStorage(loadS3Driver().then((s3) => s3.s3Storage({ ...settings, clock })));
  }
  return localStorage({
    root: path.join(config.dataDir, 'uploads'),
    publicBaseUrl: config.appUrl,
    signingKey: fileSigningKey(config.jwtSecret),
    clock,
  });
}

/** A driver that is still loading: each call waits for it (the first call at most). */
function deferredStorage(driver: Promise<Storage>): Storage {
  // A failed load surfaces in every call; it must not also crash the process as unhandled.
  driver.catch(() => {});
  return {
    put: async (...args) => (await driver).put(...args),
    open: async (...args) => (await driver).open(...args),
    size: async (...args) => (await driver).size(...args),
    exists: async (...args) => (await driver).exists(...args),
    delete: async (...args) => (await driver).delete(...args),
    signedUrl: async (...args) => (await driver).signedUrl(...args),
  };
}

/**
 * Start-up: fails (StorageUnreachableError, naming bucket and endpoint) when the configured S3
 * bucket does not answer. The local folder needs no check: it is created on the first upload.
 */
export async function checkStorage(config: AppConfig): Promise<void> {
  if (config.storage.driver === 's3') await (await loadS3Driver()).checkS3Bucket(config.storage);
}
