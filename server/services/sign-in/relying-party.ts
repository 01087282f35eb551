import type { AppConfig } from '../../config';

/**
 * Who passkeys are made for: the relying party's id (a host name the browser checks the page
 * against, and which every credential is bound to for good) and the page origins an answer may
 * come from. WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS, or else APP_URL's host and origin.
 */

/** The name an authenticator shows beside the passkey. */
export const RELYING_PARTY_NAME = 'Brokerage Portal';

export type RelyingParty = { id: string; name: string; origins: string[] };

export function relyingPartyOf(
  config: Pick<AppConfig, 'appUrl' | 'webauthnRpId' | 'webauthnOrigins'>,
): RelyingParty {
  const app = new URL(config.appUrl);
  return {
    id: config.webauthnRpId ?? app.hostname,
    name: RELYING_PARTY_NAME,
    origins: config.webauthnOrigins ?? [app.origin],
  };
}
