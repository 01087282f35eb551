import type { z } from 'zod';

/**
 * The settings of sign-in with an OpenID provider (OIDC_*), apart from config.ts so the one
 * feature's rules read together. Off unless issuer, client id and secret are all set.
 */

export type OidcSettings = {
  /** The provider's issuer URL; discovery reads `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in button names: "Sign in with <name>". */
  name: string;
  /** Unknown e-mail addresses become agents awaiting approval instead of being refused. */
  autoRegister: boolean;
};

type OidcEnvironment = {
  OIDC_ISSUER?: string | undefined;
  OIDC_CLIENT_ID?: string | undefined;
  OIDC_CLIENT_SECRET?: string | undefined;
  OIDC_NAME: string;
  OIDC_AUTO_REGISTER: boolean;
};

const REQUIRED = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;

/** Loopback hosts, where a provider may answer over plain http (a developer's or a test's). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** All three or none; an issuer off the loopback must be https (its answers carry the keys). */
export function oidcIssues(env: OidcEnvironment, issue: z.RefinementCtx): void {
  const set = REQUIRED.filter((name) => env[name] !== undefined);
  if (set.length > 0 && set.length < REQUIRED.length) {
    for (const name of REQUIRED) {
      if (env[name] === undefined)
        issue.addIssue({
          code: 'custom',
          path: [name],
          message: `is required when any of ${REQUIRED.join(', ')} is set (all three or none)`,
        });
    }
  }
  if (env.OIDC_ISSUER && URL.canParse(env.OIDC_ISSUER)) {
    const url = new URL(env.OIDC_ISSUER);
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
      issue.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message: 'must be an https URL (plain http only on localhost)',
      });
  }
}

export function oidcSettingsOf(env: OidcEnvironment): OidcSettings | undefined {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) return undefined;
  return {
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    name: env.OIDC_NAME,
    autoRegister: env.OIDC_AUTO_REGISTER,
  };
}
