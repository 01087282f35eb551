import { type ArchiveKey, loadArchiveKey } from '../../archive/signing-key';
import type { AppDeps } from '../../deps';

/**
 * The installation's archive key, loaded once per set of dependencies on first use (a sealing
 * job or GET /api/archive/public-key), never at start-up.
 */
const loaded = new WeakMap<AppDeps['config'], Promise<ArchiveKey>>();

export function archiveKeyOf(deps: AppDeps): Promise<ArchiveKey> {
  let key = loaded.get(deps.config);
  if (!key) {
    key = loadArchiveKey({ keyPem: deps.config.archiveSigningKey, dataDir: deps.config.dataDir });
    // A failed load is tried again next time rather than remembered.
    key.catch(() => loaded.delete(deps.config));
    loaded.set(deps.config, key);
  }
  return key;
}
