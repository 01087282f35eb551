import type { AppDeps } from '../../deps';
import { loadSigningIdentity, type SigningIdentity } from './identity';

/**
 * The instance's signing identity, loaded once per set of dependencies on first use: the app
 * starts without touching it, and a process that never completes a request never loads it.
 */
const loaded = new WeakMap<AppDeps['config'], Promise<SigningIdentity>>();

export function signingIdentityOf(deps: AppDeps): Promise<SigningIdentity> {
  if (deps.signingIdentity) return deps.signingIdentity();
  let identity = loaded.get(deps.config);
  if (!identity) {
    identity = loadSigningIdentity({
      certPem: deps.config.signingCert,
      keyPem: deps.config.signingKey,
      dataDir: deps.config.dataDir,
      brokerageName: deps.config.brokerageName,
    });
    // A failed load is tried again next time rather than remembered.
    identity.catch(() => loaded.delete(deps.config));
    loaded.set(deps.config, identity);
  }
  return identity;
}
