import path from 'node:path';
import type { AppConfig } from '../config';
import type { Clock } from '../deps';
import { localStorage } from './local';
import { checkS3Bucket, s3Storage } from './s3';
import { fileSigningKey } from './signed-urls';
import type { Storage } from './storage';

/** The storage driver STORAGE_DRIVER names (DESIGN.md section 6). */
export function createStorage(config: AppConfig & { jwtSecret: string }, clock: Clock): Storage {
  if (config.storage.driver === 's3') return s3Storage({ ...config.storage, clock });
  return localStorage({
    root: path.join(config.dataDir, 'uploads'),
    publicBaseUrl: config.appUrl,
    signingKey: fileSigningKey(config.jwtSecret),
    clock,
  });
}

/**
 * Start-up: fails (StorageUnreachableError, naming bucket and endpoint) when the configured S3
 * bucket does not answer. The local folder needs no check: it is created on the first upload.
 */
export async function checkStorage(config: AppConfig): Promise<void> {
  if (config.storage.driver === 's3') await checkS3Bucket(config.storage);
}
