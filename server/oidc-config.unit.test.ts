import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from './config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

const OIDC = {
  OIDC_ISSUER: 'https://example.okta.com/',
  OIDC_CLIENT_ID: 'portal',
  OIDC_CLIENT_SECRET: 'client-secret-value',
};

describe('the OIDC_* settings', () => {
  test('off unless issuer, client id and secret are set; the name and auto-registration have defaults', () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(loadConfig(OIDC).oidc).toEqual({
      issuer: 'https://example.okta.com/',
      clientId: 'portal',
      clientSecret: 'client-secret-value',
      name: 'single sign-on',
      autoRegister: false,
    });
    expect(loadConfig({ ...OIDC, OIDC_NAME: 'Okta', OIDC_AUTO_REGISTER: 'true' }).oidc).toMatchObject({
      name: 'Okta',
      autoRegister: true,
    });
  });

  test('all three or none, an https issuer off the loopback, and never the secret in a message (the issuer is not secret)', () => {
    expect(problemsOf({ OIDC_ISSUER: OIDC.OIDC_ISSUER })).toEqual([
      expect.stringMatching(/^OIDC_CLIENT_ID is required when any of/),
      expect.stringMatching(/^OIDC_CLIENT_SECRET is required when any of/),
    ]);
    expect(problemsOf({ ...OIDC, OIDC_ISSUER: 'http://idp.example.com' })).toEqual([
      'OIDC_ISSUER must be an https URL (plain http only on localhost) (got "http://idp.example.com")',
    ]);
    expect(problemsOf({ ...OIDC, OIDC_ISSUER: 'http://127.0.0.1:9000' })).toEqual([]);
    expect(problemsOf({ ...OIDC, OIDC_ISSUER: 'ldap://idp' })).toEqual([
      'OIDC_ISSUER must be an http(s) URL (got "ldap://idp")',
    ]);
    expect(problemsOf({ ...OIDC, OIDC_ISSUER: 'ldap://idp' }).join()).not.toContain(OIDC.OIDC_CLIENT_SECRET);
    expect(problemsOf({ ...OIDC, OIDC_AUTO_REGISTER: 'maybe' })).toEqual([
      'OIDC_AUTO_REGISTER must be true or false (got "maybe")',
    ]);
  });
});
