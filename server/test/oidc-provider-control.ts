/**
 * How a test names who signs in next at the test OpenID provider (server/test/oidc-provider.ts),
 * apart from it so the browser journeys can import it without loading the provider.
 */

export type ProviderAccount = {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  amr?: string[];
};

/** POST an account (JSON) here: the next sign-in at the provider is that account's. */
export const CONTROL_PATH = '/__test/next-account';
