import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { relyingPartyOf } from './relying-party';

/** WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS, read and defaulted from APP_URL. */

const base = { APP_URL: 'https://portal.example.com' };

describe('the passkeys relying party', () => {
  it("defaults to APP_URL's host and origin, with the portal's name", () => {
    expect(relyingPartyOf(loadConfig(base))).toEqual({
      id: 'portal.example.com',
      name: 'Brokerage Portal',
      origins: ['https://portal.example.com'],
    });
    expect(relyingPartyOf(loadConfig({ APP_URL: 'http://localhost:3000' })).origins).toEqual([
      'http://localhost:3000',
    ]);
  });

  it('takes WEBAUTHN_RP_ID and the comma-separated WEBAUTHN_ORIGINS', () => {
    const config = loadConfig({
      ...base,
      WEBAUTHN_RP_ID: 'Example.com',
      WEBAUTHN_ORIGINS: 'https://portal.example.com, https://m.example.com:8443',
    });
    expect(relyingPartyOf(config)).toMatchObject({
      id: 'example.com',
      origins: ['https://portal.example.com', 'https://m.example.com:8443'],
    });
  });

  it('refuses an RP ID with a scheme, port or path, and origins with a path or no scheme', () => {
    for (const WEBAUTHN_RP_ID of ['https://example.com', 'example.com:443', 'example.com/login', 'a b']) {
      expect(() => loadConfig({ ...base, WEBAUTHN_RP_ID }), WEBAUTHN_RP_ID).toThrow(ConfigError);
    }
    for (const WEBAUTHN_ORIGINS of [
      'portal.example.com',
      'https://portal.example.com/',
      'https://a.com,ftp://b.com',
      ',',
    ]) {
      expect(() => loadConfig({ ...base, WEBAUTHN_ORIGINS }), WEBAUTHN_ORIGINS).toThrow(/WEBAUTHN_ORIGINS/);
    }
  });
});
