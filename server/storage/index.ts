import path from 'node:path';
import type { AppConfig } from '../config';
import type { Clock } from '../deps';
import { localStorage } from './local';
import { fileSigningKey } from './signed-urls';
import type { Storage } from './storage';

/** The storage driver STORAGE_DRIVER names (DESIGN.md section 6). */
export function createStorage(config: AppConfig & { jwtSecret: string }, clock: Clock): Storage {
  if (config.storage.driver === 's3') {
    // The S3-compatible driver lands with the scale-out work (issue 10); refuse rather than
    // silently keep files on a local disk the operator believes is S3.
    throw new Error('STORAGE_DRIVER=s3 is not available in this version; use STORAGE_DRIVER=local');
  }
  return localStorage({
    root: path.join(config.dataDir, 'uploads'),
    publicBaseUrl: config.appUrl,
    signingKey: fileSigningKey(config.jwtSecret),
    clock,
  });
}
