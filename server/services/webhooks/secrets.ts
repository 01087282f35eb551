import type { AppDeps } from '../../deps';
import { createSealer, type Sealer } from '../../security/sealing';

/** Webhook signing secrets at rest: sealed under their own key derived from JWT_SECRET. */
const sealers = new Map<string, Sealer>();
function sealerOf(deps: AppDeps): Sealer {
  const secret = deps.config.jwtSecret;
  let sealer = sealers.get(secret);
  if (!sealer) {
    sealer = createSealer(secret, 'webhook-secret-v1');
    sealers.set(secret, sealer);
  }
  return sealer;
}

export const sealSecret = (deps: AppDeps, secret: string) => sealerOf(deps).seal(secret);
export const openSecret = (deps: AppDeps, sealed: string) => sealerOf(deps).open(sealed);
